"""Row access the web needs that the other row modules do not offer: change stamps and appeals.

A public page is cached per process under the event's stamp: the event's revision (moved by
the database itself on any change to its rounds, games, players, entries, teams or its own row:
triggers, migration 0022) plus its newest audit line (every write of the services leaves one,
so a change elsewhere, an appeal, is seen too). Both only grow, so the stamp does, and a write
around the ORM moves it as surely as one through it. Workers share nothing but the database,
so several workers stay consistent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from yisai.store.audit_rows import audit
from yisai.store.errors import NotFound
from yisai.store.models import AuditRow, EventRow, GameRow, ResultChangeRow, RoundRow
from yisai.store.records import Stamp
from yisai.store.side_models import AppealRow


def event_stamp(session: Session, event_id: int) -> int:
    """The event's revision plus the id of its newest audit line (0 when neither)."""
    revision = session.scalar(select(EventRow.revision).where(EventRow.id == event_id))
    newest = session.scalar(select(func.max(AuditRow.id)).where(AuditRow.event_id == event_id))
    return int(revision or 0) + int(newest or 0)


# ------------------------------------------------------------------ appeals


@dataclass(frozen=True, slots=True)
class AppealRecord:
    id: int
    event_id: int
    division: str
    round: int
    board: int | None
    appellant: str
    subject: str
    filed_by: str
    filed_at: datetime
    round_ended_at: datetime | None
    fee: int
    status: str
    decision: str
    decided_by: str | None
    decided_at: datetime | None
    refunded: bool


def _appeal(r: AppealRow) -> AppealRecord:
    return AppealRecord(r.id, r.event_id, r.division, r.round_number, r.board, r.appellant, r.subject,
                        r.filed_by, r.filed_at, r.round_ended_at, r.fee, r.status, r.decision,
                        r.decided_by, r.decided_at, r.refunded)


def appeal_json(a: AppealRecord) -> dict[str, Any]:
    return {"division": a.division, "round": a.round, "board": a.board, "appellant": a.appellant,
            "subject": a.subject, "fee": a.fee, "status": a.status, "decision": a.decision,
            "refunded": a.refunded}


def add_appeal(session: Session, stamp: Stamp, event_id: int, division: str, round_number: int, board: int | None,
               appellant: str, subject: str, round_ended_at: datetime | None, fee: int) -> AppealRecord:
    row = AppealRow(event_id=event_id, division=division, round_number=round_number, board=board,
                    appellant=appellant, subject=subject, filed_by=stamp.actor, filed_at=stamp.at,
                    round_ended_at=round_ended_at, fee=fee, status="filed", decision="", refunded=False)
    session.add(row)
    session.flush()
    saved = _appeal(row)
    audit(session, stamp, event_id, "appeal_filed", "appeal", row.id, None, appeal_json(saved))
    return saved


def list_appeals(session: Session, event_id: int) -> list[AppealRecord]:
    q = select(AppealRow).where(AppealRow.event_id == event_id).order_by(AppealRow.id)
    return [_appeal(r) for r in session.scalars(q)]


def get_appeal(session: Session, appeal_id: int) -> AppealRecord | None:
    row = session.get(AppealRow, appeal_id)
    return _appeal(row) if row is not None else None


def decide_appeal(session: Session, stamp: Stamp, appeal_id: int, status: str, decision: str,
                  refunded: bool) -> AppealRecord:
    row = session.get(AppealRow, appeal_id)
    if row is None:
        raise NotFound(f"没有编号为{appeal_id}的申诉")
    before = appeal_json(_appeal(row))
    row.status, row.decision, row.refunded = status, decision, refunded
    row.decided_by, row.decided_at = stamp.actor, stamp.at
    after = _appeal(row)
    audit(session, stamp, row.event_id, "appeal_decided", "appeal", row.id, before, appeal_json(after), decision)
    return after


def round_finished_at(session: Session, event_id: int, division: str, number: int) -> tuple[bool, datetime | None]:
    """(every game has a result, when the last result was entered) for a round (all groups)."""
    rounds = list(session.scalars(select(RoundRow).where(
        RoundRow.event_id == event_id, RoundRow.division == division, RoundRow.number == number)))
    ids = [r.id for r in rounds]
    if not ids:
        return False, None
    open_games = session.scalar(select(func.count()).select_from(GameRow).where(
        GameRow.round_id.in_(ids), GameRow.result == "?"))
    last = session.scalar(select(func.max(ResultChangeRow.at)).join(GameRow, GameRow.id == ResultChangeRow.game_id)
                          .where(GameRow.round_id.in_(ids)))
    return not open_games, last


def round_counts(session: Session, event_id: int) -> list[tuple[str, int, str, str, int, int]]:
    """(division, number, group, status, boards without byes, results entered) per stored round,
    counted in SQL (a round list must not load thousands of games)."""
    games = func.sum(case((GameRow.white_id.is_not(None), 1), else_=0))
    entered = func.sum(case(((GameRow.white_id.is_not(None)) & (GameRow.result != "?"), 1), else_=0))
    q = (select(RoundRow.division, RoundRow.number, RoundRow.group_name, RoundRow.status, games, entered)
         .join(GameRow, GameRow.round_id == RoundRow.id, isouter=True)
         .where(RoundRow.event_id == event_id)
         .group_by(RoundRow.id, RoundRow.division, RoundRow.number, RoundRow.group_name, RoundRow.status)
         .order_by(RoundRow.division, RoundRow.number))
    return [(d, n, g, s, int(a or 0), int(b or 0)) for d, n, g, s, a, b in session.execute(q)]
