"""Tables beside the competition itself: pending player changes, appeals, registration papers
and check-ins, player profiles, team line-ups and WeChat/QQ sign-in links.

Apart from ``store.models`` so that a command that reads none of them (a result entered, the
standings) neither declares nor configures them at start-up; each one's ``*_rows`` module
imports it. No ``from __future__ import annotations``, as in ``store.models``: SQLAlchemy would
evaluate every string annotation when it maps the tables.
"""

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from yisai.store.models import Base


class PlayerChangeRow(Base):
    """A change to a registered player that waits for the chief referee (after the registration
    deadline or after the entry was approved): the fields before and after, and the decision."""

    __tablename__ = "player_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any]] = mapped_column(JSON)
    why: Mapped[str] = mapped_column(String(32))  # "approved" / "deadline"
    requested_by: Mapped[str] = mapped_column(String(100))
    requested_at: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime)
    reason: Mapped[str] = mapped_column(Text, default="", server_default="")


class AppealRow(Base):
    """An appeal (申诉) against a referee's decision: filed in writing, with its fee and decision."""

    __tablename__ = "appeals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    division: Mapped[str] = mapped_column(String(32))
    round_number: Mapped[int] = mapped_column(Integer)
    board: Mapped[int | None] = mapped_column(Integer)
    appellant: Mapped[str] = mapped_column(String(100))
    subject: Mapped[str] = mapped_column(Text)
    filed_by: Mapped[str] = mapped_column(String(100))
    filed_at: Mapped[datetime] = mapped_column(DateTime)
    round_ended_at: Mapped[datetime | None] = mapped_column(DateTime)
    fee: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="filed")  # filed | upheld | dismissed
    decision: Mapped[str] = mapped_column(Text, default="")
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime)
    refunded: Mapped[bool] = mapped_column(Boolean, default=False)


# ---------------------------------------------------------------- papers and check-in (issue 15)


class PaperRow(Base):
    """An uploaded registration paper: the file lives in the file store under ``storage_key``."""

    __tablename__ = "papers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # entry_form / identity_proof
    file_type: Mapped[str] = mapped_column(String(8))  # pdf / jpeg / png (from the content)
    file_name: Mapped[str] = mapped_column(String(300))  # the name the regulation asks for
    uploaded_name: Mapped[str] = mapped_column(String(300))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    storage_key: Mapped[str | None] = mapped_column(String(500))  # None once purged
    status: Mapped[str] = mapped_column(String(16), default="submitted")
    reason: Mapped[str] = mapped_column(Text, default="")
    uploaded_at: Mapped[datetime] = mapped_column(DateTime)
    uploaded_by: Mapped[str] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime)
    decided_by: Mapped[str | None] = mapped_column(String(100))
    purged_at: Mapped[datetime | None] = mapped_column(DateTime)


class CheckInRow(Base):
    """报到: one row per player who arrived, with the insurance confirmation."""

    __tablename__ = "check_ins"
    __table_args__ = (UniqueConstraint("player_id", name="uq_check_ins_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    arrived: Mapped[bool] = mapped_column(Boolean, default=True)
    insured: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[datetime] = mapped_column(DateTime)
    by: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text, default="")


# ---------------------------------------------------------------- player profiles (issue 13)


class PlayerProfileRow(Base):
    """A player account's profile, reused by the online qualifier and the final (one per account).

    Phone numbers (the guardian's) and the birth date are personal data: never on a public page.
    """

    __tablename__ = "player_profiles"
    __table_args__ = (UniqueConstraint("user_id", name="uq_player_profiles_user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    gender: Mapped[str] = mapped_column(String(1))  # M / F
    birth: Mapped[date] = mapped_column(Date)
    region: Mapped[str] = mapped_column(String(100))
    rank: Mapped[str] = mapped_column(String(16), default="")  # "" = no grade yet
    guardian_phone: Mapped[str | None] = mapped_column(String(32))  # required under 18
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class LineupRow(Base):
    """出场名单: a team's players on the boards of one round of a team-match stage."""

    __tablename__ = "team_lineups"
    __table_args__ = (
        UniqueConstraint("team_id", "stage", "number", name="uq_team_lineups_team_stage_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)  # the round
    players: Mapped[list[str]] = mapped_column(default=list)  # player ids, board 1 first
    submitted_by: Mapped[str] = mapped_column(String(100))
    submitted_at: Mapped[datetime] = mapped_column(DateTime)


# ---------------------------------------------------------------- WeChat / QQ sign-in (issue 35)


class OAuthLinkRow(Base):
    """A WeChat or QQ identity linked to a phone-verified player account: whichever way the
    person signs in, it is the same account (one ladder line). Only the provider's ids are kept:
    no access token, no nickname, no picture."""

    __tablename__ = "oauth_links"
    __table_args__ = (
        UniqueConstraint("provider", "openid", name="uq_oauth_links_provider_openid"),
        UniqueConstraint("user_id", "provider", name="uq_oauth_links_user_id_provider"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    provider: Mapped[str] = mapped_column(String(16))  # "wechat" | "qq"
    openid: Mapped[str] = mapped_column(String(128))  # the provider's id of the person for this app
    unionid: Mapped[str | None] = mapped_column(String(128))  # the id across the organiser's apps, if granted
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_used_at: Mapped[datetime] = mapped_column(DateTime)


class OAuthStateRow(Base):
    """A WeChat/QQ sign-in started on this site and not yet come back: the digest of its ``state``
    (never the value itself), taken away by the one callback that presents it."""

    __tablename__ = "oauth_states"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 hex of the state
    provider: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
