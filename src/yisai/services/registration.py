"""Registration use cases: players, entries, teams, roster import, and the director's decisions.

Eligibility is decided by ``registry.eligibility`` against the event's stored regulation; the
reasons are saved on the entry so the director (and the audit log) sees why.

Reasons are data: they are computed in Chinese and English (``i18n.both``) and stored as
``{"zh", "en"}`` objects; whatever hands them to a front end (``Entry.reasons`` as the repository
reads it, ``TeamView.reasons``, ``ImportReport.ineligible``) gives plain strings in the caller's
language at the time they are read. ``Entry`` keeps ``tuple[str, ...]`` so the pure registry
model and everything that prints it stay as they were. An entry needing no
approval and meeting every rule is approved at once; anything else waits for the director.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, time
from pathlib import Path
from typing import Any

from yisai.formats.roster import Roster, RosterIssue, RosterRow, Sheet, parse_sheets
from yisai.formats.uploads import read_roster_bytes
from yisai.i18n import Text, both, tr
from yisai.registry.eligibility import check_player, check_team, composition_reasons, window_reasons
from yisai.registry.entry import TRANSITIONS, Entry, EntryStatus
from yisai.registry.fees import fee_for
from yisai.registry.idcard import normalise
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team, TeamMember
from yisai.registry.team_split import split_extra_players
from yisai.regulation import Regulation
from yisai.regulation.admin import RegistrationWindow
from yisai.regulation.teams import TeamRules
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Forbidden, Hint
from yisai.services.events import regulation_of, resolve_division, resolve_stage
from yisai.services.identity import Action, Role
from yisai.store import Conflict, EventRecord, NotFound, account_rows, change_rows


@dataclass(frozen=True)
class Registered:
    player: Player
    entry: Entry | None
    player_created: bool
    entry_created: bool
    change_pending: int | None = None  # a change waiting for the chief referee (its number)


@dataclass(frozen=True)
class EntryView:
    entry: Entry
    player: Player
    division_name: str
    team: str | None


@dataclass(frozen=True)
class PlayerView:
    player: Player
    entries: tuple[Entry, ...]
    team: str | None


@dataclass(frozen=True)
class TeamView:
    team: Team
    players: tuple[Player, ...]
    reasons: tuple[str, ...]  # composition findings at registration, in the reader's language
    notes: tuple[str, ...] = ()  # players listed but entered as individuals, and why


@dataclass
class ImportReport:
    rows: int = 0
    players_created: int = 0
    players_updated: int = 0
    entries_created: int = 0
    entries_pending: int = 0
    teams_created: int = 0
    members_added: int = 0
    changes_pending: int = 0  # changes to registered players waiting for the chief referee
    warnings: list[str] = field(default_factory=list)
    ineligible: list[str] = field(default_factory=list)  # "姓名(组别): reason" in the caller's language


# ------------------------------------------------------------------ helpers


def texts(make: Callable[[], list[str]]) -> list[Text]:
    """Sentences built by core code (one list per language), paired up as ``Text``s."""
    zh, en = both(make)
    if len(zh) != len(en):  # a sentence that exists in one language only: keep the Chinese
        return [Text(z, z) for z in zh]
    return [Text(z, e) for z, e in zip(zh, en, strict=True)]


def eligibility_reasons(regulation: Regulation, player: Player, division: str) -> list[str]:
    """The reasons in the caller's language."""
    return check_player(player, regulation.division(division), regulation)


def eligibility_texts(regulation: Regulation, player: Player, division: str) -> list[Text]:
    """The reasons in both languages, as they are stored."""
    return texts(lambda: eligibility_reasons(regulation, player, division))


def _rendered(reasons: Iterable[Text]) -> tuple[str, ...]:
    return tuple(r.render() for r in reasons)


def _needs_approval(regulation: Regulation, division: str) -> bool:
    """The division's own rule when it states one, else ``registration.approval_required``
    (报名后须审核, for every division that does not say otherwise)."""
    e = regulation.division(division).eligibility
    if "approval_required" in e.model_fields_set:
        return e.approval_required
    return regulation.registration.approval_required


def merge_player(existing: Player, incoming: Player) -> Player:
    """Fields the new data states (not None) replace the stored ones; the rest are kept."""
    changes = {
        name: getattr(incoming, name)
        for name in incoming.model_fields_set
        if name != "id" and getattr(incoming, name) is not None
    }
    return existing.model_copy(update=changes)


def _division_name(regulation: Regulation, division: str) -> str:
    try:
        return regulation.division(division).name
    except KeyError:
        return division


# ------------------------------------------------------------------ players and entries


