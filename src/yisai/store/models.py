"""Tables of the event store (SQLAlchemy 2 declarative). Changes go through Alembic migrations.

ID-card and phone numbers are text columns: they are identifiers, not quantities, and must keep
leading zeros and the trailing X. Times are naive Beijing time, the clock the regulations use.

No ``from __future__ import annotations`` here: with string annotations SQLAlchemy evaluates
every one of them (about 500 ``eval`` calls) when it maps the tables, on every command's start.
"""

from datetime import date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[str]: JSON}


class EventRow(Base):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    regulation_id: Mapped[str] = mapped_column(String(100))
    regulation_name: Mapped[str] = mapped_column(String(300))
    regulation_toml: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    created_by: Mapped[str] = mapped_column(String(100))
    # Decisions the regulation leaves to the organiser, e.g. {"rounds": {"jia": 7}}.
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    # Moves on with every change to the event's players, entries and teams (store.revisions).
    roster_revision: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # Moves on with every change to the event: its rounds, games, players, entries, teams, its own
    # row and every audit line (database triggers, migration 0022; web_rows.event_stamp).
    revision: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("event_id", "id_number", name="uq_players_event_id_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    gender: Mapped[str] = mapped_column(String(1))
    birth_date: Mapped[date | None] = mapped_column(Date)
    id_number: Mapped[str | None] = mapped_column(String(32))
    rank: Mapped[int | None] = mapped_column(Integer)  # Rank.value: 1d = 0, 1k = -1
    pro_status: Mapped[str] = mapped_column(String(16), default="amateur")
    certificate_no: Mapped[str | None] = mapped_column(String(64))
    region: Mapped[str | None] = mapped_column(String(32))
    province: Mapped[str | None] = mapped_column(String(32))
    city: Mapped[str | None] = mapped_column(String(64))
    club: Mapped[str | None] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(32))
    rating: Mapped[int | None] = mapped_column(Integer)


class TeamRow(Base):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("event_id", "name", name="uq_teams_event_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    region: Mapped[str | None] = mapped_column(String(32))
    province: Mapped[str | None] = mapped_column(String(32))
    city: Mapped[str | None] = mapped_column(String(64))
    leaders: Mapped[list[str]] = mapped_column(default=list)
    coaches: Mapped[list[str]] = mapped_column(default=list)
    reasons: Mapped[list[str]] = mapped_column(default=list)
    note: Mapped[str] = mapped_column(Text, default="")
    account_id: Mapped[int | None] = mapped_column(Integer)  # the 领队 account that registered it
    members: Mapped[list["TeamMemberRow"]] = relationship(
        back_populates="team", cascade="all, delete-orphan", order_by="TeamMemberRow.id"
    )


class TeamMemberRow(Base):
    __tablename__ = "team_members"
    __table_args__ = (UniqueConstraint("player_id", name="uq_team_members_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    slot: Mapped[str | None] = mapped_column(String(32))
    team: Mapped[TeamRow] = relationship(back_populates="members")


class EntryRow(Base):
    __tablename__ = "entries"
    __table_args__ = (
        UniqueConstraint("player_id", "division", "stage", name="uq_entries_player_division_stage"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    division: Mapped[str] = mapped_column(String(64))
    stage: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default="pending")
    fee_due: Mapped[int] = mapped_column(Integer, default=0)
    fee_paid: Mapped[bool] = mapped_column(Boolean, default=False)
    reasons: Mapped[list[str]] = mapped_column(default=list)
    note: Mapped[str] = mapped_column(Text, default="")
    forced: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class RoundRow(Base):
    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint(
            "event_id", "division", "stage", "group_name", "number", name="uq_rounds_position"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    division: Mapped[str] = mapped_column(String(64))
    stage: Mapped[str] = mapped_column(String(64), default="")
    group_name: Mapped[str] = mapped_column(String(32), default="")
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="paired")
    info: Mapped[dict[str, Any]] = mapped_column(default=dict)  # pairing explanations, seed ...
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # Changes with every change to the round's games (store.revisions): what caches of the
    # games are keyed by. Unique over time, so a round deleted and paired again never repeats one.
    revision: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    games: Mapped[list["GameRow"]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="GameRow.board"
    )


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("round_id", "board", name="uq_games_round_board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    board: Mapped[int] = mapped_column(Integer)
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    white_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    result: Mapped[str] = mapped_column(String(8), default="?")
    played: Mapped[bool] = mapped_column(Boolean, default=True)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    reason: Mapped[str] = mapped_column(Text, default="")
    # Optimistic concurrency: every write bumps it and is refused if someone bumped it first.
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    round: Mapped[RoundRow] = relationship(back_populates="games")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class ResultChangeRow(Base):
    """Every result ever entered for a game, so a corrected result keeps its history."""

    __tablename__ = "result_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    result: Mapped[str] = mapped_column(String(8))
    played: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(Text, default="")
    previous: Mapped[str] = mapped_column(String(8))
    actor: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime)


class AuditRow(Base):
    """Who changed what, when, with the entity's values before and after (JSON)."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int | None] = mapped_column(
        ForeignKey("events.id", ondelete="SET NULL"), index=True
    )
    actor: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime)
    action: Mapped[str] = mapped_column(String(32))
    entity: Mapped[str] = mapped_column(String(32))
    entity_id: Mapped[str] = mapped_column(String(64))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")


class UserRow(Base):
    """A person who signs in: a role, optionally bound to one event and one team (领队)."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("login", name="uq_users_login"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    login: Mapped[str] = mapped_column(String(100))
    display_name: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str | None] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(32))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"))
    phone: Mapped[str | None] = mapped_column(String(32))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # raised to end every session and API token of the account (logout, new password, disabling)
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    max_teams: Mapped[int] = mapped_column(Integer, default=1, server_default="1")  # 领队: teams it may register
