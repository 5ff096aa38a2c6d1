"""Amateur ranks (段位/级位) as one ordered integer, so comparisons and thresholds are trivial.

Encoding follows OpenGotha's convention: 1 dan = 0, 8 dan = 7, 1 kyu = -1, 25 kyu = -25.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

MIN_KYU = 25
MAX_DAN = 9  # 8 dan is the top amateur grade awarded; 9 is accepted for foreign files

_CN_DIGITS = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_PATTERN = re.compile(
    r"^\s*(?:业余)?\s*(?P<num>\d{1,2}|[初一二三四五六七八九])\s*(?P<unit>段|级|d|k|dan|kyu|D|K)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True, slots=True)
class Rank:
    """An amateur grade; ``value`` is ordered (higher is stronger)."""

    value: int

    @classmethod
    def dan(cls, n: int) -> Rank:
        if not 1 <= n <= MAX_DAN:
            raise ValueError(f"段位必须在1段至{MAX_DAN}段之间: {n}")
        return cls(n - 1)

    @classmethod
    def kyu(cls, n: int) -> Rank:
        if not 1 <= n <= MIN_KYU:
            raise ValueError(f"级位必须在{MIN_KYU}级至1级之间: {n}")
        return cls(-n)

    @classmethod
    def parse(cls, text: str | Rank) -> Rank:
        """Accept '5段', '业余5段', '五段', '3级', '5d', '12k', '5D'."""
        if isinstance(text, Rank):
            return text
        m = _PATTERN.match(str(text))
        if not m:
            raise ValueError(f"无法识别的段级位: {text!r}（应为如 5段、3级、5d、12k）")
        raw = m.group("num")
        n = int(raw) if raw.isdigit() else _CN_DIGITS[raw]
        unit = m.group("unit").lower()
        return cls.dan(n) if unit in ("段", "d", "dan") else cls.kyu(n)

    @property
    def is_dan(self) -> bool:
        return self.value >= 0

    @property
    def number(self) -> int:
        return self.value + 1 if self.is_dan else -self.value

    def __str__(self) -> str:
        return f"{self.number}段" if self.is_dan else f"{self.number}级"

    @property
    def short(self) -> str:
        """The EGD/OpenGotha form: '5d', '3k'."""
        return f"{self.number}d" if self.is_dan else f"{self.number}k"


def _to_rank(value: object) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Rank(value)
    if isinstance(value, str):
        return Rank.parse(value)
    raise ValueError(f"段级位应为如 5段 或 3级 的文字: {value!r}")


# A pydantic field type: read '5段'/'3级'/'5d', write '5段'.
RankField = Annotated[Rank, BeforeValidator(_to_rank), PlainSerializer(str, return_type=str)]
