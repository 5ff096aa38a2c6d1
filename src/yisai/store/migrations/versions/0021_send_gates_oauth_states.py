"""Sign-in codes and SMS budgets checked under one row lock across workers (``send_gates``);
each code notes whether its number had no account yet (``fresh``: the site's hourly cap counts
only those); WeChat/QQ sign-in states kept server-side and used once (``oauth_states``).

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "send_gates",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("hits", sa.BigInteger(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("key", name="pk_send_gates"),
    )
    with op.batch_alter_table("live_codes") as batch:
        batch.add_column(sa.Column("fresh", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.create_index("ix_live_codes_fresh_created", ["fresh", "created_at"])
    op.create_table(
        "oauth_states",
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token", name="pk_oauth_states"),
    )
    op.create_index("ix_oauth_states_created_at", "oauth_states", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_oauth_states_created_at", table_name="oauth_states")
    op.drop_table("oauth_states")
    with op.batch_alter_table("live_codes") as batch:
        batch.drop_index("ix_live_codes_fresh_created")
        batch.drop_column("fresh")
    op.drop_table("send_gates")