def register_player(
    work: Work,
    event: EventRecord,
    player: Player,
    *,
    division: str | None = None,
    stage: str = "",
    fee_paid: bool | None = None,
    note: str = "",
    late: bool = False,
) -> Registered:
    """Add or update a player (matched on ID number, else name + birth date) and enter him.

    ``late``: the chief referee admits the entry after the registration deadline (逾期报名), with
    ``note`` as the reason; only the window is waived, every other rule still applies.

    ``division``/``stage`` are ids or names. The entry is approved at once when the division
    needs no approval and no eligibility rule fails; otherwise it waits, with its reasons.
    A player holds one live entry per stage: entering a second division is refused until the
    first entry is withdrawn.
    """
    work.require(Action.REGISTER)
    work.check_event(event.id)
    if late:
        _require_late_admission(work, note)
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division) if division else None
    stage_id = resolve_stage(regulation, stage)
    if player.id_number:
        player = player.model_copy(update={"id_number": normalise(player.id_number)})
    existing = find_existing_player(work, event, player)
    created = existing is None
    pending: int | None = None
    if existing is None:
        saved = work.repo.add_player(event.id, player.model_copy(update={"id": ""}))
    else:
        check_may_change_player(work, event, existing)
        merged = merge_player(existing, player)
        saved = existing
        if merged != existing:
            why = change_needs_approval(work, event, regulation, existing)
            if why is None:
                saved = work.repo.update_player(merged, note)
            else:
                pending = request_change(work, event, existing, merged, why, note)
    entry, entry_created = None, False
    if division_id is not None:
        entry = work.repo.find_entry(saved.id, division_id, stage_id)
        if entry is None:
            waived = _window_waived(work, regulation, division_id, late)
            _check_one_live_entry(work, event, regulation, saved, division_id, stage_id)
            entry = _open_entry(work, event, regulation, saved, division_id, stage_id, fee_paid, note)
            if waived:
                entry = mark_late(work, entry, note)
            entry_created = True
        elif fee_paid is not None and entry.fee_paid != fee_paid:
            entry = work.repo.update_entry(entry.model_copy(update={"fee_paid": fee_paid}), "fee", note)
    return Registered(saved, entry, created, entry_created, pending)


def find_existing_player(work: Work, event: EventRecord, player: Player) -> Player | None:
    """The stored player this one is (matched on ID number, else name + birth date)."""
    id_number = normalise(player.id_number) if player.id_number else None
    existing = work.repo.find_player(event.id, id_number=id_number, name=player.name,
                                     birth_date=player.birth_date)
    if existing is None and id_number:
        # Registered earlier without an ID number: same name and birth date is the same person.
        same = work.repo.find_player(event.id, name=player.name, birth_date=player.birth_date)
        existing = same if same is not None and not same.id_number else None
    return existing


def team_of_player(work: Work, event: EventRecord, player_id: str) -> Team | None:
    return next((t for t in work.repo.list_teams(event.id) if any(m.player_id == player_id for m in t.members)),
                None)


def check_may_change_player(work: Work, event: EventRecord, player: Player) -> None:
    """A team leader touches only the own team: a player of another team is refused."""
    if work.actor.role is not Role.TEAM_LEADER:
        return
    team = team_of_player(work, event, player.id)
    if team is not None and not work.actor.leads(team.id):
        raise Forbidden(Text(f"{player.name}是{team.name}的队员, 不是本账号的队伍: 领队只能登记和更改本队棋手",
                             f"{player.name} plays for {team.name}, not this account's team: a team leader "
                             "registers and changes only the own team's players"),
                        code="not_own_team", params={"player": player.id, "team": team.id})


def registration_closed(work: Work, regulation: Regulation, divisions: Iterable[str], in_team: bool) -> bool:
    """The registration deadline for any of these divisions (or, for a team's player, the team
    registration deadline) has passed."""
    wanted = set(divisions)
    for w in regulation.registration.windows:
        if w.divisions and not wanted & set(w.divisions):
            continue
        _opens, closes = _window_bounds(w)
        if closes is not None and work.now > closes:
            return True
    if in_team and regulation.teams is not None and regulation.teams.registration_to is not None:
        closes = regulation.teams.registration_to
        if closes.time() == time(0, 0):
            closes = datetime.combine(closes.date(), time(23, 59, 59))
        return work.now > closes
    return False


def change_needs_approval(work: Work, event: EventRecord, regulation: Regulation, player: Player) -> str | None:
    """Why a change to this registered player waits for the chief referee ("approved": one of
    the player's entries is approved; "deadline": registration has closed), or None when it
    may be saved at once. The chief referee's own changes never wait."""
    if work.actor.may(Action.APPROVE):
        return None
    entries = work.repo.list_entries(event.id, player_id=player.id, status=LIVE)
    in_team = team_of_player(work, event, player.id) is not None
    if registration_closed(work, regulation, [e.division for e in entries], in_team):
        return "deadline"
    if any(e.status is EntryStatus.APPROVED for e in entries):
        return "approved"
    return None


def _changed_fields(before: Player, after: Player) -> tuple[dict[str, Any], dict[str, Any]]:
    b, a = before.model_dump(mode="json"), after.model_dump(mode="json")
    keys = [k for k in a if k != "id" and a[k] != b.get(k)]
    return {k: b.get(k) for k in keys}, {k: a[k] for k in keys}


def request_change(work: Work, event: EventRecord, player: Player, changed: Player, why: str, note: str) -> int:
    """Keep a change to a registered player for the chief referee instead of saving it."""
    before, after = _changed_fields(player, changed)
    for old in change_rows.list_changes(work.session, event.id, status="pending"):
        if old.player_id == int(player.id) and old.after == after:
            return old.id  # the same change asked again: still the one waiting
    saved = change_rows.add_change(work.session, work.repo.stamp, event.id, int(player.id), before, after, why, note)
    work.emit("player_change_requested", event.id, change=saved.id, player=player.id, why=why)
    return saved.id


def _open_entry(
    work: Work,
    event: EventRecord,
    regulation: Regulation,
    player: Player,
    division: str,
    stage: str,
    fee_paid: bool | None,
    note: str,
) -> Entry:
    reasons = eligibility_texts(regulation, player, division)
    approve = not reasons and not _needs_approval(regulation, division)
    entry = Entry(
        player_id=player.id,
        division=division,
        stage=stage,
        status=EntryStatus.APPROVED if approve else EntryStatus.PENDING,
        fee_due=fee_for(regulation, division, stage),
        fee_paid=bool(fee_paid),
        reasons=_rendered(reasons),
    )
    saved = work.repo.add_entry(event.id, entry, note, reasons=reasons)
    work.emit("entry_created", event.id, entry=saved.id, division=division,
              status=saved.status.value)
    return saved


