"""Tables of the online qualifier's live play (yisai.live): games, their moves, ladder lines,
matching waves and sign-in codes.

Apart from ``store.models`` so that a command that never touches live play (a result entered,
the standings) neither declares nor configures them at start-up; ``store.live_rows`` and the
qualifier's tables import them. No ``from __future__ import annotations``, as in
``store.models``: SQLAlchemy would evaluate every string annotation when it maps the tables.
"""

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from yisai.store.models import Base

# ----- online qualifier (yisai.live): live games, their actions, ladder lines, matching waves -----
# Times in these tables are floats of seconds since the Unix epoch (the live server's clock),
# so a restarted process continues a game's clock and presence arithmetic exactly.


class LiveGameRow(Base):
    """One live game; ``state`` is the clock and presence snapshot as of ``version``."""

    __tablename__ = "live_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(64))
    period: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(32))
    black: Mapped[str] = mapped_column(String(100))
    white: Mapped[str] = mapped_column(String(100))
    black_name: Mapped[str] = mapped_column(String(100), default="")
    white_name: Mapped[str] = mapped_column(String(100), default="")
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    rules: Mapped[dict[str, Any]] = mapped_column(default=dict)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[float] = mapped_column(Float)
    alive_at: Mapped[float] = mapped_column(Float)  # the owning process was last known alive
    owner: Mapped[str] = mapped_column(String(64), default="")
    result: Mapped[str] = mapped_column(String(16), default="")
    reason: Mapped[str] = mapped_column(String(16), default="")
    escaped: Mapped[list[str]] = mapped_column(default=list)
    sgf: Mapped[str] = mapped_column(Text, default="")
    matching: Mapped[dict[str, Any]] = mapped_column(default=dict)  # seed, pool, wave number
    created_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)


class LiveMoveRow(Base):
    """One accepted action of a live game (stored before the player is told)."""

    __tablename__ = "live_moves"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_live_moves_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("live_games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    color: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    point: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    lag: Mapped[float] = mapped_column(Float, default=0.0)


class LiveLadderRow(Base):
    """A player's line on the points ladder of one period and pool."""

    __tablename__ = "live_ladder"
    __table_args__ = (
        UniqueConstraint("event_id", "stage", "period", "pool", "player",
                         name="uq_live_ladder_line"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(64))
    period: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(100), default="")
    points: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    escapes: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class LiveWaveRow(Base):
    """One matching wave: seed, wave number, who waited and the pairs (replayable)."""

    __tablename__ = "live_waves"
    __table_args__ = (
        UniqueConstraint("event_id", "day", "pool", "number", name="uq_live_waves_wave"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    day: Mapped[date] = mapped_column(Date)  # Beijing date
    pool: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    record: Mapped[dict[str, Any]] = mapped_column(default=dict)


class LiveCodeRow(Base):
    """A one-time sign-in code sent to a mobile number (only a salted digest is kept)."""

    __tablename__ = "live_codes"
    __table_args__ = (Index("ix_live_codes_client_created", "client", "created_at"),
                      Index("ix_live_codes_fresh_created", "fresh", "created_at"))  # fmt: skip

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    phone: Mapped[str] = mapped_column(String(32), index=True)
    salt: Mapped[str] = mapped_column(String(64))
    digest: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    client: Mapped[str] = mapped_column(String(64), default="", server_default="")  # who asked for it
    # the number had no account when the code was made: only these count against the site's cap
    fresh: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
