"""Rounds carry a revision that changes with every change to their games, so a process can
keep the games it has read and re-read only the rounds that changed (store.revisions).

Revision ID: 0019
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("revision", sa.BigInteger(), nullable=False, server_default="0"))
    # existing rounds start distinct from each other and from anything a process hands out
    op.execute("UPDATE rounds SET revision = id")


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("revision")