LIVE = (EntryStatus.PENDING, EntryStatus.APPROVED)


def late_note(reason: str) -> Text:
    """How a late admission reads in the entry list and the audit (逾期报名, with the reason)."""
    return Text(f"逾期报名 (裁判长批准: {reason.strip()})", f"late entry (admitted by the chief referee: {reason.strip()})")


def mark_late(work: Work, entry: Entry, reason: str) -> Entry:
    """Record on the entry that the chief referee admitted it after the deadline (entry list, audit)."""
    return work.repo.update_entry(entry.model_copy(update={"note": late_note(reason).zh}), "late", reason.strip())


def _window_waived(work: Work, regulation: Regulation, division: str, late: bool) -> bool:
    """The entry window's check; a closed window is waived (True) for a late admission."""
    try:
        _check_entry_window(work, regulation, division)
    except Refused:
        if not late:
            raise
        return True
    return False


def _require_late_admission(work: Work, reason: str) -> None:
    """Only the chief referee (the roles that approve entries) admits late, and says why."""
    work.require(Action.APPROVE)
    if not reason.strip():
        raise InputError(Text("逾期报名须写明理由 (裁判长批准的依据)", "a late entry needs the reason it is admitted"),
                         code="note_required", hint=Hint.NOTE)


def _window_bounds(w: RegistrationWindow) -> tuple[datetime | None, datetime | None]:
    """A date opens at 00:00 and closes at the end of its day (规程: 报名截止3月20日)."""
    opens = w.opens if isinstance(w.opens, datetime) or w.opens is None else datetime.combine(w.opens, time(0, 0))
    closes = w.closes
    if closes is not None and not isinstance(closes, datetime):
        closes = datetime.combine(closes, time(23, 59, 59))
    elif closes is not None and closes.time() == time(0, 0):
        closes = datetime.combine(closes.date(), time(23, 59, 59))
    return opens, closes


def _check_entry_window(work: Work, regulation: Regulation, division: str) -> None:
    """报名时间 (``registration.windows`` with ``enforce``): an entry outside it is refused with
    the regulation's dates and the time now (the services' clock)."""
    now = work.now
    for w in regulation.registration.windows:
        if not w.enforce or (w.divisions and division not in w.divisions):
            continue
        opens, closes = _window_bounds(w)
        name = _division_name(regulation, division)
        if closes is not None and now > closes:
            raise Refused(
                Text(f"{name}报名已于{closes:%Y-%m-%d %H:%M}截止 (规程: {w.who}报名截止{closes:%Y-%m-%d %H:%M}); "
                     f"现在是{now:%Y-%m-%d %H:%M}",
                     f"entries to {name} closed at {closes:%Y-%m-%d %H:%M}; it is now {now:%Y-%m-%d %H:%M}"),
                code="registration_closed", params={"closes": f"{closes:%Y-%m-%d %H:%M}",
                                                    "now": f"{now:%Y-%m-%d %H:%M}"})
        if opens is not None and now < opens:
            raise Refused(
                Text(f"{name}报名尚未开始: {opens:%Y-%m-%d %H:%M}起接受报名; 现在是{now:%Y-%m-%d %H:%M}",
                     f"entries to {name} open at {opens:%Y-%m-%d %H:%M}; it is now {now:%Y-%m-%d %H:%M}"),
                code="registration_not_open", params={"opens": f"{opens:%Y-%m-%d %H:%M}",
                                                      "now": f"{now:%Y-%m-%d %H:%M}"})


def _check_one_live_entry(work: Work, event: EventRecord, regulation: Regulation, player: Player,
                          division: str, stage: str) -> None:
    """One live (pending or approved) entry per player and stage (规程: 每人限报一个组别)."""
    for other in work.repo.list_entries(event.id, player_id=player.id, stage=stage, status=LIVE):
        if other.division != division:
            name = _division_name(regulation, other.division)
            raise Refused(
                Text(f"{player.name}已报名{name} (报名{other.id}, {other.status.label}); "
                     f"每人限报一个组别, 如需改报请先撤回该报名",
                     f"{player.name} already holds entry {other.id} in {name}; one division per "
                     "player: withdraw that entry first"),
                code="second_live_entry", params={"entry": other.id, "division": other.division},
            )


def list_players(work: Work, event: EventRecord, *, division: str | None = None) -> list[PlayerView]:
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division) if division else None
    entries: dict[str, list[Entry]] = {}
    for e in work.repo.list_entries(event.id, division=division_id):
        entries.setdefault(e.player_id, []).append(e)
    team_of = _team_names(work, event)
    return [
        PlayerView(p, tuple(entries.get(p.id, ())), team_of.get(p.id))
        for p in work.repo.list_players(event.id)
        if division_id is None or p.id in entries
    ]


def _team_names(work: Work, event: EventRecord) -> dict[str, str]:
    return {m.player_id: t.name for t in work.repo.list_teams(event.id) for m in t.members}


def list_entries(
    work: Work,
    event: EventRecord,
    *,
    division: str | None = None,
    status: EntryStatus | Iterable[EntryStatus] | None = None,
) -> list[EntryView]:
    """Entries with the players; a pending entry shows the reasons that hold now (player data
    may have been corrected since it was registered), not the ones stored back then."""
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division) if division else None
    players = work.repo.players_by_id(event.id)
    team_of = _team_names(work, event)
    out = []
    for e in work.repo.list_entries(event.id, division=division_id, status=status):
        player = players[e.player_id]
        if e.status is EntryStatus.PENDING:
            e = e.model_copy(update={"reasons": tuple(eligibility_reasons(regulation, player, e.division))})
        out.append(EntryView(e, player, _division_name(regulation, e.division), team_of.get(e.player_id)))
    return out


