"""ID numbers: the GB 11643-1999 checksum and what the number encodes."""

from __future__ import annotations

from datetime import date

import pytest

from tests.idnumbers import make_id_number
from yisai.registry.idcard import MAINLAND, parse_id_number
from yisai.registry.person import Gender


def test_standard_example_from_gb11643() -> None:
    # The standard's own worked example: check digit X, 1949-12-31, sequence 002 (even: female).
    card = parse_id_number("11010519491231002x")
    assert card.number == "11010519491231002X"
    assert card.birth_date == date(1949, 12, 31)
    assert card.gender is Gender.FEMALE
    assert card.province == "北京"
    assert card.region == MAINLAND


@pytest.mark.parametrize(
    ("number", "fragment"),
    [
        ("110105194912310021", "校验位错误: 按前17位应为X, 实为1"),
        ("11010519491231002", "应为18位, 这里是17位"),
        ("1101051949123100AX", "前17位须为数字"),
        ("990105194912310021", "前两位99不是有效的省级行政区代码"),
        ("110105194902300021", "19490230不是有效的出生日期"),
    ],
)
def test_bad_numbers_say_what_is_wrong(number: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_id_number(number)


def test_residence_permit_codes_mean_hk_macau_taiwan() -> None:
    for prefix, region in (("810000", "香港"), ("820000", "澳门"), ("830000", "台湾")):
        number = make_id_number(prefix, date(2014, 3, 3), 7, Gender.MALE)
        assert parse_id_number(number).region == region


def test_made_numbers_round_trip() -> None:
    n = make_id_number("330106", date(2013, 6, 1), 42, Gender.FEMALE)
    card = parse_id_number(n)
    assert (card.birth_date, card.gender, card.province) == (date(2013, 6, 1), Gender.FEMALE, "浙江")
