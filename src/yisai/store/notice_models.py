"""Tables of the SMS notices (migration 0016): the queue with each notice's delivery state, the
players who opted out, and each event's switches and daily budget.

A notice is unique by ``key`` (e.g. ``pairing:12:1:3:46``): producing it twice — two web
processes, a retried request — stores it once, and a worker sends only the rows it claimed.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from yisai.store.models import Base


class NoticeRow(Base):
    """One SMS: queued → sending → sent, or failed (with the provider's words), or held back
    (``skipped``: switched off, opted out, over budget) without ever reaching a provider."""

    __tablename__ = "notices"
    __table_args__ = (Index("ix_notices_state_next", "state", "next_at"),
                      Index("ix_notices_event_day", "event_id", "day"))  # fmt: skip

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(160), unique=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    phone: Mapped[str] = mapped_column(String(32), index=True)
    account: Mapped[str] = mapped_column(String(100), default="")  # user id or player id it concerns
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # the code is wiped once sent
    state: Mapped[str] = mapped_column(String(16))  # queued sending sent failed skipped
    reason: Mapped[str] = mapped_column(String(32), default="")  # why skipped, or the provider's code
    error: Mapped[str] = mapped_column(Text, default="")  # the provider's refusal in words (zh / en)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime] = mapped_column(DateTime)
    claimed_by: Mapped[str] = mapped_column(String(64), default="")
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime)
    provider: Mapped[str] = mapped_column(String(16), default="")
    provider_id: Mapped[str] = mapped_column(String(100), default="")
    day: Mapped[date] = mapped_column(Date)  # Beijing date it was made (the daily budget's day)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)


class NoticeOptOutRow(Base):
    """A player's account that refuses every notice but the sign-in code."""

    __tablename__ = "notice_optouts"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)


class NoticeSettingsRow(Base):
    """An event's notice kinds switched off, its daily SMS budget (None: the site's default) and
    the last day the operator was alerted at 80 % of it."""

    __tablename__ = "notice_settings"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    off: Mapped[list[str]] = mapped_column(JSON, default=list)
    daily_budget: Mapped[int | None] = mapped_column(Integer)
    alerted_on: Mapped[date | None] = mapped_column(Date)


class SendGateRow(Base):
    """One row per gate (``codes``: every sign-in code request; ``budget:<event id>``: an event's
    daily SMS budget). Updating it is the first write of the transaction that checks the limits
    and stores the message: the row lock (PostgreSQL) or the write lock it takes (SQLite) holds
    every other worker's check until this one commits, so no two see the same last place."""

    __tablename__ = "send_gates"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    hits: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # requests that passed the gate


class RateCounterRow(Base):
    """A counter with a window shared by every worker when no Redis is configured: failed logins
    per source and login, used sign-in proofs. A row lives until its window ends (``expires``,
    seconds since the epoch); each new hit drops the ended ones, so the table holds only the
    windows still open. Keys are bounded (digests), never the raw login typed."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer, default=0)
    expires: Mapped[float] = mapped_column(Float, index=True)
