"""The event store: SQLAlchemy models, Alembic migrations, and the repository services use.

Front ends do not import this package; they call ``yisai.services``.
"""

from yisai.store.database import Database, StoreError, open_database, resolve_url
from yisai.store.records import AuditRecord, EventRecord, ResultChange, RoundRecord
from yisai.store.repository import Conflict, NotFound, Repository

__all__ = [
    "AuditRecord",
    "Conflict",
    "Database",
    "EventRecord",
    "NotFound",
    "Repository",
    "ResultChange",
    "RoundRecord",
    "StoreError",
    "open_database",
    "resolve_url",
]
