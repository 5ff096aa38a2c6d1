"""Which online-qualifier period is open, and which pool a division plays in (pure).

Seed 000 十(一): six parallel periods (5/6–5/25 … 8/14–9/3), "全天任意时段（每期的首日比赛从10点
开始）": a period is open from its first day's start time (10:00; midnight when the regulation
gives none) to the end of its last day, in Beijing time. Outside every period nobody can queue.
Pools: "公开组" plays alone; "少儿组" is the ladder format's pool ``youth = [junior, kids]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from yisai.i18n import Text
from yisai.regulation.format_base import as_kind
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import LadderFormat, Period, Stage


class NoLadder(ValueError):
    """The regulation has no online ladder stage."""


@dataclass(frozen=True, slots=True)
class Window:
    period: Period
    opens: datetime  # Beijing wall time, naive
    closes: datetime  # exclusive: the midnight after the period's last day


def ladder_stage(regulation: Regulation) -> tuple[Stage, LadderFormat]:
    for stage in regulation.stages:
        ladder = as_kind(stage.format, LadderFormat)
        if ladder is not None:
            return stage, ladder
    raise NoLadder("规程中没有网络海选赛 (online_ladder)")


def window(period: Period) -> Window:
    opens = datetime.combine(period.start, period.first_day_start or time(0))
    closes = datetime.combine(period.end + timedelta(days=1), time(0))
    return Window(period, opens, closes)


def open_period(stage: Stage, now: datetime) -> Period | None:
    """The period open at ``now`` (Beijing wall time), or None."""
    for period in stage.periods:
        w = window(period)
        if w.opens <= now < w.closes:
            return period
    return None


def closed_reason(stage: Stage, now: datetime) -> Text:
    """Why queueing is not possible now, naming the next opening when there is one."""
    upcoming = [window(p) for p in stage.periods if window(p).opens > now]
    if upcoming:
        nxt = min(upcoming, key=lambda w: w.opens)
        when = nxt.opens.strftime("%Y-%m-%d %H:%M")
        return Text(f"现在不在比赛期内; 第{nxt.period.number}期于 {when} (北京时间) 开始",
                    f"no period is open now; period {nxt.period.number} opens at {when} (Beijing time)")
    return Text("本阶段各期比赛均已结束", "every period of this stage is over")


@dataclass(frozen=True, slots=True)
class Suspension:
    """禁赛 (赛风赛纪): no queueing in ``periods`` periods from ``first_period``."""

    first_period: int
    periods: int
    reason: str

    def covers(self, number: int) -> bool:
        return self.first_period <= number < self.first_period + self.periods


def queue_refusal(stage: Stage, now: datetime, suspensions: tuple[Suspension, ...] = ()) -> Text | None:
    """Why a player may not queue at ``now`` (Beijing wall time), or None when they may.

    The period closes at the midnight after its last day, exactly: from that instant nobody is
    matched (games already started finish and count in their period). A suspension covering
    the open period refuses with its reason.
    """
    period = open_period(stage, now)
    if period is None:
        return closed_reason(stage, now)
    for s in suspensions:
        if s.covers(period.number):
            last = s.first_period + s.periods - 1
            span = f"第{s.first_period}期" if last == s.first_period else f"第{s.first_period}–{last}期"
            span_en = f"period {s.first_period}" if last == s.first_period else f"periods {s.first_period}–{last}"
            return Text(f"你已被禁赛 ({span}): {s.reason}", f"you are suspended ({span_en}): {s.reason}")
    return None


def pool_of(ladder: LadderFormat, division: str) -> str:
    """The pool a division plays and is ranked in: a ``pools`` key, or the division itself."""
    for pool, members in ladder.pools.items():
        if division in members:
            return pool
    return division


def pools(stage: Stage, ladder: LadderFormat) -> list[str]:
    """Every pool of the stage, in the order of its divisions."""
    out: list[str] = []
    for d in stage.divisions:
        p = pool_of(ladder, d)
        if p not in out:
            out.append(p)
    return out


__all__ = ["NoLadder", "Suspension", "Window", "closed_reason", "ladder_stage", "open_period",
           "pool_of", "pools", "queue_refusal", "window"]  # fmt: skip
