"""Team matches (团体赛): each team's line-up (出场名单) per round of a team-match stage.

Revision ID: 0011
Revises: 0008 (the lead re-chains at merge time)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "team_lineups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("submitted_by", sa.String(length=100), nullable=False),
        sa.Column("submitted_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_team_lineups_event_id_events"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name=op.f("fk_team_lineups_team_id_teams"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_lineups")),
        sa.UniqueConstraint("team_id", "stage", "number", name="uq_team_lineups_team_stage_number"),
    )
    with op.batch_alter_table("team_lineups") as batch:
        batch.create_index(batch.f("ix_team_lineups_event_id"), ["event_id"], unique=False)
        batch.create_index(batch.f("ix_team_lineups_team_id"), ["team_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("team_lineups") as batch:
        batch.drop_index(batch.f("ix_team_lineups_team_id"))
        batch.drop_index(batch.f("ix_team_lineups_event_id"))
    op.drop_table("team_lineups")
