"""Helpers for tests that load regulation text and check the errors it gets."""

from __future__ import annotations

import pytest

from yisai.regulation import RegulationError, loads


def issues_of(text: str, name: str = "f.toml") -> list[str]:
    """The issues a broken regulation text is refused with, as the user reads them."""
    with pytest.raises(RegulationError) as info:
        loads(text, name)
    return [str(i) for i in info.value.issues]


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line containing ``needle`` (errors name lines)."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(needle)
