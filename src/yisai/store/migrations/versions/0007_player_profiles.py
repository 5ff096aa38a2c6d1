"""Player profiles (name, gender, birth date, region, rank, guardian's phone) for the qualifier.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("gender", sa.String(length=1), nullable=False),
        sa.Column("birth", sa.Date(), nullable=False),
        sa.Column("region", sa.String(length=100), nullable=False),
        sa.Column("rank", sa.String(length=16), nullable=False),
        sa.Column("guardian_phone", sa.String(length=32), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_player_profiles_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_profiles")),
        sa.UniqueConstraint("user_id", name="uq_player_profiles_user_id"),
    )


def downgrade() -> None:
    op.drop_table("player_profiles")
