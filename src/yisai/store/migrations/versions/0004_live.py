"""Online qualifier: live games, their actions, ladder lines, matching waves, sign-in codes.

Revision ID: 0004
Revises: 0003 (re-chained after the web branch's 0003 at the merge)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=32), nullable=False),
        sa.Column("black", sa.String(length=100), nullable=False),
        sa.Column("white", sa.String(length=100), nullable=False),
        sa.Column("black_name", sa.String(length=100), nullable=False),
        sa.Column("white_name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("alive_at", sa.Float(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("result", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("escaped", sa.JSON(), nullable=False),
        sa.Column("sgf", sa.Text(), nullable=False),
        sa.Column("matching", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_live_games_event_id_events"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_games")),
    )
    op.create_index(op.f("ix_live_games_event_id"), "live_games", ["event_id"], unique=False)
    op.create_index(op.f("ix_live_games_status"), "live_games", ["status"], unique=False)
    op.create_table(
        "live_moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("color", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("point", sa.Integer(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("lag", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["live_games.id"],
                                name=op.f("fk_live_moves_game_id_live_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_moves")),
        sa.UniqueConstraint("game_id", "seq", name="uq_live_moves_game_seq"),
    )
    op.create_index(op.f("ix_live_moves_game_id"), "live_moves", ["game_id"], unique=False)
    op.create_table(
        "live_ladder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("escapes", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_live_ladder_event_id_events"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_ladder")),
        sa.UniqueConstraint("event_id", "stage", "period", "pool", "player",
                            name="uq_live_ladder_line"),
    )
    op.create_index(op.f("ix_live_ladder_event_id"), "live_ladder", ["event_id"], unique=False)
    op.create_table(
        "live_waves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("pool", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_live_waves_event_id_events"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_waves")),
        sa.UniqueConstraint("event_id", "day", "pool", "number", name="uq_live_waves_wave"),
    )
    op.create_index(op.f("ix_live_waves_event_id"), "live_waves", ["event_id"], unique=False)
    op.create_table(
        "live_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=False),
        sa.Column("salt", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_codes")),
    )
    op.create_index(op.f("ix_live_codes_phone"), "live_codes", ["phone"], unique=False)


def downgrade() -> None:
    op.drop_table("live_codes")
    op.drop_table("live_waves")
    op.drop_table("live_ladder")
    op.drop_table("live_moves")
    op.drop_table("live_games")
