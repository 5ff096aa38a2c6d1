"""Row access for the qualifier → final tables (``qualification_models``) and the reads of
the live tables they need (finished games of a period, re-scored ladder lines).

Called only by ``yisai.services.qualification`` and ``yisai.services.fairplay`` inside their
unit of work. Plain records go out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from yisai.qualifier.ladder import LadderLine
from yisai.qualifier.session import LiveGameInfo
from yisai.store.live_models import LiveGameRow, LiveLadderRow, LiveMoveRow, LiveWaveRow
from yisai.store.live_rows import store_line
from yisai.store.qualification_models import (
    FairPlayRow,
    FinalEntryRow,
    LiveDecisionRow,
    LiveFocusRow,
    LiveSanctionRow,
    QualListRow,
    QualNoticeRow,
    QualPlaceRow,
)


# ----- published lists ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ListVersion:
    period: int
    pool: str
    version: int
    rows: list[dict[str, Any]]
    published_at: datetime
    by: str
    amended: bool
    reason: str


def _list(r: QualListRow) -> ListVersion:
    return ListVersion(r.period, r.pool, r.version, list(r.rows), r.published_at, r.by, r.amended, r.reason)


def list_versions(s: Session, event_id: int, stage: str, period: int | None = None,
                  pool: str | None = None) -> list[ListVersion]:
    """Every stored version, oldest first (per period and pool)."""
    q = select(QualListRow).where(QualListRow.event_id == event_id, QualListRow.stage == stage)
    if period is not None:
        q = q.where(QualListRow.period == period)
    if pool is not None:
        q = q.where(QualListRow.pool == pool)
    return [_list(r) for r in s.scalars(q.order_by(QualListRow.period, QualListRow.pool, QualListRow.version))]


def add_list(s: Session, *, event_id: int, stage: str, period: int, pool: str, version: int,
             rows: list[dict[str, Any]], at: datetime, by: str, amended: bool, reason: str) -> None:
    s.add(QualListRow(event_id=event_id, stage=stage, period=period, pool=pool, version=version,
                      rows=rows, published_at=at, by=by, amended=amended, reason=reason))  # fmt: skip
    s.flush()


# ----- places -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlaceRecord:
    id: int
    period: int
    pool: str
    player: str
    name: str
    status: str
    counted_from: date
    deadline: date
    details: dict[str, Any]
    division: str
    confirmed_at: datetime | None
    lapsed_at: datetime | None


def _place(r: QualPlaceRow) -> PlaceRecord:
    return PlaceRecord(r.id, r.period, r.pool, r.player, r.name, r.status, r.counted_from, r.deadline,
                       dict(r.details), r.division, r.confirmed_at, r.lapsed_at)  # fmt: skip


def places(s: Session, event_id: int, stage: str, *, player: str | None = None,
           period: int | None = None) -> list[PlaceRecord]:
    q = select(QualPlaceRow).where(QualPlaceRow.event_id == event_id, QualPlaceRow.stage == stage)
    if player is not None:
        q = q.where(QualPlaceRow.player == player)
    if period is not None:
        q = q.where(QualPlaceRow.period == period)
    return [_place(r) for r in s.scalars(q.order_by(QualPlaceRow.period, QualPlaceRow.id))]


def place_in(s: Session, event_id: int, place_id: int, *, lock: bool = False) -> PlaceRecord | None:
    """One place of the event by id (None when it is another event's or does not exist); ``lock``
    reads it ``FOR UPDATE`` (PostgreSQL) so a payment and a lapse cannot both move it."""
    q = select(QualPlaceRow).where(QualPlaceRow.event_id == event_id, QualPlaceRow.id == place_id)
    q = q.execution_options(populate_existing=True)
    r = s.scalars(q.with_for_update() if lock else q).first()
    return _place(r) if r is not None else None


def add_place(s: Session, *, event_id: int, stage: str, period: int, pool: str, player: str, name: str,
              counted_from: date, deadline: date, at: datetime) -> int:
    row = QualPlaceRow(event_id=event_id, stage=stage, period=period, pool=pool, player=player, name=name,
                       status="qualified", counted_from=counted_from, deadline=deadline, details={},
                       division="", updated_at=at)  # fmt: skip
    s.add(row)
    s.flush()
    return row.id


def update_place(s: Session, place_id: int, at: datetime, **values: Any) -> None:
    row = s.get(QualPlaceRow, place_id, with_for_update=True)
    if row is None:
        raise LookupError(place_id)
    for k, v in values.items():
        setattr(row, k, v)
    row.updated_at = at
    s.flush()


# ----- notices ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NoticeRecord:
    kind: str
    zh: str
    en: str
    at: datetime


def add_notice(s: Session, *, event_id: int, place_id: int, player: str, kind: str, zh: str, en: str,
               at: datetime) -> bool:
    """False when this notice was sent already (each kind once per place)."""
    exists = s.scalar(select(func.count()).select_from(QualNoticeRow)
                      .where(QualNoticeRow.place_id == place_id, QualNoticeRow.kind == kind))
    if exists:
        return False
    s.add(QualNoticeRow(event_id=event_id, place_id=place_id, player=player, kind=kind, text_zh=zh,
                        text_en=en, at=at))  # fmt: skip
    s.flush()
    return True


def notices(s: Session, event_id: int, player: str) -> list[NoticeRecord]:
    q = (select(QualNoticeRow).where(QualNoticeRow.event_id == event_id, QualNoticeRow.player == player)
         .order_by(QualNoticeRow.id.desc()))  # fmt: skip
    return [NoticeRecord(r.kind, r.text_zh, r.text_en, r.at) for r in s.scalars(q)]


# ----- the final's entry sources ------------------------------------------------------------
def final_sources(s: Session, event_id: int) -> dict[tuple[str, str], int]:
    """(source, key) → entry id of every item already applied."""
    q = select(FinalEntryRow).where(FinalEntryRow.event_id == event_id)
    return {(r.source, r.source_key): r.entry_id for r in s.scalars(q)}


def add_final_source(s: Session, *, event_id: int, source: str, key: str, entry_id: int, player_id: int,
                     at: datetime, by: str) -> None:
    s.add(FinalEntryRow(event_id=event_id, source=source, source_key=key, entry_id=entry_id,
                        player_id=player_id, at=at, by=by))  # fmt: skip
    s.flush()


# ----- live games as fair play and re-scoring read them -------------------------------------
@dataclass(frozen=True, slots=True)
class FinishedGame(LiveGameInfo):
    """A finished live game as re-scoring reads it: the game's ``LiveGameInfo`` (the one record
    of who played whom, where, and the result) with what happened in it, and no rules, state
    or SGF (re-scoring a period reads every game of it)."""

    escaped: list[str]
    started_at: float
    finished_at: datetime | None


def _finished(r: LiveGameRow) -> FinishedGame:
    return FinishedGame(r.id, r.period, r.pool, r.black, r.white, r.black_name, r.white_name, r.status,
                        r.version, r.result, r.reason, list(r.escaped), r.started_at, r.finished_at)  # fmt: skip


def finished_games(s: Session, event_id: int, stage: str, period: int, pool: str) -> list[FinishedGame]:
    q = select(LiveGameRow).where(
        LiveGameRow.event_id == event_id, LiveGameRow.stage == stage, LiveGameRow.period == period,
        LiveGameRow.pool == pool, LiveGameRow.status == "finished",
    ).order_by(LiveGameRow.id)  # fmt: skip
    return [_finished(r) for r in s.scalars(q)]


def finished_game(s: Session, game_id: int) -> FinishedGame | None:
    r = s.get(LiveGameRow, game_id)
    return _finished(r) if r is not None and r.status == "finished" else None


def game_event(s: Session, game_id: int) -> tuple[int, str] | None:
    r = s.get(LiveGameRow, game_id)
    return (r.event_id, r.status) if r is not None else None


def game_players(s: Session, game_id: int) -> tuple[int, str, str] | None:
    """(event id, black, white) of a game, or None."""
    r = s.get(LiveGameRow, game_id)
    return (r.event_id, r.black, r.white) if r is not None else None


def games_without_signals(s: Session, event_id: int) -> list[int]:
    q = (select(LiveGameRow.id).where(LiveGameRow.event_id == event_id, LiveGameRow.status == "finished")
         .where(~LiveGameRow.id.in_(select(FairPlayRow.game_id))).order_by(LiveGameRow.id))  # fmt: skip
    return list(s.scalars(q))


def playing_count(s: Session, event_id: int, stage: str, period: int | None = None) -> int:
    q = select(func.count()).select_from(LiveGameRow).where(
        LiveGameRow.event_id == event_id, LiveGameRow.stage == stage, LiveGameRow.status == "playing")
    if period is not None:
        q = q.where(LiveGameRow.period == period)
    return int(s.scalar(q) or 0)


def move_times(s: Session, game_id: int) -> list[tuple[int, str, int | None, float]]:
    """(colour, kind, point, at) of every stored action, in order."""
    q = (select(LiveMoveRow.color, LiveMoveRow.kind, LiveMoveRow.point, LiveMoveRow.at)
         .where(LiveMoveRow.game_id == game_id).order_by(LiveMoveRow.seq))  # fmt: skip
    return [(c, k, p, a) for c, k, p, a in s.execute(q)]


def replace_ladder(s: Session, *, event_id: int, stage: str, period: int, pool: str,
                   lines: Iterable[LadderLine], at: datetime) -> None:
    """Rewrite one period × pool's ladder with these lines (a rescore's sums)."""
    s.execute(delete(LiveLadderRow).where(
        LiveLadderRow.event_id == event_id, LiveLadderRow.stage == stage, LiveLadderRow.period == period,
        LiveLadderRow.pool == pool))  # fmt: skip
    for line in lines:
        row = LiveLadderRow(event_id=event_id, stage=stage, period=period, pool=pool, player=line.player)
        store_line(row, line, name=line.name, at=at)
        s.add(row)
    s.flush()


# ----- focus, signals, decisions, sanctions ------------------------------------------------
def report_focus(s: Session, game_id: int, player: str, count: int, at: datetime) -> None:
    row = s.scalars(select(LiveFocusRow).where(LiveFocusRow.game_id == game_id, LiveFocusRow.player == player)
                    .with_for_update()).first()  # fmt: skip
    if row is None:
        s.add(LiveFocusRow(game_id=game_id, player=player, count=count, reported_at=at))
    elif count > row.count:  # a client counts up; a lower (replayed or reset) report changes nothing
        row.count, row.reported_at = count, at
    s.flush()


def focus_counts(s: Session, game_id: int) -> dict[str, int]:
    q = select(LiveFocusRow.player, LiveFocusRow.count).where(LiveFocusRow.game_id == game_id)
    return {p: c for p, c in s.execute(q)}


def save_signals(s: Session, game_id: int, event_id: int, score: float, signals: dict[str, Any],
                 at: datetime) -> None:
    row = s.get(FairPlayRow, game_id)
    if row is None:
        s.add(FairPlayRow(game_id=game_id, event_id=event_id, score=score, signals=signals, computed_at=at))
    else:
        row.score, row.signals, row.computed_at = score, signals, at
    s.flush()


def signal_queue(s: Session, event_id: int, limit: int) -> list[tuple[int, float, dict[str, Any]]]:
    q = (select(FairPlayRow.game_id, FairPlayRow.score, FairPlayRow.signals)
         .where(FairPlayRow.event_id == event_id)
         .order_by(FairPlayRow.score.desc(), FairPlayRow.game_id).limit(limit))  # fmt: skip
    return [(g, sc, dict(sig)) for g, sc, sig in s.execute(q)]


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    game_id: int
    kind: str
    result: str
    before: str
    reason: str
    by: str
    at: datetime


def add_decision(s: Session, *, event_id: int, game_id: int, kind: str, result: str, before: str,
                 reason: str, by: str, at: datetime) -> None:
    s.add(LiveDecisionRow(event_id=event_id, game_id=game_id, kind=kind, result=result, before=before,
                          reason=reason, by=by, at=at))  # fmt: skip
    s.flush()


def decisions(s: Session, event_id: int, game_id: int | None = None) -> list[DecisionRecord]:
    q = select(LiveDecisionRow).where(LiveDecisionRow.event_id == event_id)
    if game_id is not None:
        q = q.where(LiveDecisionRow.game_id == game_id)
    return [DecisionRecord(r.game_id, r.kind, r.result, r.before, r.reason, r.by, r.at)
            for r in s.scalars(q.order_by(LiveDecisionRow.id))]  # fmt: skip


@dataclass(frozen=True, slots=True)
class SanctionRecord:
    player: str
    first_period: int
    periods: int
    reason: str
    by: str
    at: datetime


def add_sanction(s: Session, *, event_id: int, player: str, first_period: int, periods: int, reason: str,
                 by: str, at: datetime) -> None:
    s.add(LiveSanctionRow(event_id=event_id, player=player, first_period=first_period, periods=periods,
                          reason=reason, by=by, at=at))  # fmt: skip
    s.flush()


def sanctions(s: Session, event_id: int, player: str | None = None) -> list[SanctionRecord]:
    q = select(LiveSanctionRow).where(LiveSanctionRow.event_id == event_id)
    if player is not None:
        q = q.where(LiveSanctionRow.player == player)
    return [SanctionRecord(r.player, r.first_period, r.periods, r.reason, r.by, r.at)
            for r in s.scalars(q.order_by(LiveSanctionRow.id))]  # fmt: skip


# ----- operator's figures -------------------------------------------------------------------
def playing_players(s: Session, event_id: int) -> set[str]:
    q = select(LiveGameRow.black, LiveGameRow.white).where(LiveGameRow.event_id == event_id,
                                                          LiveGameRow.status == "playing")
    return {p for b, w in s.execute(q) for p in (b, w)}


def finished_since(s: Session, event_id: int, since: datetime) -> list[tuple[datetime, str]]:
    """(finished_at, reason) of games finished since ``since``."""
    q = select(LiveGameRow.finished_at, LiveGameRow.reason).where(
        LiveGameRow.event_id == event_id, LiveGameRow.status == "finished", LiveGameRow.finished_at >= since)
    return [(f, r) for f, r in s.execute(q) if f is not None]


def waves_since(s: Session, event_id: int, since: date) -> list[dict[str, Any]]:
    q = select(LiveWaveRow.record).where(LiveWaveRow.event_id == event_id, LiveWaveRow.day >= since)
    return [dict(r) for (r,) in s.execute(q)]
