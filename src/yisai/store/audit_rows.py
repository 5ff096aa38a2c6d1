"""Row access for the audit log: every write of the store leaves one line here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from yisai.record.text import clean_text
from yisai.store.models import AuditRow
from yisai.store.records import AuditRecord, Stamp

WRITTEN = "yisai_written"  # Session.info key: this transaction's audited writes


def audit(
    s: Session,
    by: Stamp,
    event_id: int | None,
    action: str,
    entity: str,
    entity_id: str | int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    note: str = "",
) -> None:
    s.add(
        AuditRow(
            event_id=event_id,
            actor=by.actor,
            at=by.at,
            action=action,
            entity=entity,
            entity_id=str(entity_id),
            before=before,
            after=after,
            note=clean_text(note),  # notes keep any script but never control characters
        )
    )
    # what the unit of work logs once committed (services.context): names and ids, no values
    s.info.setdefault(WRITTEN, []).append((event_id, action, entity, str(entity_id)))


def audit_log(
    s: Session, event_id: int, entity: str | None = None, entity_id: str | int | None = None
) -> list[AuditRecord]:
    q = select(AuditRow).where(AuditRow.event_id == event_id)
    if entity is not None:
        q = q.where(AuditRow.entity == entity)
    if entity_id is not None:
        q = q.where(AuditRow.entity_id == str(entity_id))
    return [_record(r) for r in s.scalars(q.order_by(AuditRow.id))]


def audit_newest(s: Session, event_id: int, offset: int, limit: int) -> tuple[int, list[AuditRecord]]:
    """One page of an event's log, newest first, and how many lines the log has in all."""
    total = s.scalar(select(func.count()).select_from(AuditRow).where(AuditRow.event_id == event_id)) or 0
    q = (select(AuditRow).where(AuditRow.event_id == event_id)
         .order_by(AuditRow.id.desc()).offset(offset).limit(limit))
    return total, [_record(r) for r in s.scalars(q)]


def _record(r: AuditRow) -> AuditRecord:
    return AuditRecord(
        r.id, r.event_id, r.actor, r.at, r.action, r.entity, r.entity_id, r.before, r.after, r.note,
    )
