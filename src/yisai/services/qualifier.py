"""The online qualifier's lists and dates: who qualifies from a period, and by when qualified
players must confirm (ten working days, statutory holidays and 调休 included)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from yisai.awards.qualifier import confirm_deadline
from yisai.i18n import Text
from yisai.regulation import Regulation
from yisai.regulation.stages import LadderFormat
from yisai.services.errors import InputError
from yisai.services.workdays import china_workday_calendar


@dataclass(frozen=True)
class PeriodDeadline:
    number: int
    start: date
    end: date
    counted_from: date
    deadline: date  # inclusive


@dataclass(frozen=True)
class StageDeadlines:
    stage: str  # the stage's name (网络海选赛)
    working_days: int | None  # None: the regulation sets no confirmation rule
    periods: tuple[PeriodDeadline, ...]


def confirmation_deadlines(
    regulation: Regulation, *, calendar_file: Path | None = None, after: date | None = None
) -> list[StageDeadlines]:
    """Each ladder stage's confirmation deadline per period (from ``after`` or the period's end)."""
    ladders = [s for s in regulation.stages if isinstance(s.format, LadderFormat)]
    if not ladders:
        raise InputError(Text("规程中没有网络海选赛 (online_ladder)", "no online ladder in this regulation"),
                         code="no_ladder")
    is_workday = china_workday_calendar(calendar_file)
    out = []
    for stage in ladders:
        fmt = stage.format
        assert isinstance(fmt, LadderFormat)
        n = fmt.confirm_within_working_days
        periods = tuple(
            PeriodDeadline(p.number, p.start, p.end, after or p.end,
                           confirm_deadline(after or p.end, n, is_workday))
            for p in stage.periods
        ) if n is not None else ()
        out.append(StageDeadlines(stage.name, n, periods))
    return out
