"""Team composition reasons: seed 002 (省队: 6 players in slots 甲乙丙×男女, 1 leader, 1 coach,
38 teams, one per province, by 2025-04-18 17:00) and seed 000 (城市代表队: at most 5, 3 men + 2
women, registration 6月1日—10月8日)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from tests.conftest import REGULATIONS
from yisai.formats.regulation_file import load
from yisai.registry.eligibility import check_team
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team, TeamMember
from yisai.regulation import Regulation

BORN = {"jia": date(2013, 5, 5), "yi": date(2016, 5, 5), "bing": date(2018, 5, 5)}
OK_TIME = datetime(2025, 4, 10, 9, 0)


@pytest.fixture(scope="module")
def xqw() -> Regulation:
    return load(REGULATIONS / "2025-xiaoqiwang.toml")


@pytest.fixture(scope="module")
def shanhai() -> Regulation:
    return load(REGULATIONS / "2025-shanhai-cup.toml")


def six(province: str = "浙江", prefix: str = "") -> tuple[dict[str, Player], list[TeamMember]]:
    players, members = {}, []
    for division, label in (("jia", "甲组"), ("yi", "乙组"), ("bing", "丙组")):
        for gender in Gender:
            pid = f"{prefix}{division}{gender.value}"
            players[pid] = Player(
                id=pid, name=f"{label}{gender.label}{prefix}", gender=gender,
                birth_date=BORN[division], province=province,
            )  # fmt: skip
            members.append(TeamMember(player_id=pid, slot=f"{label}{gender.label}", division=division))
    return players, members


def team(members: list[TeamMember], **kw: object) -> Team:
    fields: dict[str, object] = {"name": "浙江队", "province": "浙江省", "leaders": ("王领队",), "coaches": ("李教练",)}
    fields.update(kw)
    return Team(members=tuple(members), **fields)  # type: ignore[arg-type]


def test_complete_team_passes(xqw: Regulation) -> None:
    players, members = six()
    assert check_team(team(members), players, xqw.teams, xqw, at=OK_TIME) == []  # type: ignore[arg-type]


def test_slot_gender_division_and_duplicates(xqw: Regulation) -> None:
    players, members = six()
    members[0] = members[0].model_copy(update={"slot": "甲组女"})  # a boy in the girls' seat
    members[2] = members[2].model_copy(update={"division": "bing"})  # 乙组男 seat, entered 丙组
    got = check_team(team(members), players, xqw.teams, xqw)  # type: ignore[arg-type]
    assert got == [
        "甲组女席位须为女棋手, 甲组男为男",
        "乙组男席位须由乙组棋手担任, 乙组男报名的是丙组",
        "甲组女席位只能有1人, 现有2人(甲组男、甲组女)",
    ]


def test_unknown_slot_and_missing_slot(xqw: Regulation) -> None:
    players, members = six()
    members[0] = members[0].model_copy(update={"slot": "丁组男"})
    members[1] = members[1].model_copy(update={"slot": None})
    got = check_team(team(members), players, xqw.teams, xqw)  # type: ignore[arg-type]
    choices = "甲组男、甲组女、乙组男、乙组女、丙组男、丙组女"
    assert got == [f"甲组男的席位“丁组男”不存在(可选: {choices})", f"甲组女未指定席位(可选: {choices})"]


def test_too_many_players_men_leaders_coaches(xqw: Regulation) -> None:
    players, members = six()
    extra = Player(id="x", name="多一人", gender=Gender.MALE, birth_date=BORN["jia"], province="浙江")
    players["x"] = extra
    members.append(TeamMember(player_id="x", slot="甲组男", division="jia"))
    t = team(members, leaders=("甲", "乙"), coaches=("丙", "丁"))
    got = check_team(t, players, xqw.teams, xqw)  # type: ignore[arg-type]
    assert "领队2人(甲、乙), 超过限报1人" in got
    assert "教练2人(丙、丁), 超过限报1人" in got
    assert "队员7人, 超过每队限报6人" in got
    assert "男队员4人, 超过限报3人" in got
    assert "甲组男席位只能有1人, 现有2人(甲组男、多一人)" in got


def test_team_limit_one_per_province_and_window(xqw: Regulation) -> None:
    players, members = six()
    others = [Team(name=f"队{i}", province=f"省{i}") for i in range(38)]
    got = check_team(team(members), players, xqw.teams, xqw, other_teams=others, at=datetime(2025, 4, 18, 17, 1))  # type: ignore[arg-type]
    assert got == [
        "报名时间2025-04-18 17:01不在省队报名时间(截至2025-04-18 17:00)内",
        "已报38支省队, 达到限报38支",
    ]
    same_province = [Team(name="浙江一队", province="浙江")]
    got = check_team(team(members), players, xqw.teams, xqw, other_teams=same_province, at=OK_TIME)  # type: ignore[arg-type]
    assert got == ["浙江已报1支省队, 每地限报1支"]


def test_member_from_another_province_and_in_another_team(xqw: Regulation) -> None:
    players, members = six()
    players["jiaM"] = players["jiaM"].model_copy(update={"province": "江苏省"})
    other = Team(name="上海队", province="上海", members=(TeamMember(player_id="yiF"),))
    got = check_team(team(members), players, xqw.teams, xqw, other_teams=[other])  # type: ignore[arg-type]
    assert got == ["乙组女已在上海队中", "甲组男的省份江苏与省队“浙江队”(浙江)不符"]


def test_city_team_three_men_two_women(shanhai: Regulation) -> None:
    players = {
        f"p{i}": Player(id=f"p{i}", name=f"棋手{i}", gender=g, city="杭州")
        for i, g in enumerate([Gender.MALE] * 4 + [Gender.FEMALE] * 2)
    }
    members = [TeamMember(player_id=pid) for pid in players]
    t = Team(name="杭州队", province="浙江", city="杭州市", members=tuple(members))
    got = check_team(t, players, shanhai.teams, shanhai, at=datetime(2025, 10, 9, 8, 0))  # type: ignore[arg-type]
    assert got == [
        "报名时间2025-10-09 08:00不在城市代表队报名时间(2025-06-01 00:00至2025-10-08 23:59)内",
        "队员6人, 超过每队限报5人",
        "男队员4人, 超过限报3人",
    ]
    fine = Team(name="杭州队", city="杭州", members=tuple(members[1:4] + members[4:]))
    assert check_team(fine, players, shanhai.teams, shanhai, at=datetime(2025, 10, 8, 23, 0)) == []  # type: ignore[arg-type]


def test_city_team_needs_a_city(shanhai: Regulation) -> None:
    assert check_team(Team(name="无名队"), {}, shanhai.teams, shanhai) == [  # type: ignore[arg-type]
        "城市代表队“无名队”缺少城市"
    ]


def test_separately_listed_cities_and_the_bingtuan_are_their_own_associations(xqw: Regulation) -> None:
    # Seed 002 六(一): 各省、自治区、直辖市、新疆生产建设兵团、计划单列市围棋协会选拔或组建1支队伍.
    # 辽宁 has a team; 大连 (a 计划单列市 in 辽宁) fields its own; a second 大连 team is refused.
    players, members = six("辽宁")
    liaoning = team(members, name="辽宁队", province="辽宁省")
    dalian_players, dalian_members = six("辽宁", prefix="dl")
    players |= dalian_players
    dalian = team(dalian_members, name="大连队", province="辽宁", city="大连市")
    assert check_team(dalian, players, xqw.teams, xqw, other_teams=[liaoning], at=OK_TIME) == []  # type: ignore[arg-type]
    # The other order too: 辽宁 after 大连.
    assert check_team(liaoning, players, xqw.teams, xqw, other_teams=[dalian], at=OK_TIME) == []  # type: ignore[arg-type]
    second_players, second_members = six("辽宁", prefix="d2")
    players |= second_players
    dalian2 = team(second_members, name="大连二队", province="辽宁", city="大连")
    got = check_team(dalian2, players, xqw.teams, xqw, other_teams=[liaoning, dalian], at=OK_TIME)  # type: ignore[arg-type]
    assert got == ["大连已报1支省队, 每地限报1支"]
    # Each of the five cities beside its province, and 兵团 beside 新疆 (named by its team name).
    for city, province in (("青岛", "山东"), ("宁波", "浙江"), ("厦门", "福建"), ("深圳", "广东")):
        p_players, p_members = six(province, prefix=f"{city}p")
        c_players, c_members = six(province, prefix=f"{city}c")
        both = p_players | c_players
        prov = team(p_members, name=f"{province}队", province=province)
        c = team(c_members, name=f"{city}队", province=province, city=city)
        assert check_team(c, both, xqw.teams, xqw, other_teams=[prov], at=OK_TIME) == []  # type: ignore[arg-type]
    x_players, x_members = six("新疆", prefix="x")
    b_players, b_members = six("新疆", prefix="b")
    xinjiang = team(x_members, name="新疆队", province="新疆维吾尔自治区")
    bingtuan = team(b_members, name="新疆生产建设兵团队", province="新疆")
    both = x_players | b_players
    assert check_team(bingtuan, both, xqw.teams, xqw, other_teams=[xinjiang], at=OK_TIME) == []  # type: ignore[arg-type]
    as_province = team(b_members, name="兵团", province="新疆生产建设兵团")
    assert check_team(as_province, both, xqw.teams, xqw, other_teams=[xinjiang], at=OK_TIME) == []  # type: ignore[arg-type]
    # An ordinary city of 辽宁 is not its own association: 沈阳 counts as 辽宁.
    s_players, s_members = six("辽宁", prefix="sy")
    shenyang = team(s_members, name="沈阳队", province="辽宁", city="沈阳")
    got = check_team(shenyang, players | s_players, xqw.teams, xqw, other_teams=[liaoning], at=OK_TIME)  # type: ignore[arg-type]
    assert got == ["辽宁已报1支省队, 每地限报1支"]


def _city_players(genders: str) -> dict[str, Player]:
    return {
        f"p{i}": Player(id=f"p{i}", name=f"棋手{i}", gender=Gender.parse(g), city="杭州")
        for i, g in enumerate(genders, start=1)
    }


def test_city_roster_with_four_men_keeps_three_and_enters_the_fourth_individually(shanhai: Regulation) -> None:
    # Seed 000 十一(二)2: 每个城市代表队最多可报5人（3男2女）…不足或超过可以以个人名义参赛.
    # Listed order M M M M F F: the first three men and both women form the team; the 4th man
    # (p4) plays as an individual, with a note; the team then meets every limit.
    from yisai.registry.team_split import split_extra_players

    players = _city_players("MMMMFF")
    listed = [TeamMember(player_id=pid) for pid in players]
    split = split_extra_players(listed, players, shanhai.teams, team_name="杭州队")  # type: ignore[arg-type]
    assert [m.player_id for m in split.team] == ["p1", "p2", "p3", "p5", "p6"]
    assert [i.member.player_id for i in split.individuals] == ["p4"]
    assert split.notes == ["棋手4: 杭州队已有3名男队员（城市代表队最多3男），以个人名义参赛"]
    kept = Team(name="杭州队", city="杭州", members=split.team)
    assert check_team(kept, players, shanhai.teams, shanhai) == []  # type: ignore[arg-type]


def test_city_roster_overflow_by_women_by_total_and_after_earlier_members(shanhai: Regulation) -> None:
    from yisai.registry.team_split import split_extra_players

    players = _city_players("FFFMMMM")  # 3 women listed first: the 3rd woman, then the 4th man
    listed = [TeamMember(player_id=pid) for pid in players]
    split = split_extra_players(listed, players, shanhai.teams, team_name="杭州队")  # type: ignore[arg-type]
    assert [m.player_id for m in split.team] == ["p1", "p2", "p4", "p5", "p6"]
    assert [i.member.player_id for i in split.individuals] == ["p3", "p7"]
    assert "已有2名女队员" in split.notes[0]
    # The team already holds 3 men and 1 woman: a new man and a new woman are listed; the man
    # plays individually, the woman joins (5 in all).
    already = [TeamMember(player_id=pid) for pid in ("p4", "p5", "p6", "p1")]
    split = split_extra_players(
        [TeamMember(player_id="p7"), TeamMember(player_id="p2")], players, shanhai.teams,  # type: ignore[arg-type]
        team_name="杭州队", already=already,
    )
    assert [m.player_id for m in split.team] == ["p2"]
    assert [i.member.player_id for i in split.individuals] == ["p7"]


def test_no_split_when_the_regulation_does_not_allow_individuals(xqw: Regulation) -> None:
    # Seed 002 says nothing of the kind: a 7th player stays listed and check_team refuses.
    from yisai.registry.team_split import split_extra_players

    players, members = six()
    players["extra"] = Player(id="extra", name="多一人", gender=Gender.MALE, birth_date=BORN["jia"], province="浙江")
    listed = [*members, TeamMember(player_id="extra", slot="甲组男", division="jia")]
    split = split_extra_players(listed, players, xqw.teams, team_name="浙江队")  # type: ignore[arg-type]
    assert split.team == tuple(listed) and split.individuals == ()


def test_too_few_men_for_the_mens_team_is_noted(shanhai: Regulation) -> None:
    from yisai.registry.team_split import shortfall_notes

    players = _city_players("MMFF")
    members = [TeamMember(player_id=pid) for pid in players]
    assert shortfall_notes(members, players, shanhai.teams, team_name="杭州队") == [  # type: ignore[arg-type]
        "杭州队: 男子团体须3人，现有2人，不计男子团体成绩（队员以个人名义参赛）"
    ]