def approved_players(work: Work, event: EventRecord, division: str, stage: str = "") -> list[Player]:
    """The players who may be paired in a division (and stage): approved entries only."""
    players = work.repo.players_by_id(event.id)
    return [
        players[e.player_id]
        for e in work.repo.list_entries(
            event.id, division=division, stage=stage, status=EntryStatus.APPROVED
        )
    ]


# ------------------------------------------------------------------ decisions


def _entry_for_change(work: Work, entry_id: str | int, target: EntryStatus) -> tuple[Entry, EventRecord]:
    try:
        entry = work.repo.get_entry(entry_id)
        event = work.repo.get_event(work.repo.entry_event(entry_id))
    except NotFound as exc:
        raise InputError(exc.text, code="entry_not_found", params={"entry": str(entry_id)}) from None
    work.check_event(event.id)
    if target not in TRANSITIONS[entry.status]:
        raise InputError(
            Text(f"报名{entry.id}当前状态为{entry.status.label}, 不能改为{target.label}",
                 f"entry {entry.id} is {entry.status.value}; it cannot become {target.value}"),
            code="bad_transition",
            params={"entry": entry.id, "status": entry.status.value, "target": target.value},
        )
    return entry, event


def approve_entry(work: Work, entry_id: str | int, *, force: bool = False, note: str = "") -> Entry:
    """Approve after re-checking eligibility; with reasons, only ``force`` and a note will do."""
    work.require(Action.APPROVE)
    entry, event = _entry_for_change(work, entry_id, EntryStatus.APPROVED)
    regulation = regulation_of(event)
    player = work.repo.get_player(entry.player_id)
    reasons = eligibility_texts(regulation, player, entry.division) + _team_texts(work, event, regulation, player)
    division_name = _division_name(regulation, entry.division)
    label = f"报名{entry.id}({player.name}, {division_name})"
    label_en = f"entry {entry.id} ({player.name}, {division_name})"
    params = {"entry": entry.id, "division": entry.division}
    if reasons and not force:
        raise Refused(
            Text(f"{label}不符合参赛资格, 未批准", f"{label_en} is not eligible: not approved"),
            reasons, code="ineligible", params=params, hint=Hint.FORCE_APPROVE,
        )
    if reasons and not note.strip():
        raise InputError(Text(f"强制批准{label}须写明理由",
                              f"forcing the approval of {label_en} needs a note giving the reason"),
                         code="note_required", params=params, hint=Hint.NOTE)
    updated = entry.model_copy(
        update={
            "status": EntryStatus.APPROVED,
            "reasons": _rendered(reasons),
            "forced": bool(reasons),
            "note": note.strip() or entry.note,
        }
    )
    saved = work.repo.update_entry(updated, "force-approve" if reasons else "approve", note.strip(),
                                   reasons=reasons)
    work.emit("entry_approved", event.id, entry=saved.id, forced=bool(reasons))
    return saved


def _team_texts(work: Work, event: EventRecord, regulation: Regulation, player: Player) -> list[Text]:
    """Reasons the player's team breaks the regulation's team make-up (min_women), for approval."""
    rules = regulation.teams
    if rules is None or rules.min_women is None:
        return []
    team = next((t for t in work.repo.list_teams(event.id) if any(m.player_id == player.id for m in t.members)), None)
    if team is None:
        return []
    players = work.repo.players_by_id(event.id)
    return texts(lambda: composition_reasons(team, players, rules))


def approve_all_eligible(work: Work, event: EventRecord, *, note: str = "") -> tuple[list[Entry], list[EntryView]]:
    """Approve every pending entry that meets every rule now (报名审核: 批量通过); the others
    stay pending and are returned with their current reasons."""
    work.require(Action.APPROVE)
    work.check_event(event.id)
    approved, left = [], []
    for view in list_entries(work, event, status=EntryStatus.PENDING):
        if view.entry.reasons:
            left.append(view)
            continue
        try:
            approved.append(approve_entry(work, view.entry.id, note=note))
        except Refused:  # a reason that is not the entry's own (its team's make-up): stays pending
            left.append(view)
    return approved, left


def reject_entry(work: Work, entry_id: str | int, reason: str) -> Entry:
    work.require(Action.APPROVE)
    if not reason.strip():
        raise InputError(Text("不予批准须写明理由", "a rejection needs a reason"),
                         code="reason_required", hint=Hint.REASON)
    entry, event = _entry_for_change(work, entry_id, EntryStatus.REJECTED)
    updated = entry.model_copy(
        update={"status": EntryStatus.REJECTED, "note": reason.strip(), "forced": False}
    )
    saved = work.repo.update_entry(updated, "reject", reason.strip())
    work.emit("entry_rejected", event.id, entry=saved.id)
    return saved


def withdraw_entry(work: Work, entry_id: str | int, reason: str = "") -> Entry:
    work.require(Action.REGISTER)
    entry, event = _entry_for_change(work, entry_id, EntryStatus.WITHDRAWN)
    work.check_event(event.id)
    check_may_change_player(work, event, work.repo.get_player(entry.player_id))
    updated = entry.model_copy(update={"status": EntryStatus.WITHDRAWN, "note": reason.strip() or entry.note})
    saved = work.repo.update_entry(updated, "withdraw", reason.strip())
    work.emit("entry_withdrawn", event.id, entry=saved.id)
    return saved


