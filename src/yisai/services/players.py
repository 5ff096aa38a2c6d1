"""Players (棋手) of an event: finding the stored person a new row is, merging what it states,
and keeping a change to a registered player for the chief referee when it may no longer be
saved at once (after an approval or the deadline; ``player_changes`` decides them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.idcard import normalise
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.services.context import Work
from yisai.services.eligibility import LIVE
from yisai.services.event_data import team_of
from yisai.services.events import regulation_of, resolve_division
from yisai.services.identity import Action
from yisai.services.registration import team_of_player
from yisai.services.registration_window import registration_closed
from yisai.store import EventRecord, change_rows, player_rows, roster_rows


@dataclass(frozen=True)
class PlayerView:
    player: Player
    entries: tuple[Entry, ...]
    team: str | None


def merge_player(existing: Player, incoming: Player) -> Player:
    """Fields the new data states (not None) replace the stored ones; the rest are kept."""
    changes = {
        name: getattr(incoming, name)
        for name in incoming.model_fields_set
        if name != "id" and getattr(incoming, name) is not None
    }
    return existing.model_copy(update=changes)


def find_existing_player(work: Work, event: EventRecord, player: Player) -> Player | None:
    """The stored player this one is (matched on ID number, else name + birth date)."""
    id_number = normalise(player.id_number) if player.id_number else None
    existing = player_rows.find_player(work.session, event.id, id_number=id_number, name=player.name,
                                       birth_date=player.birth_date)
    if existing is None and id_number:
        # Registered earlier without an ID number: same name and birth date is the same person.
        same = player_rows.find_player(work.session, event.id, name=player.name, birth_date=player.birth_date)
        existing = same if same is not None and not same.id_number else None
    return existing


def change_needs_approval(work: Work, event: EventRecord, regulation: Regulation, player: Player) -> str | None:
    """Why a change to this registered player waits for the chief referee ("approved": one of
    the player's entries is approved; "deadline": registration has closed), or None when it
    may be saved at once. The chief referee's own changes never wait."""
    if work.actor.may(Action.APPROVE):
        return None
    entries = roster_rows.list_entries(work.session, event.id, player_id=player.id, status=LIVE)
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
    saved = change_rows.add_change(work.session, work.stamp, event.id, int(player.id), before, after, why, note)
    work.emit("player_change_requested", event.id, change=saved.id, player=player.id, why=why)
    return saved.id


def list_players(work: Work, event: EventRecord, *, division: str | None = None) -> list[PlayerView]:
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division) if division else None
    entries: dict[str, list[Entry]] = {}
    for e in roster_rows.list_entries(work.session, event.id, division=division_id):
        entries.setdefault(e.player_id, []).append(e)
    teams = team_of(work, event)
    return [
        PlayerView(p, tuple(entries.get(p.id, ())), teams.get(p.id))
        for p in roster_rows.list_players(work.session, event.id)
        if division_id is None or p.id in entries
    ]
