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
    Float,
    ForeignKey,
    Index,
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
    __table_args__ = (Index("ix_live_codes_client_created", "client", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    phone: Mapped[str] = mapped_column(String(32), index=True)
    salt: Mapped[str] = mapped_column(String(64))
    digest: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    client: Mapped[str] = mapped_column(String(64), default="", server_default="")  # who asked for it


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