def set_fee_paid(work: Work, entry_id: str | int, paid: bool = True, note: str = "") -> Entry:
    work.require(Action.APPROVE)
    try:
        entry = work.repo.get_entry(entry_id)
        work.check_event(work.repo.entry_event(entry_id))
    except NotFound as exc:
        raise InputError(exc.text, code="entry_not_found", params={"entry": str(entry_id)}) from None
    return work.repo.update_entry(entry.model_copy(update={"fee_paid": paid}), "fee", note)


def recheck_entries(work: Work, event: EventRecord) -> int:
    """Refresh the reasons of undecided entries (after player data changed); returns how many changed."""
    work.require(Action.REGISTER)
    work.check_event(event.id)
    regulation = regulation_of(event)
    changed = 0
    for entry in work.repo.list_entries(event.id, status=EntryStatus.PENDING):
        player = work.repo.get_player(entry.player_id)
        reasons = eligibility_texts(regulation, player, entry.division)
        if reasons != work.repo.entry_reasons(entry.id):
            work.repo.update_entry(entry.model_copy(update={"reasons": _rendered(reasons)}), "check",
                                   reasons=reasons)
            changed += 1
    return changed


# ------------------------------------------------------------------ teams


def team_rules(regulation: Regulation) -> TeamRules:
    if regulation.teams is None:
        raise InputError(
            Text(f"规程“{regulation.name}”没有代表队(团体)规定, 不能登记队伍",
                 f"regulation “{regulation.name}” has no team rules: teams cannot be registered"),
            code="no_team_rules",
        )
    return regulation.teams


def auto_slot(rules: TeamRules, division: str | None, gender: Gender, taken: Iterable[str]) -> str | None:
    """The free slot whose division and gender fit (seed 002: 甲组男 for a boy entered in 甲组)."""
    used = set(taken)
    for slot in rules.slots:
        if slot.label in used:
            continue
        if (slot.division in (None, division)) and (slot.gender in (None, gender)):
            return slot.label
    return None


def _resolve_player(work: Work, event: EventRecord, ref: str) -> Player:
    text = ref.strip()
    if len(text) == 18:
        found = work.repo.find_player(event.id, id_number=normalise(text))
        if found:
            return found
    if text.isdigit():
        try:
            p = work.repo.get_player(text)
            if work.repo.player_event(text) == event.id:
                return p
        except NotFound:
            pass
    raise InputError(
        Text(f"找不到棋手“{ref}”", f"no player “{ref}”"),
        code="unknown_player", params={"player": ref}, hint=Hint.LIST_PLAYERS,
    )


def team_composition_texts(work: Work, event: EventRecord, team: Team) -> list[Text]:
    """Reasons ``team`` (as it would be saved) breaks the regulation's team rules, as of now, in
    both languages, as they are stored with the team."""
    regulation = regulation_of(event)
    rules = team_rules(regulation)
    others = [t for t in work.repo.list_teams(event.id) if t.name != team.name]
    players = work.repo.players_by_id(event.id)
    at = work.now
    return texts(lambda: check_team(team, players, rules, regulation, other_teams=others, at=at))


def _with_divisions(work: Work, event: EventRecord, members: Sequence[TeamMember]) -> tuple[TeamMember, ...]:
    out = []
    for m in members:
        if m.division is None:
            entries = work.repo.list_entries(
                event.id, player_id=m.player_id,
                status=(EntryStatus.PENDING, EntryStatus.APPROVED),
            )  # fmt: skip
            m = m.model_copy(update={"division": entries[0].division if entries else None})
        out.append(m)
    return tuple(out)


def add_team(
    work: Work,
    event: EventRecord,
    team: Team,
    members: Sequence[tuple[str, str | None]] = (),
    *,
    force: bool = False,
    note: str = "",
) -> TeamView:
    """Register a team; ``members`` are (player number or ID number, slot or None for automatic)."""
    work.require(Action.REGISTER)
    work.check_event(event.id)
    rules = team_rules(regulation_of(event))
    if work.repo.find_team(event.id, team.name):
        raise InputError(Text(f"队名“{team.name}”已存在", f"a team named “{team.name}” already exists"),
                         code="team_exists", params={"team": team.name})
    claim_teams(work, 1)
    seated: list[TeamMember] = []
    for ref, slot in members:
        player = _resolve_player(work, event, ref)
        check_may_change_player(work, event, player)
        seated.append(TeamMember(player_id=player.id, slot=slot))
    seated = list(_with_divisions(work, event, seated))
    seated = _enter_members(work, event, rules, seated, note)
    players = work.repo.players_by_id(event.id)
    notes: list[str] = []
    seated = _as_individuals(work, event, notes, rules, team.name, seated, players, ())
    seated = _fill_slots(rules, seated, players)
    candidate = team.model_copy(update={"members": tuple(seated)})
    view = _save_team(work, event, candidate, force=force, note=note)
    return replace(view, notes=tuple(notes))


def _enter_members(work: Work, event: EventRecord, rules: TeamRules, members: list[TeamMember],
                   note: str) -> list[TeamMember]:
    """A named member with no entry yet is entered, as `player add --division` would enter him
    (eligibility, approval, the window, one live entry), in the division his slot names or the
    event's only division: a team of players without entries would never be paired."""
    regulation = regulation_of(event)
    slot_division = {s.label: s.division for s in rules.slots if s.division}
    only = regulation.divisions[0].id if len(regulation.divisions) == 1 else None
    stage = resolve_stage(regulation, "")
    out = []
    for m in members:
        division = m.division or slot_division.get(m.slot or "") or only
        if m.division is None and division is not None:
            player = work.repo.get_player(m.player_id)
            _check_entry_window(work, regulation, division)
            _check_one_live_entry(work, event, regulation, player, division, stage)
            entry = _open_entry(work, event, regulation, player, division, stage, None, note)
            m = m.model_copy(update={"division": entry.division})
        out.append(m)
    return out


