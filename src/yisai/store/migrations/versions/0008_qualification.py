"""Qualifier → final: published lists and amendments, places and confirmations, notices, the
final's entry sources, fair-play signals, focus-loss reports, referees' decisions, sanctions.

Revision ID: 0008
Revises: 0007 (written on 0006, re-chained after the profile branch's 0007)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _event_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f(f"fk_{table}_event_id_events"),
                                   ondelete="CASCADE")


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["live_games.id"],
                                   name=op.f(f"fk_{table}_game_id_live_games"), ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "qual_lists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rows", sa.JSON(), nullable=False),
        sa.Column("published_at", sa.DateTime(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("amended", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        _event_fk("qual_lists"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qual_lists")),
        sa.UniqueConstraint("event_id", "stage", "period", "pool", "version", name="uq_qual_lists_version"),
    )
    op.create_index(op.f("ix_qual_lists_event_id"), "qual_lists", ["event_id"])
    op.create_table(
        "qual_places",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("counted_from", sa.Date(), nullable=False),
        sa.Column("deadline", sa.Date(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("division", sa.String(length=32), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.Column("lapsed_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        _event_fk("qual_places"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qual_places")),
        sa.UniqueConstraint("event_id", "stage", "period", "player", name="uq_qual_places_player"),
    )
    op.create_index(op.f("ix_qual_places_event_id"), "qual_places", ["event_id"])
    op.create_index(op.f("ix_qual_places_player"), "qual_places", ["player"])
    op.create_table(
        "qual_notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("place_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("text_zh", sa.Text(), nullable=False),
        sa.Column("text_en", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        _event_fk("qual_notices"),
        sa.ForeignKeyConstraint(["place_id"], ["qual_places.id"],
                                name=op.f("fk_qual_notices_place_id_qual_places"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qual_notices")),
        sa.UniqueConstraint("place_id", "kind", name="uq_qual_notices_kind"),
    )
    op.create_index(op.f("ix_qual_notices_event_id"), "qual_notices", ["event_id"])
    op.create_index(op.f("ix_qual_notices_player"), "qual_notices", ["player"])
    op.create_table(
        "final_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("source_key", sa.String(length=120), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        _event_fk("final_entries"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_final_entries")),
        sa.UniqueConstraint("event_id", "source", "source_key", name="uq_final_entries_source"),
    )
    op.create_index(op.f("ix_final_entries_event_id"), "final_entries", ["event_id"])
    op.create_table(
        "live_focus",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("reported_at", sa.DateTime(), nullable=False),
        _game_fk("live_focus"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_focus")),
        sa.UniqueConstraint("game_id", "player", name="uq_live_focus_player"),
    )
    op.create_index(op.f("ix_live_focus_game_id"), "live_focus", ["game_id"])
    op.create_table(
        "fairplay_signals",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("signals", sa.JSON(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        _game_fk("fairplay_signals"),
        _event_fk("fairplay_signals"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_fairplay_signals")),
    )
    op.create_index(op.f("ix_fairplay_signals_event_id"), "fairplay_signals", ["event_id"])
    op.create_index(op.f("ix_fairplay_signals_score"), "fairplay_signals", ["score"])
    op.create_table(
        "live_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("result", sa.String(length=16), nullable=False),
        sa.Column("before", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        _event_fk("live_decisions"),
        _game_fk("live_decisions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_decisions")),
    )
    op.create_index(op.f("ix_live_decisions_event_id"), "live_decisions", ["event_id"])
    op.create_index(op.f("ix_live_decisions_game_id"), "live_decisions", ["game_id"])
    op.create_table(
        "live_sanctions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("first_period", sa.Integer(), nullable=False),
        sa.Column("periods", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        _event_fk("live_sanctions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_sanctions")),
    )
    op.create_index(op.f("ix_live_sanctions_event_id"), "live_sanctions", ["event_id"])
    op.create_index(op.f("ix_live_sanctions_player"), "live_sanctions", ["player"])


def downgrade() -> None:
    for table in ("live_sanctions", "live_decisions", "fairplay_signals", "live_focus", "final_entries",
                  "qual_notices", "qual_places", "qual_lists"):
        op.drop_table(table)
