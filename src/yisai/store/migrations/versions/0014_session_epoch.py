"""Revocable sessions: each account's session generation, raised on logout, a password change
and disabling; a session cookie or API token of an older generation is refused.

Revision ID: 0014
Revises: 0013 (re-chained after the authorisation branch's 0013)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("session_epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("session_epoch")