def _fill_slots(rules: TeamRules, members: list[TeamMember], players: dict[str, Player]) -> list[TeamMember]:
    if not rules.slots:
        return members
    taken = [m.slot for m in members if m.slot]
    out = []
    for m in members:
        if m.slot is None:
            slot = auto_slot(rules, m.division, players[m.player_id].gender, taken)
            if slot:
                taken.append(slot)
                m = m.model_copy(update={"slot": slot})
        out.append(m)
    return out


def _save_team(work: Work, event: EventRecord, team: Team, *, force: bool, note: str) -> TeamView:
    reasons = team_composition_texts(work, event, team)
    if reasons and not force:
        raise Refused(Text(f"队伍“{team.name}”不符合组队规定, 未登记",
                           f"team “{team.name}” breaks the team composition rules: not registered"),
                      reasons, code="team_composition", params={"team": team.name})
    if reasons:
        work.require(Action.APPROVE)  # forcing a team past the rules is the chief referee's call
    if reasons and not note.strip():
        raise _team_note_required(team.name)
    try:
        saved = work.repo.add_team(event.id, team, reasons, note.strip())
    except (Conflict, NotFound) as exc:
        raise InputError(exc.text, code="team_not_saved", params={"team": team.name}) from None
    bind_new_team(work, event, int(saved.id))
    players = work.repo.players_by_id(event.id)
    work.emit("team_added", event.id, team=saved.id, name=saved.name, forced=bool(reasons))
    return TeamView(saved, tuple(players[m.player_id] for m in saved.members), _rendered(reasons))


def claim_teams(work: Work, new: int) -> None:
    """One 领队 account registers one team, unless the operator allows it more (``max_teams``)."""
    actor = work.actor
    if actor.role is not Role.TEAM_LEADER or new <= 0:
        return
    have = len(actor.own_teams)
    if have + new > actor.max_teams:
        raise Refused(Text(f"本账号已登记{have}支队伍, 最多可登记{actor.max_teams}支; 每个领队账号对应一支队伍, "
                           "如需多登记请联系运营",
                           f"this account has registered {have} team(s) of the {actor.max_teams} it may: one team "
                           "per leader account unless the operator allows more"),
                      code="one_team_per_leader", params={"have": have, "max": actor.max_teams, "new": new})


def bind_new_team(work: Work, event: EventRecord, team_id: int) -> None:
    """A team a 领队 account registered is its own from then on (papers, players, line-ups)."""
    if work.actor.role is not Role.TEAM_LEADER or not work.actor.id.isdigit():
        return
    user_id = int(work.actor.id)
    account_rows.set_team_account(work.session, team_id, user_id)
    if work.actor.team is None:
        work.repo.set_user_team(user_id, team_id, event.id)


def _leader_rows(work: Work, event: EventRecord, roster: Roster) -> None:
    """A team leader's file names the own team(s) only, on every row; a row naming another team
    (or a player of another team) refuses the whole file, with the row."""
    problems: list[Text] = []
    new: list[str] = []
    for r in roster.rows:
        where = Text(f"{r.sheet} 第{r.row}行", f"{r.sheet} row {r.row}")
        if not r.team:
            problems.append(Text(f"{where.zh}: 缺少队名 (领队只登记本队棋手, 每行须填写本队队名)",
                                 f"{where.en}: no team name (a team leader registers the own team's players only)"))
            continue
        team = work.repo.find_team(event.id, r.team)
        if team is not None and not work.actor.leads(team.id):
            problems.append(Text(f"{where.zh}: 队伍“{r.team}”不是本账号的队伍",
                                 f"{where.en}: team {r.team} is not this account's team"))
            continue
        if team is None and r.team not in new:
            new.append(r.team)
        existing = find_existing_player(work, event, r.player)
        other = team_of_player(work, event, existing.id) if existing is not None else None
        if other is not None and not work.actor.leads(other.id):
            problems.append(Text(f"{where.zh}: {existing.name if existing else ''}是{other.name}的队员, 不是本队棋手",
                                 f"{where.en}: {existing.name if existing else ''} plays for {other.name}"))
    if problems:
        raise Forbidden(Text(f"报名表有{len(problems)}行涉及其他队伍, 未导入任何数据; 领队只能登记本队",
                             f"{len(problems)} row(s) of the file concern other teams; nothing imported: a team "
                             "leader registers the own team only"),
                        problems, code="not_own_team")
    claim_teams(work, len(new))


def _team_note_required(name: str) -> InputError:
    return InputError(Text(f"强制登记队伍“{name}”须写明理由",
                           f"forcing the registration of team “{name}” needs a note giving the reason"),
                      code="note_required", params={"team": name}, hint=Hint.NOTE)


def list_teams(work: Work, event: EventRecord) -> list[TeamView]:
    players = work.repo.players_by_id(event.id)
    return [
        TeamView(t, tuple(players[m.player_id] for m in t.members), tuple(work.repo.team_reasons(t.id)))
        for t in work.repo.list_teams(event.id)
    ]


