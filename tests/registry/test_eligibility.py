"""Eligibility reasons for both seed regulations; expected sentences follow the 规程 text.

Seed 000 §十一: 少年组 2011-09-01..2019-08-31, 幼儿组 2019-09-01 and later, 中老年组
1955-01-01..1980-12-31, certificate required, new professionals play as amateurs, 港澳台 另行规定.
Seed 002 §七: 甲组 2013–2014, 乙组 2015–2017, 丙组 2018–2019 (exact group), amateurs only,
certificate required, mainland only.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from yisai.formats.regulation_file import load
from yisai.registry.eligibility import check_player, place_name, region_of
from yisai.registry.person import Gender, Player, ProStatus
from yisai.regulation import Regulation


@pytest.fixture(scope="module")
def shanhai() -> Regulation:
    return load(REGULATIONS / "2025-shanhai-cup.toml")


@pytest.fixture(scope="module")
def xiaoqiwang() -> Regulation:
    return load(REGULATIONS / "2025-xiaoqiwang.toml")


def player(born: date | None, **kw: object) -> Player:
    fields: dict[str, object] = {
        "id": "1", "name": "张小明", "gender": Gender.MALE, "birth_date": born,
        "certificate_no": "ZW2024-0001", "province": "浙江",
    }  # fmt: skip
    fields.update(kw)
    return Player(**fields)  # type: ignore[arg-type]


def reasons(reg: Regulation, division: str, p: Player) -> list[str]:
    return check_player(p, reg.division(division), reg)


# ---------------------------------------------------------------- seed 000 windows


def test_issue_example_sentence(shanhai: Regulation) -> None:
    assert reasons(shanhai, "junior", player(date(2010, 8, 31))) == [
        "出生日期2010-08-31不在少年组范围(2011-09-01至2019-08-31)"
    ]


@pytest.mark.parametrize(
    ("division", "born", "ok"),
    [
        ("junior", date(2011, 9, 1), True),
        ("junior", date(2019, 8, 31), True),
        ("junior", date(2011, 8, 31), False),
        ("junior", date(2019, 9, 1), False),
        ("kids", date(2019, 9, 1), True),
        ("kids", date(2022, 1, 1), True),
        ("kids", date(2019, 8, 31), False),
        ("senior", date(1955, 1, 1), True),
        ("senior", date(1980, 12, 31), True),
        ("senior", date(1954, 12, 31), False),
        ("senior", date(1981, 1, 1), False),
    ],
)
def test_shanhai_birth_windows_edges(shanhai: Regulation, division: str, born: date, ok: bool) -> None:
    assert (reasons(shanhai, division, player(born)) == []) is ok


def test_open_ended_window_is_written_as_and_later(shanhai: Regulation) -> None:
    assert reasons(shanhai, "kids", player(date(2019, 8, 31))) == [
        "出生日期2019-08-31不在幼儿组范围(2019-09-01及以后)"
    ]
    assert reasons(shanhai, "senior", player(date(1981, 1, 1))) == [
        "出生日期1981-01-01不在中老年组范围(1955-01-01至1980-12-31)"
    ]


def test_shanhai_new_pro_plays_as_amateur_but_pro_may_not(shanhai: Regulation) -> None:
    assert reasons(shanhai, "open", player(date(2000, 1, 1), pro_status=ProStatus.NEW_PRO)) == []
    assert reasons(shanhai, "open", player(date(2000, 1, 1), pro_status=ProStatus.PRO)) == [
        "职业棋手不得参加公开组(仅当年新定段的职业棋手可按业余身份参赛)"
    ]


def test_shanhai_certificate_and_hk_macau_taiwan_note(shanhai: Regulation) -> None:
    hk = make_id_number("810000", date(1990, 2, 2), 3, Gender.MALE)
    got = reasons(shanhai, "open", player(date(1990, 2, 2), certificate_no=None, id_number=hk, province=None))
    assert got == [
        "缺少中国围棋协会监制的业余段级位证书(请填写证书编号)",
        "港澳台地区棋手参赛事宜另行规定",
    ]


def test_missing_birth_date_is_a_reason_not_a_pass(shanhai: Regulation) -> None:
    assert reasons(shanhai, "junior", player(None)) == [
        "缺少出生日期, 无法核对少年组范围(2011-09-01至2019-08-31)"
    ]


# ---------------------------------------------------------------- seed 002


@pytest.mark.parametrize(
    ("division", "born", "ok"),
    [
        ("jia", date(2013, 1, 1), True),
        ("jia", date(2014, 12, 31), True),
        ("yi", date(2015, 1, 1), True),
        ("yi", date(2017, 12, 31), True),
        ("bing", date(2018, 1, 1), True),
        ("bing", date(2019, 12, 31), True),
        ("bing", date(2020, 1, 1), False),
        ("jia", date(2012, 12, 31), False),
    ],
)
def test_xiaoqiwang_windows(xiaoqiwang: Regulation, division: str, born: date, ok: bool) -> None:
    assert (reasons(xiaoqiwang, division, player(born)) == []) is ok


def test_exact_age_group_names_the_right_group(xiaoqiwang: Regulation) -> None:
    # 不得以大打小或以小打大: a 2015 child entered in 甲组 is told to play 乙组.
    assert reasons(xiaoqiwang, "jia", player(date(2015, 1, 1))) == [
        "出生日期2015-01-01不在甲组范围(2013-01-01至2014-12-31),"
        " 应按出生日期参加乙组(不得以大打小或以小打大)"
    ]
    assert reasons(xiaoqiwang, "bing", player(date(2012, 6, 1))) == [
        "出生日期2012-06-01不在丙组范围(2018-01-01至2019-12-31), 不属于任何组别的年龄范围"
    ]


def test_xiaoqiwang_amateurs_only(xiaoqiwang: Regulation) -> None:
    born = date(2014, 2, 2)
    assert reasons(xiaoqiwang, "jia", player(born, pro_status=ProStatus.NEW_PRO)) == [
        "当年新定段职业棋手不得参加甲组(仅限业余棋手)"
    ]
    assert reasons(xiaoqiwang, "jia", player(born, pro_status=ProStatus.PRO)) == [
        "职业棋手不得参加甲组(仅限业余棋手)"
    ]


def test_xiaoqiwang_mainland_only(xiaoqiwang: Regulation) -> None:
    born = date(2014, 2, 2)
    assert reasons(xiaoqiwang, "jia", player(born, region="香港")) == [
        "地区香港不符合甲组要求(仅限中国大陆)"
    ]
    macau = make_id_number("820000", born, 1, Gender.MALE)
    assert reasons(xiaoqiwang, "jia", player(born, id_number=macau, province=None)) == [
        "地区澳门不符合甲组要求(仅限中国大陆)"
    ]
    assert reasons(xiaoqiwang, "jia", player(born, province=None)) == [
        "地区未知, 甲组仅限中国大陆棋手参赛(请填写地区或身份证号)"
    ]
    mainland = make_id_number("330282", born, 1, Gender.MALE)
    assert reasons(xiaoqiwang, "jia", player(born, id_number=mainland, province=None)) == []


def test_every_reason_is_listed_at_once(xiaoqiwang: Regulation) -> None:
    p = player(date(2016, 3, 3), certificate_no="", pro_status=ProStatus.PRO, region="台湾")
    got = reasons(xiaoqiwang, "jia", p)
    assert len(got) == 4
    assert got[0].startswith("出生日期2016-03-03不在甲组范围")
    assert "缺少中国围棋协会监制的业余段级位证书(请填写证书编号)" in got
    assert "职业棋手不得参加甲组(仅限业余棋手)" in got
    assert "地区台湾不符合甲组要求(仅限中国大陆)" in got


def test_gender_and_rank_limits_from_a_built_regulation(xiaoqiwang: Regulation) -> None:
    data = xiaoqiwang.model_dump(mode="json")
    data["divisions"][0]["eligibility"].update({"genders": ["F"], "min_rank": "3段", "max_rank": "6段"})
    reg = Regulation.model_validate(data)
    born = date(2014, 2, 2)
    assert reasons(reg, "jia", player(born, rank="2段")) == [
        "性别男不符合甲组要求(限女)",
        "段级位2段低于甲组最低要求3段",
    ]
    assert reasons(reg, "jia", player(born, gender=Gender.FEMALE, rank="7段")) == [
        "段级位7段高于甲组最高限制6段"
    ]
    assert reasons(reg, "jia", player(born, gender=Gender.FEMALE)) == [
        "缺少段级位, 无法核对甲组的段级位要求"
    ]


def test_place_names_and_region_inference() -> None:
    assert place_name("浙江省") == "浙江"
    assert place_name("新疆维吾尔自治区") == "新疆"
    assert place_name("杭州市") == "杭州"
    p = Player(id="1", name="甲", gender=Gender.MALE, province="广东省")
    assert region_of(p) == "中国大陆"
