"""Registration papers (uploaded files kept outside the rows) and check-in (报到).

Revision ID: 0005
Revises: 0004 (main's head when this branch last merged; re-chain after any newer one)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("file_type", sa.String(length=8), nullable=False),
        sa.Column("file_name", sa.String(length=300), nullable=False),
        sa.Column("uploaded_name", sa.String(length=300), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("storage_key", sa.String(length=500), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(), nullable=False),
        sa.Column("uploaded_by", sa.String(length=100), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("purged_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_papers_event_id_events"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name=op.f("fk_papers_team_id_teams"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_papers_player_id_players"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_papers")),
    )
    op.create_index(op.f("ix_papers_event_id"), "papers", ["event_id"])
    op.create_index(op.f("ix_papers_team_id"), "papers", ["team_id"])
    op.create_table(
        "check_ins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("arrived", sa.Boolean(), nullable=False),
        sa.Column("insured", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_check_ins_event_id_events"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_check_ins_player_id_players"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_check_ins")),
        sa.UniqueConstraint("player_id", name="uq_check_ins_player"),
    )
    op.create_index(op.f("ix_check_ins_event_id"), "check_ins", ["event_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_check_ins_event_id"), table_name="check_ins")
    op.drop_table("check_ins")
    op.drop_index(op.f("ix_papers_team_id"), table_name="papers")
    op.drop_index(op.f("ix_papers_event_id"), table_name="papers")
    op.drop_table("papers")