def replace_team_member(work: Work, event: EventRecord, team_ref: str | int, out_ref: str,
                        in_ref: str, *, note: str) -> TeamView:
    """递补: a registered player takes a team member's seat (same slot, same division), with a
    note in the audit; the team's composition is checked again and its findings kept."""
    work.require(Action.APPROVE)
    work.check_event(event.id)
    if not note.strip():
        raise InputError(Text("递补须写明理由", "a replacement needs a note giving the reason"),
                         code="note_required", hint=Hint.NOTE)
    try:
        team = work.repo.get_team(team_ref) if str(team_ref).isdigit() else work.repo.find_team(event.id, str(team_ref))
    except NotFound as exc:
        raise InputError(exc.text, code="unknown_team") from None
    if team is None:
        raise InputError(Text(f"找不到队伍“{team_ref}”", f"no team {team_ref!r}"), code="unknown_team")
    out_player = _resolve_player(work, event, out_ref)
    in_player = _resolve_player(work, event, in_ref)
    seat = next((m for m in team.members if m.player_id == out_player.id), None)
    if seat is None:
        raise InputError(Text(f"{out_player.name}不是{team.name}的队员", f"{out_player.name} is not in {team.name}"),
                         code="not_a_member")
    if any(m.player_id == in_player.id for t in work.repo.list_teams(event.id) for m in t.members):
        raise Refused(Text(f"{in_player.name}已在一支队中", f"{in_player.name} is already in a team"),
                      code="already_in_team")
    if seat.division:
        live = [e for e in work.repo.list_entries(event.id, division=seat.division)
                if e.player_id == in_player.id and e.status in LIVE]
        if not live:
            regulation = regulation_of(event)
            name = _division_name(regulation, seat.division)
            raise Refused(Text(f"{in_player.name}没有{name}的有效报名, 不能递补该席位",
                               f"{in_player.name} has no live entry in {name}: cannot take this seat"),
                          code="no_entry_for_seat")
    try:
        saved = work.repo.replace_team_member(team.id, out_player.id, in_player.id, note.strip())
    except NotFound as exc:
        raise InputError(exc.text, code="bad_replacement") from None
    regulation = regulation_of(event)
    others = [t for t in work.repo.list_teams(event.id) if t.name != saved.name]
    players = work.repo.players_by_id(event.id)
    # The registration window does not bind a 递补 made at the venue; every other rule does.
    reasons = texts(lambda: check_team(saved, players, team_rules(regulation), regulation,
                                       other_teams=others))
    work.emit("team_member_replaced", event.id, team=saved.id, out=out_player.id, into=in_player.id)
    return TeamView(saved, tuple(players[m.player_id] for m in saved.members),
                    tuple(r.render() for r in reasons))


# ------------------------------------------------------------------ roster import


def import_roster(
    work: Work,
    event: EventRecord,
    data: bytes | Roster,
    filename: str = "",
    *,
    require_team: bool = False,
    force: bool = False,
    note: str = "",
    late: bool = False,
) -> ImportReport:
    """Import a roster (the file's bytes and name, or rows already parsed) in one go: any bad
    row, or any team breaking its rules, saves nothing. ``late`` waives the registration
    deadline alone (the chief referee's 逾期报名, ``note`` the reason); ``force`` waives every rule.

    Importing the same file again finds everyone already there and adds nobody.
    """
    work.require(Action.REGISTER)
    work.check_event(event.id)
    regulation = regulation_of(event)
    roster = data if isinstance(data, Roster) else read_roster_bytes(data, filename, regulation)
    path = Path(filename or "roster")
    issues: list[str | Text] = [str(i) for i in roster.issues]
    if require_team:
        issues += [
            Text(f"{r.sheet} 第{r.row}行: 缺少队名, 导入队伍时每行都须填写“队名”",
                 f"{r.sheet} row {r.row}: no team name; importing teams, every row needs “队名”")
            for r in roster.rows
            if not r.team
        ]
    if any(r.team for r in roster.rows) and regulation.teams is None:
        issues.append(Text(f"规程“{regulation.name}”没有代表队规定, 请删除“队名”列",
                           f"regulation “{regulation.name}” has no team rules: delete the “队名” column"))
    if issues:
        raise InputError(
            Text(f"{path.name} 有{len(issues)}处错误, 未导入任何数据",
                 f"{path.name} has {len(issues)} error(s); nothing imported"),
            issues, code="bad_roster", params={"file": path.name},
        )
    if force:
        work.require(Action.APPROVE)
        work.check_event(event.id)
    if late:
        _require_late_admission(work, note)
    if work.actor.role is Role.TEAM_LEADER:
        _leader_rows(work, event, roster)
    report = ImportReport(rows=len(roster.rows), warnings=list(roster.warnings))
    registered: list[tuple[RosterRow, Registered]] = []
    for row in roster.rows:
        reg = register_player(
            work, event, row.player, division=row.division, stage=row.stage,
            fee_paid=row.fee_paid, note=note, late=late,
        )  # fmt: skip
        registered.append((row, reg))
        report.players_created += reg.player_created
        report.players_updated += not reg.player_created and reg.change_pending is None
        report.changes_pending += reg.change_pending is not None
        if reg.entry_created and reg.entry is not None:
            report.entries_created += 1
            if reg.entry.status is EntryStatus.PENDING:
                report.entries_pending += 1
            if reg.entry.reasons:  # as read back: in the caller's language
                name = _division_name(regulation, reg.entry.division)
                report.ineligible += [f"{reg.player.name}({name}): {r}" for r in reg.entry.reasons]
    _import_teams(work, event, regulation, registered, report, force=force, note=note, late=late)
    work.emit("roster_imported", event.id, rows=report.rows, created=report.entries_created)
    return report


