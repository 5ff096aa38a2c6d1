"""Entries (报名): entering a player in a division and stage, and the entry lists.

An entry needing no approval and meeting every rule is approved at once; anything else waits
for the director (``approvals``) with its reasons (``eligibility``). A player holds one live
entry per stage, and an entry outside the registration window is refused unless the chief
referee admits it late (``registration_window``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.fees import fee_for
from yisai.registry.idcard import normalise
from yisai.registry.person import Player
from yisai.registry.team import TeamMember
from yisai.regulation import Regulation
from yisai.regulation.teams import TeamRules
from yisai.services import capacity, fees
from yisai.services.context import Refused, Work
from yisai.services.eligibility import (
    LIVE,
    division_name,
    eligibility_texts,
    members_of,
    needs_approval,
)
from yisai.services.event_data import team_of
from yisai.services.events import regulation_of, resolve_division, resolve_stage
from yisai.services.identity import Action
from yisai.services.players import (
    change_needs_approval,
    find_existing_player,
    merge_player,
    request_change,
)
from yisai.services.registration import check_may_change_player
from yisai.services.registration_window import (
    _check_entry_window,
    mark_late,
    require_late_admission,
    window_waived,
)
from yisai.store import EventRecord, entry_rows, player_rows, roster_rows


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
    team_row: bool = False,
) -> Registered:
    """Add or update a player (matched on ID number, else name + birth date) and enter him.

    ``late``: the chief referee admits the entry after the registration deadline (逾期报名) or
    over the regulation's limit of entries (限报N名, ``capacity``), with ``note`` as the reason;
    only the window and the limit are waived, every other rule still applies.
    ``team_row``: a roster row of a team, whose deadline the import checks for the team.

    ``division``/``stage`` are ids or names. The entry is approved at once when the division
    needs no approval and no eligibility rule fails; otherwise it waits, with its reasons.
    A player holds one live entry per stage: entering a second division is refused until the
    first entry is withdrawn.
    """
    work.require(Action.REGISTER)
    work.check_event(event.id)
    if late:
        require_late_admission(work, note)
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division) if division else None
    stage_id = resolve_stage(regulation, stage)
    if player.id_number:
        player = player.model_copy(update={"id_number": normalise(player.id_number)})
    existing = find_existing_player(work, event, player)
    created = existing is None
    pending: int | None = None
    if existing is None:
        saved = player_rows.add_player(work.session, work.stamp, event.id, player.model_copy(update={"id": ""}))
    else:
        check_may_change_player(work, event, existing)
        merged = merge_player(existing, player)
        saved = existing
        if merged != existing:
            why = change_needs_approval(work, event, regulation, existing)
            if why is None:
                saved = player_rows.update_player(work.session, work.stamp, merged, note)
            else:
                pending = request_change(work, event, existing, merged, why, note)
    entry, entry_created = None, False
    if division_id is not None:
        entry = entry_rows.find_entry(work.session, saved.id, division_id, stage_id)
        if entry is None:
            team_only = "open" not in regulation.division(division_id).eligibility.routes
            waived = window_waived(work, regulation, division_id, late, in_team=team_only,
                                   deadline=not team_row)
            _check_one_live_entry(work, event, regulation, saved, division_id, stage_id)
            full, waiting = capacity.check_places(work, event.id, regulation, division_id, stage_id, late)
            entry = _open_entry(work, event, regulation, saved, division_id, stage_id, fee_paid, note,
                                () if waiting is None else (waiting,))
            if waived:
                entry = mark_late(work, entry, note)
            if full is not None and late:
                entry = capacity.mark_over(work, entry, note)
            entry_created = True
        elif fee_paid is not None and entry.fee_paid != fee_paid:
            fees.record_manual(work, event.id, entry, fee_paid, note)
            entry = entry_rows.update_entry(work.session, work.stamp,
                                            entry.model_copy(update={"fee_paid": fee_paid}), "fee", note)
    return Registered(saved, entry, created, entry_created, pending)


def _open_entry(
    work: Work,
    event: EventRecord,
    regulation: Regulation,
    player: Player,
    division: str,
    stage: str,
    fee_paid: bool | None,
    note: str,
    waiting: tuple[Text, ...] = (),
) -> Entry:
    reasons = [*eligibility_texts(regulation, player, division, members_of(event)), *waiting]
    approve = not reasons and not needs_approval(regulation, division)
    entry = Entry(
        player_id=player.id,
        division=division,
        stage=stage,
        status=EntryStatus.APPROVED if approve else EntryStatus.PENDING,
        fee_due=fee_for(regulation, division, stage),
        fee_paid=bool(fee_paid),
        reasons=tuple(reasons),
    )
    saved = entry_rows.add_entry(work.session, work.stamp, event.id, entry, note)
    if fee_paid:
        fees.record_manual(work, event.id, saved, True, note)  # 已缴费 on the form: a manual payment
    work.emit("entry_created", event.id, entry=saved.id, division=division,
              status=saved.status.value)
    return saved


def _check_one_live_entry(work: Work, event: EventRecord, regulation: Regulation, player: Player,
                          division: str, stage: str) -> None:
    """One live (pending or approved) entry per player and stage (规程: 每人限报一个组别)."""
    for other in roster_rows.list_entries(work.session, event.id, player_id=player.id, stage=stage, status=LIVE):
        if other.division != division:
            name = division_name(regulation, other.division)
            raise Refused(
                Text(f"{player.name}已报名{name} (报名{other.id}, {other.status.label}); "
                     f"每人限报一个组别, 如需改报请先撤回该报名",
                     f"{player.name} already holds entry {other.id} in {name}; one division per "
                     "player: withdraw that entry first"),
                code="second_live_entry", params={"entry": other.id, "division": other.division},
            )


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
    players = roster_rows.players_by_id(work.session, event.id)
    teams = team_of(work, event)
    out = []
    members = members_of(event)
    for e in roster_rows.list_entries(work.session, event.id, division=division_id, status=status):
        player = players[e.player_id]
        if e.status is EntryStatus.PENDING:
            e = e.model_copy(update={"reasons": tuple(eligibility_texts(regulation, player, e.division, members))})
        out.append(EntryView(e, player, division_name(regulation, e.division), teams.get(e.player_id)))
    return out


def enter_members(work: Work, event: EventRecord, rules: TeamRules, members: list[TeamMember],
                  note: str) -> list[TeamMember]:
    """A team member named with no entry yet is entered, as `player add --division` would enter
    him (eligibility, approval, the window, one live entry), in the division his slot names or the
    event's only division: a team of players without entries would never be paired."""
    regulation = regulation_of(event)
    slot_division = {s.label: s.division for s in rules.slots if s.division}
    only = regulation.divisions[0].id if len(regulation.divisions) == 1 else None
    stage = resolve_stage(regulation, "")
    out = []
    for m in members:
        division = m.division or slot_division.get(m.slot or "") or only
        if m.division is None and division is not None:
            player = player_rows.get_player(work.session, m.player_id)
            _check_entry_window(work, regulation, division)
            _check_one_live_entry(work, event, regulation, player, division, stage)
            entry = _open_entry(work, event, regulation, player, division, stage, None, note)
            m = m.model_copy(update={"division": entry.division})
        out.append(m)
    return out
