"""Plain values the repository hands out, so callers never hold session-bound ORM rows.

Players, teams and entries reuse the registry's models; events, rounds and audit lines are
described here because only the store knows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from yisai.record import Game, Result


@dataclass(frozen=True, slots=True)
class EventRecord:
    id: int
    name: str
    regulation_id: str
    regulation_name: str
    regulation_toml: str
    seed: int
    created_at: datetime
    created_by: str
    settings: dict[str, Any] = field(default_factory=dict)

    def decided_rounds(self, division: str) -> int | None:
        """The round count the organiser set for a division whose regulation says 暂定."""
        value = self.settings.get("rounds", {}).get(division)
        return int(value) if value is not None else None


@dataclass(frozen=True, slots=True)
class RoundRecord:
    id: int
    event_id: int
    division: str
    stage: str
    group: str
    number: int
    status: str
    info: dict[str, Any]
    created_at: datetime
    games: tuple[Game, ...] = field(default=())
    versions: dict[int, int] = field(default_factory=dict)  # board → version (concurrency)

    def version_of(self, board: int) -> int:
        return self.versions.get(board, 1)


@dataclass(frozen=True, slots=True)
class ResultChange:
    result: Result
    played: bool
    reason: str
    previous: Result
    actor: str
    at: datetime


@dataclass(frozen=True, slots=True)
class AuditRecord:
    id: int
    event_id: int | None
    actor: str
    at: datetime
    action: str
    entity: str
    entity_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    note: str


@dataclass(frozen=True, slots=True)
class UserRecord:
    """An account (never its password hash)."""

    id: int
    login: str
    display_name: str
    role: str
    event_id: int | None
    team_id: int | None
    phone: str | None
    active: bool
    created_at: datetime
    max_teams: int = 1  # how many teams a 领队 account may register (the operator raises it)
    session_epoch: int = 0  # a session or token made at an older one is no longer valid


@dataclass(frozen=True, slots=True)
class Stamp:
    """Who writes and when: every audited write of a row module takes one (the unit of work's
    actor and clock), so the audit line names them."""

    actor: str
    at: datetime
