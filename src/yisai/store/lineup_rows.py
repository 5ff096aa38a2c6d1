"""Row access for team line-ups (出场名单): plain functions over the session; every write is audited."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.store.audit_rows import audit
from yisai.store.records import Stamp
from yisai.store.side_models import LineupRow


@dataclass(frozen=True)
class LineupRecord:
    team_id: str
    stage: str
    round: int
    players: tuple[str, ...]  # player ids, board 1 first
    submitted_by: str
    submitted_at: datetime


def _record(r: LineupRow) -> LineupRecord:
    return LineupRecord(str(r.team_id), r.stage, r.number, tuple(r.players), r.submitted_by,
                        r.submitted_at)


def save_lineup(session: Session, stamp: Stamp, event_id: int, team_id: str, stage: str, round_no: int,
                players: list[str], note: str = "") -> LineupRecord:
    """Store (or replace) a team's line-up for one round, audited with the one before."""
    q = select(LineupRow).where(LineupRow.team_id == int(team_id), LineupRow.stage == stage,
                                LineupRow.number == round_no)
    row = session.scalars(q).first()
    before = {"players": list(row.players)} if row else None
    if row is None:
        row = LineupRow(event_id=event_id, team_id=int(team_id), stage=stage, number=round_no)
        session.add(row)
    row.players = list(players)
    row.submitted_by = stamp.actor
    row.submitted_at = stamp.at
    session.flush()
    audit(session, stamp, event_id, "update" if before else "create", "lineup", row.id, before,
                     {"team": team_id, "stage": stage, "round": round_no, "players": list(players)},
                     note)
    return _record(row)


def lineups_for_round(session: Session, event_id: int, stage: str, round_no: int) -> dict[str, LineupRecord]:
    """team id → its line-up for the round (teams that submitted none are absent)."""
    q = select(LineupRow).where(LineupRow.event_id == event_id, LineupRow.stage == stage,
                                LineupRow.number == round_no)
    return {str(r.team_id): _record(r) for r in session.scalars(q)}
