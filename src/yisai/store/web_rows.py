"""Row access the web needs that the repository does not offer: cheap change stamps.

A public page is cached per process under the event's stamp (the newest audit line of the
event): every write of the services leaves an audit line, so a new stamp means "something
changed". Workers share nothing but the database, so several workers stay consistent.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from yisai.store.models import AuditRow


def event_stamp(session: Session, event_id: int) -> int:
    """The id of the newest audit line of an event (0 when none)."""
    found = session.scalar(select(func.max(AuditRow.id)).where(AuditRow.event_id == event_id))
    return int(found or 0)


def global_stamp(session: Session) -> int:
    found = session.scalar(select(func.max(AuditRow.id)))
    return int(found or 0)
