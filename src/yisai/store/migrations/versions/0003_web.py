"""Appeals (申诉) for the web console.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("division", sa.String(length=32), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("appellant", sa.String(length=100), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("filed_by", sa.String(length=100), nullable=False),
        sa.Column("filed_at", sa.DateTime(), nullable=False),
        sa.Column("round_ended_at", sa.DateTime(), nullable=True),
        sa.Column("fee", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("decision", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("refunded", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_appeals_event_id_events"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeals")),
    )
    op.create_index(op.f("ix_appeals_event_id"), "appeals", ["event_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_appeals_event_id"), table_name="appeals")
    op.drop_table("appeals")
