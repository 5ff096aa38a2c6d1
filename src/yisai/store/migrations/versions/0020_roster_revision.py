"""Events carry a roster revision that changes with every change to their players, entries
and teams, so a process can keep the roster it has read (store.revisions).

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("roster_revision", sa.BigInteger(), nullable=False, server_default="0"))
    # existing events start distinct from each other and from anything a process hands out
    op.execute("UPDATE events SET roster_revision = id")


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("roster_revision")
