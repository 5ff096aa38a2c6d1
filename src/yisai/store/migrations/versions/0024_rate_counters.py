"""Windowed counters shared by every worker without Redis (``rate_counters``): failed logins
per source and login, and the sign-in proofs already used.

Revision ID: 0024
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_rate_counters"),
    )
    op.create_index("ix_rate_counters_expires", "rate_counters", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_rate_counters_expires", table_name="rate_counters")
    op.drop_table("rate_counters")
