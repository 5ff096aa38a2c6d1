"""Row access for player changes waiting for the chief referee (``player_changes``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.store.audit_rows import audit
from yisai.store.errors import NotFound
from yisai.store.records import Stamp
from yisai.store.side_models import PlayerChangeRow


@dataclass(frozen=True)
class PlayerChangeRecord:
    id: int
    event_id: int
    player_id: int
    before: dict[str, Any]
    after: dict[str, Any]
    why: str
    requested_by: str
    requested_at: datetime
    status: str
    decided_by: str | None
    decided_at: datetime | None
    reason: str


def _record(r: PlayerChangeRow) -> PlayerChangeRecord:
    return PlayerChangeRecord(r.id, r.event_id, r.player_id, dict(r.before), dict(r.after), r.why,
                              r.requested_by, r.requested_at, r.status, r.decided_by, r.decided_at,
                              r.reason or "")


def add_change(s: Session, by: Stamp, event_id: int, player_id: int, before: dict[str, Any],
               after: dict[str, Any], why: str, note: str = "") -> PlayerChangeRecord:
    row = PlayerChangeRow(event_id=event_id, player_id=player_id, before=before, after=after, why=why,
                          requested_by=by.actor, requested_at=by.at, status="pending", reason="")
    s.add(row)
    s.flush()
    audit(s, by, event_id, "request_change", "player", player_id, before, {**after, "change": row.id}, note)
    return _record(row)


def get_change(s: Session, change_id: int) -> PlayerChangeRecord:
    row = s.get(PlayerChangeRow, change_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{change_id}的待审更改", f"no pending change numbered {change_id}"))
    return _record(row)


def list_changes(s: Session, event_id: int, status: str | None = None) -> list[PlayerChangeRecord]:
    q = select(PlayerChangeRow).where(PlayerChangeRow.event_id == event_id)
    if status is not None:
        q = q.where(PlayerChangeRow.status == status)
    return [_record(r) for r in s.scalars(q.order_by(PlayerChangeRow.id))]


def decide_change(s: Session, by: Stamp, change_id: int, status: str, reason: str) -> PlayerChangeRecord:
    row = s.get(PlayerChangeRow, change_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{change_id}的待审更改", f"no pending change numbered {change_id}"))
    before = {"status": row.status}
    row.status, row.decided_by, row.decided_at, row.reason = status, by.actor, by.at, reason
    audit(s, by, row.event_id, f"change_{status}", "player_change", row.id, before,
          {"status": status, "player": row.player_id}, reason)
    return _record(row)
