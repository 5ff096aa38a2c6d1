"""SMS notices: the queue (one row per notice, unique by key, with its delivery state), the
players who opted out, and each event's switches and daily budget.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=False),
        sa.Column("account", sa.String(length=100), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(), nullable=True),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("provider_id", sa.String(length=100), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_notices_event_id_events"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
        sa.UniqueConstraint("key", name=op.f("uq_notices_key")),
    )
    op.create_index("ix_notices_state_next", "notices", ["state", "next_at"])
    op.create_index("ix_notices_event_day", "notices", ["event_id", "day"])
    op.create_index(op.f("ix_notices_phone"), "notices", ["phone"])
    op.create_table(
        "notice_optouts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_notice_optouts_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_notice_optouts")),
    )
    op.create_table(
        "notice_settings",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("off", sa.JSON(), nullable=False),
        sa.Column("daily_budget", sa.Integer(), nullable=True),
        sa.Column("alerted_on", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_notice_settings_event_id_events"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_notice_settings")),
    )


def downgrade() -> None:
    op.drop_table("notice_settings")
    op.drop_table("notice_optouts")
    op.drop_index(op.f("ix_notices_phone"), table_name="notices")
    op.drop_index("ix_notices_event_day", table_name="notices")
    op.drop_index("ix_notices_state_next", table_name="notices")
    op.drop_table("notices")
