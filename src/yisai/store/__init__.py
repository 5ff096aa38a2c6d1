"""The event store: SQLAlchemy models, Alembic migrations, and the repository services use.

Front ends do not import this package; they call ``yisai.services``.
"""

from yisai.store.database import (
    Database,
    SchemaOutdated,
    StoreError,
    open_database,
    resolve_url,
    upgrade_database,
)
from yisai.store.errors import Conflict, DatabaseFailure, NotFound, StaleVersion
from yisai.store.records import AuditRecord, EventRecord, ResultChange, RoundRecord, UserRecord

__all__ = [
    "AuditRecord",
    "Conflict",
    "Database",
    "DatabaseFailure",
    "EventRecord",
    "NotFound",
    "ResultChange",
    "RoundRecord",
    "SchemaOutdated",
    "StaleVersion",
    "StoreError",
    "UserRecord",
    "open_database",
    "resolve_url",
    "upgrade_database",
]
