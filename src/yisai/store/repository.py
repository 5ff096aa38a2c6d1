"""The repository: the only code that reads and writes rows; every change leaves an audit line.

A ``Repository`` lives inside one session (one transaction) and knows who is acting and when,
so services never forget to audit. It converts rows to the registry's models and to
``yisai.record.Game`` on the way out; player ids outside the store are ``str(players.id)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.exc import StaleDataError

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.text import clean_text
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Gender, Player, ProStatus
from yisai.registry.team import Team, TeamMember
from yisai.store.models import (
    AuditRow,
    EntryRow,
    EventRow,
    GameRow,
    PlayerRow,
    ResultChangeRow,
    RoundRow,
    TeamMemberRow,
    TeamRow,
    UserRow,
)
from yisai.store.records import AuditRecord, EventRecord, ResultChange, RoundRecord, UserRecord
from yisai.vocabulary.rank import Rank

T = TypeVar("T")


def _as_text(message: str | Text) -> Text:
    return message if isinstance(message, Text) else Text(message, message)


class NotFound(LookupError):
    """A referenced row does not exist; names what was asked for.

    ``text`` holds the message in both languages (services hand it on to their own errors);
    ``str()`` is the Chinese text, as it always was.
    """

    def __init__(self, message: str | Text) -> None:
        self.text = _as_text(message)
        super().__init__(self.text.zh)


class Conflict(ValueError):
    """A change would break a uniqueness or state rule; the message says which (``text``: both
    languages, ``str()``: Chinese)."""

    def __init__(self, message: str | Text) -> None:
        self.text = _as_text(message)
        super().__init__(self.text.zh)


class StaleVersion(Conflict):
    """Someone else changed the row after the caller read it (optimistic concurrency)."""

    def __init__(self, message: str | Text, current: Game | None = None) -> None:
        super().__init__(message)
        self.current = current


def reasons_data(reasons: Iterable[str | Text]) -> list[Any]:
    """Reasons as stored in a JSON column: ``{"zh", "en"}`` objects (plain strings as given)."""
    return [r.as_dict() if isinstance(r, Text) else r for r in reasons]


def reason_texts(stored: Iterable[object] | None) -> list[Text]:
    """Stored reasons back to Texts; rows written before reasons were bilingual hold Chinese strings."""
    return [Text.from_data(r) for r in stored or ()]


# ------------------------------------------------------------------ conversions


def _event(row: EventRow) -> EventRecord:
    return EventRecord(
        id=row.id,
        name=row.name,
        regulation_id=row.regulation_id,
        regulation_name=row.regulation_name,
        regulation_toml=row.regulation_toml,
        seed=row.seed,
        created_at=row.created_at,
        created_by=row.created_by,
        settings=dict(row.settings or {}),
    )


def _player(row: PlayerRow) -> Player:
    return Player(
        id=str(row.id),
        name=row.name,
        gender=Gender(row.gender),
        birth_date=row.birth_date,
        id_number=row.id_number,
        rank=Rank(row.rank) if row.rank is not None else None,
        pro_status=ProStatus(row.pro_status),
        certificate_no=row.certificate_no,
        region=row.region,
        province=row.province,
        city=row.city,
        club=row.club,
        phone=row.phone,
        rating=row.rating,
    )


_PLAYER_FIELDS = (
    "name", "birth_date", "id_number", "certificate_no", "region", "province", "city", "club",
    "phone", "rating",
)  # fmt: skip


def _fill_player(row: PlayerRow, p: Player) -> None:
    for f in _PLAYER_FIELDS:
        setattr(row, f, getattr(p, f))
    row.gender = p.gender.value
    row.rank = p.rank.value if p.rank is not None else None
    row.pro_status = p.pro_status.value


def _team(row: TeamRow, divisions: dict[int, str] | None = None) -> Team:
    divisions = divisions or {}
    return Team(
        id=str(row.id),
        name=row.name,
        region=row.region,
        province=row.province,
        city=row.city,
        leaders=tuple(row.leaders or ()),
        coaches=tuple(row.coaches or ()),
        members=tuple(
            TeamMember(player_id=str(m.player_id), slot=m.slot, division=divisions.get(m.player_id))
            for m in row.members
        ),
    )


def _entry(row: EntryRow) -> Entry:
    return Entry(
        id=str(row.id),
        player_id=str(row.player_id),
        division=row.division,
        stage=row.stage,
        status=EntryStatus(row.status),
        fee_due=row.fee_due,
        fee_paid=row.fee_paid,
        # Rendered in the reader's language when the entry is read (stored in both).
        reasons=tuple(t.render() for t in reason_texts(row.reasons)),
        note=row.note,
        forced=row.forced,
    )


def _entry_data(row: EntryRow) -> dict[str, Any]:
    """An entry for the audit log: reasons as stored (both languages)."""
    return _entry(row).model_dump(mode="json") | {"reasons": list(row.reasons or [])}


def _game(row: GameRow, number: int) -> Game:
    return Game(
        round=number,
        black=str(row.black_id),
        white=str(row.white_id) if row.white_id is not None else None,
        result=Result(row.result),
        played=row.played,
        board=row.board,
        handicap=row.handicap,
        reason=row.reason,
    )


def _round(row: RoundRow) -> RoundRecord:
    return RoundRecord(
        id=row.id,
        event_id=row.event_id,
        division=row.division,
        stage=row.stage,
        group=row.group_name,
        number=row.number,
        status=row.status,
        info=dict(row.info or {}),
        created_at=row.created_at,
        games=tuple(_game(g, row.number) for g in row.games),
        versions={g.board: g.version for g in row.games},
    )


def _user(row: UserRow) -> UserRecord:
    return UserRecord(
        id=row.id, login=row.login, display_name=row.display_name, role=row.role,
        event_id=row.event_id, team_id=row.team_id, phone=row.phone, active=row.active,
        created_at=row.created_at,
    )  # fmt: skip


def _game_json(g: Game) -> dict[str, Any]:
    return {
        "round": g.round, "board": g.board, "black": g.black, "white": g.white,
        "result": g.result.value, "played": g.played, "handicap": g.handicap, "reason": g.reason,
    }  # fmt: skip


def _pid(player_id: str | int) -> int:
    try:
        return int(player_id)
    except (TypeError, ValueError):
        raise NotFound(Text(f"棋手编号应为数字: {player_id!r}", f"the player number must be a number: {player_id!r}")) from None


# ------------------------------------------------------------------ repository


class Repository:
    def __init__(self, session: Session, actor: str, now: datetime) -> None:
        self.session = session
        self.actor = actor
        self.now = now

    # -------------------------------------------------------------- audit

    def audit(
        self,
        event_id: int | None,
        action: str,
        entity: str,
        entity_id: str | int,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        note: str = "",
    ) -> None:
        self.session.add(
            AuditRow(
                event_id=event_id,
                actor=self.actor,
                at=self.now,
                action=action,
                entity=entity,
                entity_id=str(entity_id),
                before=before,
                after=after,
                note=clean_text(note),  # notes keep any script but never control characters
            )
        )

    def audit_log(
        self, event_id: int, entity: str | None = None, entity_id: str | int | None = None
    ) -> list[AuditRecord]:
        q = select(AuditRow).where(AuditRow.event_id == event_id)
        if entity is not None:
            q = q.where(AuditRow.entity == entity)
        if entity_id is not None:
            q = q.where(AuditRow.entity_id == str(entity_id))
        return [
            AuditRecord(
                r.id, r.event_id, r.actor, r.at, r.action, r.entity, r.entity_id, r.before,
                r.after, r.note,
            )
            for r in self.session.scalars(q.order_by(AuditRow.id))
        ]

    # -------------------------------------------------------------- events

    def add_event(
        self, name: str, regulation_id: str, regulation_name: str, regulation_toml: str, seed: int
    ) -> EventRecord:
        row = EventRow(
            name=name,
            regulation_id=regulation_id,
            regulation_name=regulation_name,
            regulation_toml=regulation_toml,
            seed=seed,
            created_at=self.now,
            created_by=self.actor,
        )
        self.session.add(row)
        self.session.flush()
        after = {"name": name, "regulation_id": regulation_id, "seed": seed}
        self.audit(row.id, "create", "event", row.id, None, after)
        return _event(row)

    def get_event(self, event_id: int) -> EventRecord:
        row = self.session.get(EventRow, event_id)
        if row is None:
            raise NotFound(Text(f"没有编号为{event_id}的比赛", f"no event numbered {event_id}"))
        return _event(row)

    def events_named(self, name: str) -> list[EventRecord]:
        rows = self.session.scalars(select(EventRow).where(EventRow.name == name).order_by(EventRow.id))
        return [_event(r) for r in rows]

    def list_events(self) -> list[EventRecord]:
        return [_event(r) for r in self.session.scalars(select(EventRow).order_by(EventRow.id))]

    # -------------------------------------------------------------- players

    def add_player(self, event_id: int, player: Player) -> Player:
        if player.id_number and self.find_player(event_id, id_number=player.id_number):
            raise Conflict(Text(f"身份证号{player.id_number}已登记",
                                f"ID number {player.id_number} is already registered"))
        row = PlayerRow(event_id=event_id)
        _fill_player(row, player)
        self.session.add(row)
        self.session.flush()
        saved = _player(row)
        self.audit(event_id, "create", "player", row.id, None, saved.model_dump(mode="json"))
        return saved

    def update_player(self, player: Player, note: str = "") -> Player:
        row = self._player_row(player.id)
        before = _player(row)
        _fill_player(row, player)
        self.session.flush()
        after = _player(row)
        if after != before:
            self.audit(
                row.event_id, "update", "player", row.id,
                before.model_dump(mode="json"), after.model_dump(mode="json"), note,
            )  # fmt: skip
        return after

    def _player_row(self, player_id: str | int) -> PlayerRow:
        row = self.session.get(PlayerRow, _pid(player_id))
        if row is None:
            raise NotFound(Text(f"没有编号为{player_id}的棋手", f"no player numbered {player_id}"))
        return row

    def get_player(self, player_id: str | int) -> Player:
        return _player(self._player_row(player_id))

    def player_event(self, player_id: str | int) -> int:
        return self._player_row(player_id).event_id

    def find_player(
        self,
        event_id: int,
        *,
        id_number: str | None = None,
        name: str | None = None,
        birth_date: date | None = None,
    ) -> Player | None:
        """Match on the ID number when given, else on name + birth date (how rosters identify)."""
        q = select(PlayerRow).where(PlayerRow.event_id == event_id)
        if id_number:
            q = q.where(PlayerRow.id_number == id_number)
        elif name and birth_date:
            q = q.where(PlayerRow.name == name, PlayerRow.birth_date == birth_date)
        else:
            return None
        row = self.session.scalars(q.order_by(PlayerRow.id)).first()
        return _player(row) if row else None

    def list_players(self, event_id: int) -> list[Player]:
        q = select(PlayerRow).where(PlayerRow.event_id == event_id).order_by(PlayerRow.id)
        return [_player(r) for r in self.session.scalars(q)]

    def players_by_id(self, event_id: int) -> dict[str, Player]:
        return {p.id: p for p in self.list_players(event_id)}

    # -------------------------------------------------------------- entries

    def add_entry(
        self, event_id: int, entry: Entry, note: str = "", *, reasons: Sequence[str | Text] | None = None
    ) -> Entry:
        """Save a new entry. ``reasons`` (bilingual ``Text``) are stored in place of
        ``entry.reasons`` when given, so the entry reads back in any language."""
        if self.player_event(entry.player_id) != event_id:
            raise NotFound(Text(f"棋手{entry.player_id}不属于本比赛",
                                f"player {entry.player_id} is not in this event"))
        if self.find_entry(entry.player_id, entry.division, entry.stage):
            raise Conflict(Text(f"棋手{entry.player_id}已报名{entry.division}",
                                f"player {entry.player_id} has already entered {entry.division}"))
        row = EntryRow(
            event_id=event_id,
            player_id=_pid(entry.player_id),
            division=entry.division,
            stage=entry.stage,
            status=entry.status.value,
            fee_due=entry.fee_due,
            fee_paid=entry.fee_paid,
            reasons=reasons_data(entry.reasons if reasons is None else reasons),
            note=clean_text(entry.note),
            forced=entry.forced,
            updated_at=self.now,
        )
        self.session.add(row)
        self.session.flush()
        saved = _entry(row)
        self.audit(event_id, "create", "entry", row.id, None, _entry_data(row), note)
        return saved

    def _by_number(self, model: type[T], ident: str | int, what: str, what_en: str) -> T:
        """The row numbered ``ident``, or NotFound naming ``what`` (报名, 队伍 …) in Chinese."""
        try:
            key = int(ident)
        except (TypeError, ValueError):
            raise NotFound(Text(f"{what}编号应为数字: {ident!r}",
                                f"the {what_en} number must be a number: {ident!r}")) from None
        row = self.session.get(model, key)
        if row is None:
            raise NotFound(Text(f"没有编号为{ident}的{what}", f"no {what_en} numbered {ident}"))
        return row

    def _entry_row(self, entry_id: str | int) -> EntryRow:
        return self._by_number(EntryRow, entry_id, "报名", "entry")

    def get_entry(self, entry_id: str | int) -> Entry:
        return _entry(self._entry_row(entry_id))

    def entry_event(self, entry_id: str | int) -> int:
        return self._entry_row(entry_id).event_id

    def entry_reasons(self, entry_id: str | int) -> list[Text]:
        """The entry's stored reasons in both languages."""
        return reason_texts(self._entry_row(entry_id).reasons)

    def update_entry(
        self, entry: Entry, action: str = "update", note: str = "", *,
        reasons: Sequence[str | Text] | None = None,
    ) -> Entry:
        """Save ``entry``'s changes. ``reasons`` (bilingual) replace the stored ones when given;
        otherwise the stored reasons are kept unless ``entry.reasons`` differs from them as read
        (then those strings are stored as given)."""
        row = self._entry_row(entry.id)
        before = _entry_data(row)
        row.status = entry.status.value
        row.fee_due = entry.fee_due
        row.fee_paid = entry.fee_paid
        if reasons is not None:
            row.reasons = reasons_data(reasons)
        elif entry.reasons != _entry(row).reasons:
            row.reasons = list(entry.reasons)
        row.note = clean_text(entry.note)
        row.forced = entry.forced
        row.updated_at = self.now
        self.session.flush()
        after = _entry(row)
        self.audit(row.event_id, action, "entry", row.id, before, _entry_data(row), note)
        return after

    def find_entry(self, player_id: str | int, division: str, stage: str = "") -> Entry | None:
        q = select(EntryRow).where(
            EntryRow.player_id == _pid(player_id),
            EntryRow.division == division,
            EntryRow.stage == stage,
        )
        row = self.session.scalars(q).first()
        return _entry(row) if row else None

    def list_entries(
        self,
        event_id: int,
        *,
        division: str | None = None,
        stage: str | None = None,
        status: EntryStatus | Iterable[EntryStatus] | None = None,
        player_id: str | int | None = None,
    ) -> list[Entry]:
        q = select(EntryRow).where(EntryRow.event_id == event_id)
        if division is not None:
            q = q.where(EntryRow.division == division)
        if stage is not None:
            q = q.where(EntryRow.stage == stage)
        if isinstance(status, EntryStatus):
            q = q.where(EntryRow.status == status.value)
        elif status is not None:
            q = q.where(EntryRow.status.in_([s.value for s in status]))
        if player_id is not None:
            q = q.where(EntryRow.player_id == _pid(player_id))
        return [_entry(r) for r in self.session.scalars(q.order_by(EntryRow.id))]

    # -------------------------------------------------------------- teams

    def _division_of_members(self, event_id: int) -> dict[int, str]:
        """The division each player entered (first active entry), shown on team members."""
        q = (
            select(EntryRow.player_id, EntryRow.division)
            .where(EntryRow.event_id == event_id, EntryRow.status != EntryStatus.WITHDRAWN.value)
            .order_by(EntryRow.id)
        )
        out: dict[int, str] = {}
        for pid, div in self.session.execute(q):
            out.setdefault(pid, div)
        return out

    def add_team(self, event_id: int, team: Team, reasons: Sequence[str | Text] = (), note: str = "") -> Team:
        """Save a team with its composition ``reasons`` (bilingual ``Text`` stored as such)."""
        if self.find_team(event_id, team.name):
            raise Conflict(Text(f"队名\u201c{team.name}\u201d已存在",
                                f"a team named \u201c{team.name}\u201d already exists"))
        row = TeamRow(
            event_id=event_id,
            name=team.name,
            region=team.region,
            province=team.province,
            city=team.city,
            leaders=list(team.leaders),
            coaches=list(team.coaches),
            reasons=reasons_data(reasons),
            note=clean_text(note),
        )
        self.session.add(row)
        self.session.flush()
        for m in team.members:
            self._add_member_row(event_id, row, m)
        self.session.flush()
        self.session.refresh(row)
        saved = _team(row, self._division_of_members(event_id))
        after = saved.model_dump(mode="json") | {"reasons": reasons_data(reasons)}
        self.audit(event_id, "create", "team", row.id, None, after, note)
        return saved

    def _add_member_row(self, event_id: int, row: TeamRow, m: TeamMember) -> None:
        player = self._player_row(m.player_id)
        if player.event_id != event_id:
            raise NotFound(Text(f"棋手{m.player_id}不属于本比赛", f"player {m.player_id} is not in this event"))
        taken = self.session.scalars(
            select(TeamMemberRow).where(TeamMemberRow.player_id == player.id)
        ).first()
        if taken is not None:
            raise Conflict(Text(f"{player.name}已在{taken.team.name}中",
                                f"{player.name} is already in {taken.team.name}"))
        row.members.append(TeamMemberRow(player_id=player.id, slot=m.slot))

    def set_event_setting(self, event_id: int, key: str, value: Any, note: str = "") -> EventRecord:
        row = self.session.get(EventRow, event_id)
        if row is None:
            raise NotFound(Text(f"没有编号为{event_id}的比赛", f"no event number {event_id}"))
        before = {key: (row.settings or {}).get(key)}
        row.settings = {**(row.settings or {}), key: value}
        self.audit(event_id, "update", "event", event_id, before, {key: value}, note)
        self.session.flush()
        return _event(row)

    def replace_team_member(self, team_id: str | int, old_player: str, new_player: str,
                            note: str = "") -> Team:
        """递补: ``new_player`` takes ``old_player``'s seat (slot) in the team, audited."""
        row = self._team_row(team_id)
        before = _team(row).model_dump(mode="json")
        seat = next((m for m in row.members if str(m.player_id) == str(old_player)), None)
        if seat is None:
            raise NotFound(Text(f"棋手{old_player}不在该队", f"player {old_player} is not in this team"))
        if self._player_row(new_player).event_id != row.event_id:
            raise NotFound(Text(f"棋手{new_player}不属于本比赛", f"player {new_player} is not in this event"))
        seat.player_id = _pid(new_player)
        self.session.flush()
        self.session.refresh(row)
        after = _team(row, self._division_of_members(row.event_id))
        self.audit(row.event_id, "replace-member", "team", row.id, before, after.model_dump(mode="json"), note)
        return after

    def add_team_member(self, team_id: str | int, member: TeamMember, note: str = "") -> Team:
        row = self._team_row(team_id)
        before = _team(row).model_dump(mode="json")
        self._add_member_row(row.event_id, row, member)
        self.session.flush()
        self.session.refresh(row)
        after = _team(row, self._division_of_members(row.event_id))
        self.audit(row.event_id, "update", "team", row.id, before, after.model_dump(mode="json"), note)
        return after

    def _team_row(self, team_id: str | int) -> TeamRow:
        return self._by_number(TeamRow, team_id, "队伍", "team")

    def get_team(self, team_id: str | int) -> Team:
        row = self._team_row(team_id)
        return _team(row, self._division_of_members(row.event_id))

    def team_reasons(self, team_id: str | int) -> list[str]:
        """The team's composition reasons in the reader's language."""
        return [t.render() for t in self.team_reason_texts(team_id)]

    def team_reason_texts(self, team_id: str | int) -> list[Text]:
        return reason_texts(self._team_row(team_id).reasons)

    def find_team(self, event_id: int, name: str) -> Team | None:
        q = select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.name == name)
        row = self.session.scalars(q.options(selectinload(TeamRow.members))).first()
        return _team(row, self._division_of_members(event_id)) if row else None

    def list_teams(self, event_id: int) -> list[Team]:
        q = (
            select(TeamRow)
            .where(TeamRow.event_id == event_id)
            .options(selectinload(TeamRow.members))
            .order_by(TeamRow.id)
        )
        divisions = self._division_of_members(event_id)
        return [_team(r, divisions) for r in self.session.scalars(q)]

    # -------------------------------------------------------------- rounds and games

    def save_round(
        self,
        event_id: int,
        division: str,
        number: int,
        games: Sequence[Game],
        *,
        stage: str = "",
        group: str = "",
        info: dict[str, Any] | None = None,
        status: str = "paired",
        replace: bool = False,
        note: str = "",
    ) -> RoundRecord:
        """Store a paired round; ``replace`` re-pairs it (refused once any result is entered)."""
        existing = self._round_row(event_id, division, number, stage, group)
        before = None
        if existing is not None:
            if not replace:
                raise Conflict(Text(f"{division}第{number}轮已编排",
                                    f"round {number} of {division} is already paired"))
            if any(g.result != Result.UNKNOWN.value and g.white_id is not None for g in existing.games):
                raise Conflict(Text(f"{division}第{number}轮已有成绩, 不能重新编排",
                                    f"round {number} of {division} has results: it cannot be paired again"))
            before = {"games": [_game_json(_game(g, number)) for g in existing.games]}
            self.session.delete(existing)
            self.session.flush()
        boards = [g.board for g in games]
        if len(set(boards)) != len(boards):
            raise Conflict(Text(f"{division}第{number}轮台次重复",
                                f"round {number} of {division} has a board number twice"))
        row = RoundRow(
            event_id=event_id,
            division=division,
            stage=stage,
            group_name=group,
            number=number,
            status=status,
            info=info or {},
            created_at=self.now,
        )
        for g in games:
            for pid in (g.black, g.white):
                if pid is not None and self._player_row(pid).event_id != event_id:
                    raise NotFound(Text(f"棋手{pid}不属于本比赛", f"player {pid} is not in this event"))
            row.games.append(
                GameRow(
                    board=g.board,
                    black_id=_pid(g.black),
                    white_id=_pid(g.white) if g.white is not None else None,
                    result=g.result.value,
                    played=g.played,
                    handicap=g.handicap,
                    reason=g.reason,
                )
            )
        self.session.add(row)
        try:
            self.session.flush()
        except IntegrityError:
            raise StaleVersion(Text(
                f"{division}第{number}轮刚被他人编排, 本次编排未保存",
                f"round {number} of {division} was just paired by someone else; nothing saved")) from None
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower():
                raise StaleVersion(Text(
                    f"{division}第{number}轮正被他人编排, 本次编排未保存",
                    f"round {number} of {division} is being paired by someone else; nothing saved")) from None
            raise
        saved = _round(row)
        after = {
            "division": division, "stage": stage, "group": group, "number": number,
            "status": status, "games": [_game_json(g) for g in saved.games],
        }  # fmt: skip
        self.audit(event_id, "replace" if before else "create", "round", row.id, before, after, note)
        return saved

    def _round_row(
        self, event_id: int, division: str, number: int, stage: str = "", group: str = ""
    ) -> RoundRow | None:
        q = select(RoundRow).where(
            RoundRow.event_id == event_id,
            RoundRow.division == division,
            RoundRow.stage == stage,
            RoundRow.group_name == group,
            RoundRow.number == number,
        )
        return self.session.scalars(q.options(selectinload(RoundRow.games))).first()

    def get_round(
        self, event_id: int, division: str, number: int, *, stage: str = "", group: str = ""
    ) -> RoundRecord | None:
        row = self._round_row(event_id, division, number, stage, group)
        return _round(row) if row else None

    def list_rounds(
        self,
        event_id: int,
        division: str | None = None,
        *,
        stage: str | None = None,
        group: str | None = None,
        number: int | None = None,
    ) -> list[RoundRecord]:
        """Rounds with their games; ``number`` picks one round (its groups) without the rest."""
        q = select(RoundRow).where(RoundRow.event_id == event_id)
        if division is not None:
            q = q.where(RoundRow.division == division)
        if stage is not None:
            q = q.where(RoundRow.stage == stage)
        if group is not None:
            q = q.where(RoundRow.group_name == group)
        if number is not None:
            q = q.where(RoundRow.number == number)
        q = q.options(selectinload(RoundRow.games)).order_by(
            RoundRow.division, RoundRow.stage, RoundRow.group_name, RoundRow.number
        )
        return [_round(r) for r in self.session.scalars(q)]

    def round_numbers(self, event_id: int, division: str, *, stage: str | None = None,
                      group: str | None = None) -> list[int]:
        """The numbers of the paired rounds (no games loaded), optionally of one group."""
        q = select(RoundRow.number).where(RoundRow.event_id == event_id, RoundRow.division == division)
        if stage is not None:
            q = q.where(RoundRow.stage == stage)
        if group is not None:
            q = q.where(RoundRow.group_name == group)
        return sorted(set(self.session.scalars(q)))

    def games(
        self, event_id: int, division: str, *, stage: str | None = None, group: str | None = None
    ) -> list[Game]:
        """Every game of a division (optionally one stage/group), round by round, board by board."""
        return [
            g
            for r in self.list_rounds(event_id, division, stage=stage, group=group)
            for g in r.games
        ]

    def set_round_status(self, round_id: int, status: str, note: str = "") -> None:
        row = self.session.get(RoundRow, round_id)
        if row is None:
            raise NotFound(Text(f"没有编号为{round_id}的轮次", f"no round numbered {round_id}"))
        before = {"status": row.status}
        row.status = status
        self.audit(row.event_id, "update", "round", row.id, before, {"status": status}, note)

    def _game_row(self, round_id: int, board: int) -> tuple[RoundRow, GameRow]:
        rnd = self.session.get(RoundRow, round_id)
        if rnd is None:
            raise NotFound(Text(f"没有编号为{round_id}的轮次", f"no round numbered {round_id}"))
        row = self.session.scalars(
            select(GameRow).where(GameRow.round_id == round_id, GameRow.board == board)
        ).first()
        if row is None:
            raise NotFound(Text(f"第{rnd.number}轮没有第{board}台", f"round {rnd.number} has no board {board}"))
        return rnd, row

    def record_result(
        self,
        round_id: int,
        board: int,
        result: Result,
        *,
        played: bool = True,
        reason: str = "",
        note: str = "",
        expected_version: int | None = None,
    ) -> Game:
        """Enter or correct one board's result; history and audit keep every earlier value.

        ``expected_version`` is the version the caller saw; if the row moved on since, or
        another transaction changes it between this read and the write, ``StaleVersion`` is
        raised and nothing is written (never a silent overwrite).
        """
        rnd, row = self._game_row(round_id, board)
        number = rnd.number
        before = _game(row, number)
        if expected_version is not None and row.version != expected_version:
            raise StaleVersion(
                Text(f"第{rnd.number}轮第{board}台的成绩已被他人修改 (版本 {row.version}, 你看到的是 {expected_version})",
                     f"round {rnd.number} board {board}: the result was changed by someone else "
                     f"(version {row.version}, you saw {expected_version})"),
                before,
            )
        row.result = Result(result).value
        row.played = played
        row.reason = reason
        self.session.add(
            ResultChangeRow(
                game_id=row.id,
                result=row.result,
                played=played,
                reason=reason,
                previous=before.result.value,
                actor=self.actor,
                at=self.now,
            )
        )
        try:
            self.session.flush()
        except StaleDataError:
            raise StaleVersion(Text(f"第{number}轮第{board}台的成绩刚被他人修改",
                                    f"round {number} board {board}: the result was just changed by someone else"), None) from None
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower() or "busy" in str(exc.orig).lower():
                raise StaleVersion(Text(f"第{number}轮第{board}台正被他人修改",
                                        f"round {number} board {board} is being changed by someone else"), None) from None
            raise
        after = _game(row, rnd.number)
        self.audit(
            rnd.event_id, "result", "game", row.id, _game_json(before), _game_json(after), note
        )
        return after

    def result_history(self, round_id: int, board: int) -> list[ResultChange]:
        _rnd, row = self._game_row(round_id, board)
        q = select(ResultChangeRow).where(ResultChangeRow.game_id == row.id)
        return [
            ResultChange(Result(c.result), c.played, c.reason, Result(c.previous), c.actor, c.at)
            for c in self.session.scalars(q.order_by(ResultChangeRow.id))
        ]

    # -------------------------------------------------------------- counts

    def count_entries(self, event_id: int) -> dict[tuple[str, str], int]:
        """(division, status) → number of entries, for summaries."""
        q = (
            select(EntryRow.division, EntryRow.status, func.count())
            .where(EntryRow.event_id == event_id)
            .group_by(EntryRow.division, EntryRow.status)
        )
        return {(d, s): n for d, s, n in self.session.execute(q)}


    # -------------------------------------------------------------- users

    def add_user(
        self,
        login: str,
        display_name: str,
        role: str,
        password_hash: str | None = None,
        *,
        event_id: int | None = None,
        team_id: int | None = None,
        phone: str | None = None,
    ) -> UserRecord:
        if self.session.scalars(select(UserRow).where(UserRow.login == login)).first():
            raise Conflict(Text(f"账号 {login} 已存在", f"account {login} already exists"))
        row = UserRow(
            login=login, display_name=display_name, role=role, password_hash=password_hash,
            event_id=event_id, team_id=team_id, phone=phone, active=True, created_at=self.now,
        )  # fmt: skip
        self.session.add(row)
        self.session.flush()
        after = {"login": login, "role": role, "event_id": event_id, "team_id": team_id}
        self.audit(event_id, "create", "user", row.id, None, after)
        return _user(row)

    def _user_row(self, user_id: int) -> UserRow:
        row = self.session.get(UserRow, user_id)
        if row is None:
            raise NotFound(Text(f"没有编号为{user_id}的账号", f"no account numbered {user_id}"))
        return row

    def get_user(self, user_id: int) -> UserRecord:
        return _user(self._user_row(user_id))

    def find_user(self, login: str) -> tuple[UserRecord, str | None] | None:
        """The account and its password hash (only the accounts service sees hashes)."""
        row = self.session.scalars(select(UserRow).where(UserRow.login == login)).first()
        return (_user(row), row.password_hash) if row else None

    def list_users(self, event_id: int | None = None, *, without_role: str | None = None) -> list[UserRecord]:
        q = select(UserRow)
        if event_id is not None:
            q = q.where(UserRow.event_id == event_id)
        if without_role is not None:
            q = q.where(UserRow.role != without_role)
        return [_user(r) for r in self.session.scalars(q.order_by(UserRow.id))]

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        row = self._user_row(user_id)
        row.password_hash = password_hash
        self.audit(row.event_id, "update", "user", row.id, None, {"password": "changed"})

    def set_user_active(self, user_id: int, active: bool) -> None:
        """Disable (or enable again) an account; a disabled one cannot sign in or keep a session."""
        row = self._user_row(user_id)
        before = {"active": row.active}
        row.active = active
        self.audit(row.event_id, "update", "user", row.id, before, {"active": active})

    def count_users(self, *, active_only: bool = True, without_role: str | None = None) -> int:
        q = select(func.count()).select_from(UserRow)
        if active_only:
            q = q.where(UserRow.active.is_(True))
        if without_role is not None:
            q = q.where(UserRow.role != without_role)
        return int(self.session.scalar(q) or 0)

    def set_user_team(self, user_id: int, team_id: int, event_id: int) -> None:
        """Bind a team leader's account to the team it registered (and that team's event)."""
        row = self._user_row(user_id)
        before = {"team_id": row.team_id, "event_id": row.event_id}
        row.team_id, row.event_id = team_id, event_id
        self.audit(event_id, "update", "user", row.id, before, {"team_id": team_id, "event_id": event_id})
