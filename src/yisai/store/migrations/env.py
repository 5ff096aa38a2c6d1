"""Alembic environment: always run programmatically with a live connection (see store.database)."""

from __future__ import annotations

from alembic import context

from yisai.store import (  # noqa: F401 (every table on Base.metadata, not only the core ones)
    fee_models,
    live_models,
    notice_models,
    qualification_models,
    side_models,
)
from yisai.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached by a stray ``alembic`` command line
    raise RuntimeError("yisai 的迁移只能通过 yisai.store.open_store() 运行")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
