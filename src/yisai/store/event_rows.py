"""Row access for events: the event itself, its regulation text, seed and settings (audited)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.store.audit_rows import audit
from yisai.store.errors import NotFound
from yisai.store.models import EventRow
from yisai.store.records import EventRecord, Stamp


def _event(row: EventRow) -> EventRecord:
    return EventRecord(
        id=row.id,
        name=row.name,
        regulation_id=row.regulation_id,
        regulation_name=row.regulation_name,
        regulation_toml=row.regulation_toml,
        seed=row.seed,
        created_at=row.created_at,
        created_by=row.created_by,
        settings=dict(row.settings or {}),
    )


def add_event(
    s: Session, by: Stamp, name: str, regulation_id: str, regulation_name: str, regulation_toml: str,
    seed: int,
) -> EventRecord:
    row = EventRow(
        name=name,
        regulation_id=regulation_id,
        regulation_name=regulation_name,
        regulation_toml=regulation_toml,
        seed=seed,
        created_at=by.at,
        created_by=by.actor,
    )
    s.add(row)
    s.flush()
    after = {"name": name, "regulation_id": regulation_id, "seed": seed}
    audit(s, by, row.id, "create", "event", row.id, None, after)
    return _event(row)


def get_event(s: Session, event_id: int) -> EventRecord:
    row = s.get(EventRow, event_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{event_id}的比赛", f"no event numbered {event_id}"))
    return _event(row)


def events_named(s: Session, name: str) -> list[EventRecord]:
    rows = s.scalars(select(EventRow).where(EventRow.name == name).order_by(EventRow.id))
    return [_event(r) for r in rows]


def list_events(s: Session) -> list[EventRecord]:
    return [_event(r) for r in s.scalars(select(EventRow).order_by(EventRow.id))]


def set_event_setting(s: Session, by: Stamp, event_id: int, key: str, value: Any, note: str = "") -> EventRecord:
    row = s.get(EventRow, event_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{event_id}的比赛", f"no event number {event_id}"))
    before = {key: (row.settings or {}).get(key)}
    row.settings = {**(row.settings or {}), key: value}
    audit(s, by, event_id, "update", "event", event_id, before, {key: value}, note)
    s.flush()
    return _event(row)
