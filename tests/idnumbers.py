"""Valid Chinese ID numbers for test players (test data only: the program never makes one)."""

from __future__ import annotations

from datetime import date

from yisai.registry.idcard import check_digit
from yisai.registry.person import Gender


def make_id_number(prefix6: str, born: date, sequence: int, gender: Gender) -> str:
    """Build a valid number for a test player: ``sequence`` 0..99, gender sets digit 17."""
    seq = f"{sequence % 100:02d}"
    g = (1 if gender is Gender.MALE else 0) + 2 * (sequence % 5)
    body = f"{prefix6}{born:%Y%m%d}{seq}{g % 10}"
    return body + check_digit(body)
