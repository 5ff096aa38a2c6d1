"""Chinese resident ID numbers (居民身份证号): checksum, birth date, gender and region they encode.

Registration trusts the ID number more than typed-in fields, so rosters are cross-checked
against it; an ID number is always text (Excel loses digits beyond 15 and the trailing X).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from yisai.registry.person import Gender

_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CHECK = "10X98765432"
_SHAPE = re.compile(r"^\d{17}[\dX]$")

# GB/T 2260 first two digits. 81/82/83 are the residence permits of HK/Macau/Taiwan residents.
PROVINCES: dict[str, str] = {
    "11": "北京", "12": "天津", "13": "河北", "14": "山西", "15": "内蒙古",
    "21": "辽宁", "22": "吉林", "23": "黑龙江",
    "31": "上海", "32": "江苏", "33": "浙江", "34": "安徽", "35": "福建", "36": "江西", "37": "山东",
    "41": "河南", "42": "湖北", "43": "湖南", "44": "广东", "45": "广西", "46": "海南",
    "50": "重庆", "51": "四川", "52": "贵州", "53": "云南", "54": "西藏",
    "61": "陕西", "62": "甘肃", "63": "青海", "64": "宁夏", "65": "新疆",
    "71": "台湾", "81": "香港", "82": "澳门", "83": "台湾",
}
_NON_MAINLAND = {"71": "台湾", "81": "香港", "82": "澳门", "83": "台湾"}
MAINLAND = "中国大陆"


@dataclass(frozen=True, slots=True)
class IdCard:
    number: str
    birth_date: date
    gender: Gender
    province: str
    region: str  # 中国大陆 / 香港 / 澳门 / 台湾


def check_digit(first17: str) -> str:
    return _CHECK[sum(int(c) * w for c, w in zip(first17, _WEIGHTS, strict=True)) % 11]


def normalise(text: str) -> str:
    """Strip spaces and make a lowercase x uppercase, as people type it both ways."""
    return re.sub(r"\s+", "", str(text)).upper()


def parse_id_number(text: str) -> IdCard:
    """Validate an 18-digit ID number; raise ValueError with a Chinese reason saying what to fix."""
    n = normalise(text)
    if len(n) != 18:
        raise ValueError(f"身份证号应为18位, 这里是{len(n)}位: {n}")
    if not _SHAPE.match(n):
        raise ValueError(f"身份证号前17位须为数字, 最后一位为数字或X: {n}")
    code = n[:2]
    if code not in PROVINCES:
        raise ValueError(f"身份证号前两位{code}不是有效的省级行政区代码: {n}")
    try:
        born = date(int(n[6:10]), int(n[10:12]), int(n[12:14]))
    except ValueError:
        raise ValueError(f"身份证号第7至14位{n[6:14]}不是有效的出生日期: {n}") from None
    expected = check_digit(n[:17])
    if n[17] != expected:
        raise ValueError(f"身份证号校验位错误: 按前17位应为{expected}, 实为{n[17]}, 请核对号码: {n}")
    gender = Gender.MALE if int(n[16]) % 2 == 1 else Gender.FEMALE
    return IdCard(n, born, gender, PROVINCES[code], _NON_MAINLAND.get(code, MAINLAND))
