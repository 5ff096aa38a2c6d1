"""The director's decisions on entries (报名审核): approve (one, or every eligible one), reject,
mark the fee paid, and refresh the reasons of undecided entries after player data changed.

An approval re-checks eligibility at the moment it is given; an entry with reasons is approved
only when forced, with a note, and the reasons stay with it. Withdrawal is in ``registration``.
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.registry.eligibility import composition_texts
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.services import fees
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import division_name, eligibility_texts, members_of
from yisai.services.entries import EntryView, list_entries
from yisai.services.errors import Hint
from yisai.services.events import regulation_of
from yisai.services.identity import Action
from yisai.services.registration import entry_for_change, team_of_player
from yisai.store import EventRecord, NotFound, entry_rows, player_rows, roster_rows


def approve_entry(work: Work, entry_id: str | int, *, force: bool = False, note: str = "") -> Entry:
    """Approve after re-checking eligibility; with reasons, only ``force`` and a note will do."""
    work.require(Action.APPROVE)
    entry, event = entry_for_change(work, entry_id, EntryStatus.APPROVED)
    regulation = regulation_of(event)
    player = player_rows.get_player(work.session, entry.player_id)
    reasons = (eligibility_texts(regulation, player, entry.division, members_of(event))
               + _team_texts(work, event, regulation, player))
    name = division_name(regulation, entry.division)
    label = f"报名{entry.id}({player.name}, {name})"
    label_en = f"entry {entry.id} ({player.name}, {name})"
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
            "reasons": tuple(reasons),
            "forced": bool(reasons),
            "note": note.strip() or entry.note,
        }
    )
    saved = entry_rows.update_entry(work.session, work.stamp,
                                    updated, "force-approve" if reasons else "approve", note.strip())
    work.emit("entry_approved", event.id, entry=saved.id, forced=bool(reasons))
    return saved


def _team_texts(work: Work, event: EventRecord, regulation: Regulation, player: Player) -> list[Text]:
    """Reasons the player's team breaks the regulation's team make-up (min_women), for approval."""
    rules = regulation.teams
    if rules is None or rules.min_women is None:
        return []
    team = team_of_player(work, event, player.id)
    if team is None:
        return []
    players = roster_rows.players_by_id(work.session, event.id)
    return composition_texts(team, players, rules)


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
    entry, event = entry_for_change(work, entry_id, EntryStatus.REJECTED)
    updated = entry.model_copy(
        update={"status": EntryStatus.REJECTED, "note": reason.strip(), "forced": False}
    )
    saved = entry_rows.update_entry(work.session, work.stamp, updated, "reject", reason.strip())
    work.emit("entry_rejected", event.id, entry=saved.id)
    return saved


def set_fee_paid(work: Work, entry_id: str | int, paid: bool = True, note: str = "") -> Entry:
    work.require(Action.APPROVE)
    try:
        entry = entry_rows.get_entry(work.session, entry_id)
        work.check_event(entry_rows.entry_event(work.session, entry_id))
    except NotFound as exc:
        raise InputError(exc.text, code="entry_not_found", params={"entry": str(entry_id)}) from None
    fees.record_manual(work, entry_rows.entry_event(work.session, entry_id), entry, paid, note)  # the ledger's side
    return entry_rows.update_entry(work.session, work.stamp, entry.model_copy(update={"fee_paid": paid}), "fee", note)


def recheck_entries(work: Work, event: EventRecord) -> int:
    """Refresh the reasons of undecided entries (after player data changed); returns how many changed."""
    work.require(Action.REGISTER)
    work.check_event(event.id)
    regulation = regulation_of(event)
    members = members_of(event)
    changed = 0
    for entry in roster_rows.list_entries(work.session, event.id, status=EntryStatus.PENDING):
        player = player_rows.get_player(work.session, entry.player_id)
        reasons = eligibility_texts(regulation, player, entry.division, members)
        if reasons != list(entry.reasons):
            entry_rows.update_entry(work.session, work.stamp,
                                    entry.model_copy(update={"reasons": tuple(reasons)}), "check")
            changed += 1
    return changed