def _import_teams(
    work: Work,
    event: EventRecord,
    regulation: Regulation,
    registered: list[tuple[RosterRow, Registered]],
    report: ImportReport,
    *,
    force: bool,
    note: str,
    late: bool = False,
) -> None:
    by_team: dict[str, list[tuple[RosterRow, Registered]]] = {}
    for row, reg in registered:
        if row.team:
            by_team.setdefault(row.team, []).append((row, reg))
    if not by_team:
        return
    rules = team_rules(regulation)
    problems: list[Text] = []
    # A closed registration window is the same reason for every team: said once, not per team.
    closed = set(texts(lambda: window_reasons(work.now, rules)))
    shared: dict[Text, list[str]] = {}
    for name, rows in by_team.items():
        existing = work.repo.find_team(event.id, name)
        have = {m.player_id for m in existing.members} if existing else set()
        new_members = [
            TeamMember(player_id=reg.player.id, slot=row.slot, division=row.division)
            for row, reg in rows
            if reg.player.id not in have
        ]
        players = work.repo.players_by_id(event.id)
        new_members = _as_individuals(work, event, report.warnings, rules, name, new_members,
                                      players, existing.members if existing else ())
        if existing is not None and not new_members:
            continue
        base = existing or _team_from_rows(name, [r for r, _ in rows])
        filled = _fill_slots(rules, [*base.members, *new_members], players)
        candidate = base.model_copy(update={"members": tuple(filled)})
        reasons = team_composition_texts(work, event, candidate)
        waived = late and any(r in closed for r in reasons)
        if waived:  # the chief referee admits the team after the deadline: that reason alone goes
            reasons = [r for r in reasons if r not in closed]
        if reasons and not force:
            rows_text = "、".join(str(r.row) for r, _ in rows)
            rows_en = ", ".join(str(r.row) for r, _ in rows)
            for r in reasons:
                if r in closed:
                    shared.setdefault(r, []).append(name)
                else:
                    problems.append(Text(f"{name}(第{rows_text}行): {r.zh}",
                                         f"{name} (rows {rows_en}): {r.en}"))
            continue
        if reasons and not note.strip():
            raise _team_note_required(name)
        if waived:
            reasons = [*reasons, late_note(note)]  # kept with the team: why it came after the deadline
            for _row, reg in rows:
                if reg.entry_created and reg.entry is not None and not reg.entry.note:
                    mark_late(work, reg.entry, note)
        if existing is None:
            made = work.repo.add_team(event.id, candidate, reasons, note.strip())
            bind_new_team(work, event, int(made.id))
            report.teams_created += 1
            report.members_added += len(candidate.members)
        else:
            added = [m for m in filled if m.player_id not in have]
            for m in added:
                work.repo.add_team_member(existing.id, m, note.strip())
            report.members_added += len(added)
    only_late = bool(shared) and not problems  # every team failed on the closed window alone
    problems[:0] = [Text(f"{r.zh} (涉及{len(teams)}支队: {'、'.join(teams)})",
                         f"{r.en} ({len(teams)} teams: {', '.join(teams)})")
                    for r, teams in shared.items()]
    if problems:
        raise Refused(
            Text("以下队伍不符合组队规定, 未导入任何数据",
                 "these teams break the team composition rules; nothing imported"),
            problems, code="team_composition", hint=Hint.LATE_IMPORT if only_late else Hint.FORCE_IMPORT,
        )


def _as_individuals(
    work: Work, event: EventRecord, notes: list[str], rules: TeamRules, team_name: str,
    members: list[TeamMember], players: Mapping[str, Player], already: Sequence[TeamMember],
) -> list[TeamMember]:
    """不足或超过可以以个人名义参赛: the members the team keeps; the others keep their individual
    entries, each with a note in ``notes`` and in the audit."""
    split = split_extra_players(members, players, rules, team_name=team_name, already=already)
    for ind in split.individuals:
        notes.append(ind.note)
        work.repo.audit(event.id, "individual", "player", ind.member.player_id, None,
                        {"team": team_name, "plays": "individual"}, ind.note)
    return list(split.team)


def _team_from_rows(name: str, rows: list[RosterRow]) -> Team:
    def common(values: Iterable[str | None]) -> str | None:
        counted = Counter(v for v in values if v)
        return counted.most_common(1)[0][0] if counted else None

    leaders = tuple(dict.fromkeys(n for r in rows for n in r.leaders))
    coaches = tuple(dict.fromkeys(n for r in rows for n in r.coaches))
    return Team(
        name=name,
        region=common(r.player.region for r in rows),
        province=common(r.player.province for r in rows),
        city=common(r.player.city for r in rows),
        leaders=leaders,
        coaches=coaches,
    )


def row_from_fields(
    regulation: Regulation, fields: dict[str, str | None], labels: dict[str, str] | None = None
) -> RosterRow:
    """One player typed in by hand (CLI, web form), validated exactly like a roster row.

    ``fields`` are keyed by roster header (姓名, 性别 …); ``labels`` name the input each header
    came from (e.g. 性别 → --gender) so messages point at what the user typed.
    """
    # 姓名 is always a column, so a row typed without a name says "姓名: 姓名不能为空" (not
    # "no header row", which speaks of files).
    headers = [h for h, v in fields.items() if v not in (None, "") or h == "姓名"]
    if "姓名" not in headers:
        headers.insert(0, "姓名")
        fields = {**fields, "姓名": None}
    sheet = Sheet("输入", [headers, [fields[h] for h in headers]])
    roster = parse_sheets([sheet], regulation)
    labels = labels or {}

    def problem(issue: RosterIssue) -> str:
        if issue.header:
            return f"{labels.get(issue.header, issue.header)}: {issue.message}"
        if issue.missing and all(h in labels for h in issue.missing):  # the inputs, not sheet columns
            names = [labels[h] for h in issue.missing]
            return tr(f"须给出 {' 或 '.join(names)}", f"give {' or '.join(names)}")
        return issue.message

    problems = [problem(i) for i in roster.issues]
    if problems or not roster.rows:
        raise InputError(Text("输入有误, 未保存", "the input has errors; nothing saved"),
                         problems or [Text("缺少姓名", "the name is missing")], code="bad_player_input")
    return roster.rows[0]
