"""Tables of the qualifier → final flow (migration 0008): published qualification lists with
their amendments, qualified places and their confirmation, reminders, the final's entry sources,
fair-play signals, focus-loss reports, referees' decisions on live games and sanctions.

Keyed by the live player id as used in ``live_ladder`` and the live tickets (the player
profile of issue 13 lives elsewhere; the confirmation keeps its own copy of the details).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from yisai.store import live_models  # noqa: F401 (live_games, which these tables' keys name)
from yisai.store.models import Base


class QualListRow(Base):
    """One version of one period × pool's qualification list; amendments add versions."""

    __tablename__ = "qual_lists"
    __table_args__ = (
        UniqueConstraint("event_id", "stage", "period", "pool", "version", name="uq_qual_lists_version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(64))
    period: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)
    rows: Mapped[list[Any]] = mapped_column(JSON, default=list)
    published_at: Mapped[datetime] = mapped_column(DateTime)
    by: Mapped[str] = mapped_column(String(100))
    amended: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str] = mapped_column(Text, default="")


class QualPlaceRow(Base):
    """A place won in one period: its confirmation deadline, the details given, its state."""

    __tablename__ = "qual_places"
    __table_args__ = (
        UniqueConstraint("event_id", "stage", "period", "player", name="uq_qual_places_player"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(64))
    period: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(100), index=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    status: Mapped[str] = mapped_column(String(16))  # qualified confirmed lapsed revoked
    counted_from: Mapped[date] = mapped_column(Date)
    deadline: Mapped[date] = mapped_column(Date)  # inclusive (Beijing date)
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)  # personal data: never public
    division: Mapped[str] = mapped_column(String(32), default="")
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime)
    lapsed_at: Mapped[datetime | None] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class QualNoticeRow(Base):
    """A message to a qualified player in the app (an SMS notice goes with it where the account has a phone)."""

    __tablename__ = "qual_notices"
    __table_args__ = (UniqueConstraint("place_id", "kind", name="uq_qual_notices_kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    place_id: Mapped[int] = mapped_column(ForeignKey("qual_places.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(100), index=True)
    kind: Mapped[str] = mapped_column(String(24))  # qualified, reminder_3, reminder_1, lapsed
    text_zh: Mapped[str] = mapped_column(Text)
    text_en: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime)


class FinalEntryRow(Base):
    """Which source put an entry into the final (idempotent build: one row per source item)."""

    __tablename__ = "final_entries"
    __table_args__ = (UniqueConstraint("event_id", "source", "source_key", name="uq_final_entries_source"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(16))  # qualifier team wildcard senior
    source_key: Mapped[str] = mapped_column(String(120))
    entry_id: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime)
    by: Mapped[str] = mapped_column(String(100))


class LiveFocusRow(Base):
    """Focus-loss count a player's client reported for one game (the highest report is kept)."""

    __tablename__ = "live_focus"
    __table_args__ = (UniqueConstraint("game_id", "player", name="uq_live_focus_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("live_games.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(100))
    count: Mapped[int] = mapped_column(Integer, default=0)
    reported_at: Mapped[datetime] = mapped_column(DateTime)


class FairPlayRow(Base):
    """The fair-play signals computed from one finished game's record."""

    __tablename__ = "fairplay_signals"

    game_id: Mapped[int] = mapped_column(ForeignKey("live_games.id", ondelete="CASCADE"), primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    score: Mapped[float] = mapped_column(Float, index=True)
    signals: Mapped[dict[str, Any]] = mapped_column(default=dict)
    computed_at: Mapped[datetime] = mapped_column(DateTime)


class LiveDecisionRow(Base):
    """A chief referee's decision on a live game: annulled, or its result changed, with why."""

    __tablename__ = "live_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("live_games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # annul / result / cleared
    result: Mapped[str] = mapped_column(String(16), default="")  # the new SGF result (kind result)
    before: Mapped[str] = mapped_column(String(32), default="")
    reason: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime)


class LiveSanctionRow(Base):
    """禁赛: a player may not queue in the qualifier during ``periods`` periods from ``first_period``."""

    __tablename__ = "live_sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(100), index=True)
    first_period: Mapped[int] = mapped_column(Integer)
    periods: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime)
