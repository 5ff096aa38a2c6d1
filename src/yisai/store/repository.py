"""The repository: every method one call into the row module of its area (``*_rows``).

A ``Repository`` lives inside one session (one transaction) and knows who is acting and when
(its ``Stamp``), so services reached through ``work.repo`` never forget to audit. The rows are
read and written by ``event_rows``, ``player_rows``, ``entry_rows``, ``team_rows``,
``round_rows``, ``account_rows`` and ``audit_rows``; services move to calling those directly
(docs/services.md, "One store style"), and then this class goes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Player
from yisai.registry.team import Team, TeamMember
from yisai.store import (
    account_rows,
    audit_rows,
    entry_rows,
    event_rows,
    player_rows,
    roster_rows,
    round_rows,
    team_rows,
)
from yisai.store.errors import Conflict, NotFound, StaleVersion
from yisai.store.records import (
    AuditRecord,
    EventRecord,
    ResultChange,
    RoundRecord,
    Stamp,
    UserRecord,
)
from yisai.store.revisions import GamesRead

__all__ = ["Conflict", "NotFound", "Repository", "StaleVersion"]


class Repository:
    def __init__(self, session: Session, actor: str, now: datetime) -> None:
        self.session = session
        self.actor = actor
        self.now = now
        self.stamp = Stamp(actor, now)

    # -------------------------------------------------------------- audit

    def audit(self, event_id: int | None, action: str, entity: str, entity_id: str | int,
              before: dict[str, Any] | None, after: dict[str, Any] | None, note: str = "") -> None:
        audit_rows.audit(self.session, self.stamp, event_id, action, entity, entity_id, before, after, note)

    def audit_log(
        self, event_id: int, entity: str | None = None, entity_id: str | int | None = None
    ) -> list[AuditRecord]:
        return audit_rows.audit_log(self.session, event_id, entity, entity_id)

    def audit_newest(self, event_id: int, offset: int, limit: int) -> tuple[int, list[AuditRecord]]:
        return audit_rows.audit_newest(self.session, event_id, offset, limit)

    # -------------------------------------------------------------- events

    def add_event(
        self, name: str, regulation_id: str, regulation_name: str, regulation_toml: str, seed: int
    ) -> EventRecord:
        return event_rows.add_event(self.session, self.stamp, name, regulation_id, regulation_name,
                                    regulation_toml, seed)

    def get_event(self, event_id: int) -> EventRecord:
        return event_rows.get_event(self.session, event_id)

    def events_named(self, name: str) -> list[EventRecord]:
        return event_rows.events_named(self.session, name)

    def list_events(self) -> list[EventRecord]:
        return event_rows.list_events(self.session)

    def set_event_setting(self, event_id: int, key: str, value: Any, note: str = "") -> EventRecord:
        return event_rows.set_event_setting(self.session, self.stamp, event_id, key, value, note)

    # -------------------------------------------------------------- players

    def add_player(self, event_id: int, player: Player) -> Player:
        return player_rows.add_player(self.session, self.stamp, event_id, player)

    def update_player(self, player: Player, note: str = "") -> Player:
        return player_rows.update_player(self.session, self.stamp, player, note)

    def get_player(self, player_id: str | int) -> Player:
        return player_rows.get_player(self.session, player_id)

    def player_event(self, player_id: str | int) -> int:
        return player_rows.player_event(self.session, player_id)

    def find_player(self, event_id: int, *, id_number: str | None = None, name: str | None = None,
                    birth_date: date | None = None) -> Player | None:
        return player_rows.find_player(self.session, event_id, id_number=id_number, name=name,
                                       birth_date=birth_date)

    def list_players(self, event_id: int) -> list[Player]:
        return roster_rows.list_players(self.session, event_id)

    def players_by_id(self, event_id: int) -> dict[str, Player]:
        return roster_rows.players_by_id(self.session, event_id)

    # -------------------------------------------------------------- entries

    def add_entry(self, event_id: int, entry: Entry, note: str = "") -> Entry:
        return entry_rows.add_entry(self.session, self.stamp, event_id, entry, note)

    def get_entry(self, entry_id: str | int) -> Entry:
        return entry_rows.get_entry(self.session, entry_id)

    def entry_event(self, entry_id: str | int) -> int:
        return entry_rows.entry_event(self.session, entry_id)

    def update_entry(self, entry: Entry, action: str = "update", note: str = "") -> Entry:
        return entry_rows.update_entry(self.session, self.stamp, entry, action, note)

    def find_entry(self, player_id: str | int, division: str, stage: str = "") -> Entry | None:
        return entry_rows.find_entry(self.session, player_id, division, stage)

    def list_entries(self, event_id: int, *, division: str | None = None, stage: str | None = None,
                     status: EntryStatus | Iterable[EntryStatus] | None = None,
                     player_id: str | int | None = None) -> list[Entry]:
        return roster_rows.list_entries(self.session, event_id, division=division, stage=stage,
                                        status=status, player_id=player_id)

    def count_entries(self, event_id: int) -> dict[tuple[str, str], int]:
        return entry_rows.count_entries(self.session, event_id)

    # -------------------------------------------------------------- teams

    def add_team(self, event_id: int, team: Team, reasons: Sequence[str | Text] = (), note: str = "") -> Team:
        return team_rows.add_team(self.session, self.stamp, event_id, team, reasons, note)

    def replace_team_member(self, team_id: str | int, old_player: str, new_player: str,
                            note: str = "") -> Team:
        return team_rows.replace_team_member(self.session, self.stamp, team_id, old_player, new_player, note)

    def add_team_member(self, team_id: str | int, member: TeamMember, note: str = "") -> Team:
        return team_rows.add_team_member(self.session, self.stamp, team_id, member, note)

    def get_team(self, team_id: str | int) -> Team:
        return team_rows.get_team(self.session, team_id)

    def team_reason_texts(self, team_id: str | int) -> list[Text]:
        return team_rows.team_reason_texts(self.session, team_id)

    def find_team(self, event_id: int, name: str) -> Team | None:
        return team_rows.find_team(self.session, event_id, name)

    def list_teams(self, event_id: int) -> list[Team]:
        return team_rows.list_teams(self.session, event_id)

    # -------------------------------------------------------------- rounds and games

    def save_round(self, event_id: int, division: str, number: int, games: Sequence[Game], *,
                   stage: str = "", group: str = "", info: dict[str, Any] | None = None,
                   status: str = "paired", replace: bool = False, note: str = "") -> RoundRecord:
        return round_rows.save_round(self.session, self.stamp, event_id, division, number, games, stage=stage,
                                     group=group, info=info, status=status, replace=replace, note=note)

    def get_round(self, event_id: int, division: str, number: int, *, stage: str = "",
                  group: str = "") -> RoundRecord | None:
        return round_rows.get_round(self.session, event_id, division, number, stage=stage, group=group)

    def list_rounds(self, event_id: int, division: str | None = None, *, stage: str | None = None,
                    group: str | None = None, number: int | None = None) -> list[RoundRecord]:
        return round_rows.list_rounds(self.session, event_id, division, stage=stage, group=group, number=number)

    def round_numbers(self, event_id: int, division: str, *, stage: str | None = None,
                      group: str | None = None) -> list[int]:
        return round_rows.round_numbers(self.session, event_id, division, stage=stage, group=group)

    def games(self, event_id: int, division: str, *, stage: str | None = None,
              group: str | None = None) -> list[Game]:
        return round_rows.games(self.session, event_id, division, stage=stage, group=group)

    def games_read(self, event_id: int, division: str, *, stage: str | None = None,
                   group: str | None = None) -> GamesRead:
        return round_rows.games_read(self.session, event_id, division, stage=stage, group=group)

    def set_round_status(self, round_id: int, status: str, note: str = "") -> None:
        round_rows.set_round_status(self.session, self.stamp, round_id, status, note)

    def record_result(self, round_id: int, board: int, result: Result, *, played: bool = True,
                      reason: str = "", note: str = "", expected_version: int | None = None) -> Game:
        return round_rows.record_result(self.session, self.stamp, round_id, board, result, played=played,
                                        reason=reason, note=note, expected_version=expected_version)

    def result_history(self, round_id: int, board: int) -> list[ResultChange]:
        return round_rows.result_history(self.session, round_id, board)

    # -------------------------------------------------------------- accounts

    def add_user(self, login: str, display_name: str, role: str, password_hash: str | None = None, *,
                 event_id: int | None = None, team_id: int | None = None,
                 phone: str | None = None) -> UserRecord:
        return account_rows.add_user(self.session, self.stamp, login, display_name, role, password_hash,
                                     event_id=event_id, team_id=team_id, phone=phone)

    def get_user(self, user_id: int) -> UserRecord:
        return account_rows.get_user(self.session, user_id)

    def find_user(self, login: str) -> tuple[UserRecord, str | None] | None:
        return account_rows.find_user(self.session, login)

    def list_users(self, event_id: int | None = None, *, without_role: str | None = None) -> list[UserRecord]:
        return account_rows.list_users(self.session, event_id, without_role=without_role)

    def set_password_hash(self, user_id: int, password_hash: str, *, end_sessions: bool = True) -> None:
        account_rows.set_password_hash(self.session, self.stamp, user_id, password_hash, end_sessions=end_sessions)

    def end_sessions(self, user_id: int) -> None:
        account_rows.end_sessions(self.session, self.stamp, user_id)

    def set_user_active(self, user_id: int, active: bool) -> None:
        account_rows.set_user_active(self.session, self.stamp, user_id, active)

    def count_users(self, *, active_only: bool = True, without_role: str | None = None) -> int:
        return account_rows.count_users(self.session, active_only=active_only, without_role=without_role)

    def set_user_team(self, user_id: int, team_id: int, event_id: int) -> None:
        account_rows.set_user_team(self.session, self.stamp, user_id, team_id, event_id)
