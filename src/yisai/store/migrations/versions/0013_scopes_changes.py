"""Authorisation: how many teams an account may register, which account registered a team, and
player changes waiting for the chief referee (a registered player changed after the deadline or
after approval).

Revision ID: 0013
Revises: 0011 (the lead re-chains at merge time)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("max_teams", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("teams") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_table(
        "player_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        sa.Column("why", sa.String(length=32), nullable=False),
        sa.Column("requested_by", sa.String(length=100), nullable=False),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_player_changes_event_id_events"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_changes_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_changes")),
    )
    with op.batch_alter_table("player_changes") as batch:
        batch.create_index(batch.f("ix_player_changes_event_id"), ["event_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("player_changes") as batch:
        batch.drop_index(batch.f("ix_player_changes_event_id"))
    op.drop_table("player_changes")
    with op.batch_alter_table("teams") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("max_teams")
