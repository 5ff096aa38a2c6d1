"""An event's players and entries read once per roster revision (``store.revisions``).

Standings, pairing and the public pages read the whole roster on every change of a result;
the roster itself changes only with registration. So the rows are turned into ``Player`` and
``Entry`` values once per (database, event, roster revision) and shared until the revision
moves on — in this process or any other, since the revision is read each time. The values hold
no wording in a reader's language (an entry's reasons are ``Text``), so one read serves every
language.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Player
from yisai.store import entry_rows
from yisai.store.entry_rows import entry_value
from yisai.store.models import EntryRow, EventRow, PlayerRow
from yisai.store.player_rows import player_value
from yisai.store.revisions import ROSTERS, Roster
from yisai.store.round_rows import database_key


def roster(s: Session, event_id: int) -> Roster:
    """The event's players and entries in id order (empty for an unknown event)."""
    revision = s.scalar(select(EventRow.roster_revision).where(EventRow.id == event_id))
    if revision is None:
        return Roster((), ())
    key = (database_key(s), event_id, revision)
    found = ROSTERS.get(key)
    if found is None:
        players = s.scalars(select(PlayerRow).where(PlayerRow.event_id == event_id).order_by(PlayerRow.id))
        entries = s.scalars(select(EntryRow).where(EntryRow.event_id == event_id).order_by(EntryRow.id))
        found = Roster(tuple(player_value(r) for r in players), tuple(entry_value(r) for r in entries))
        ROSTERS.put_all([(key, found)])
    return found


def list_players(s: Session, event_id: int) -> list[Player]:
    return list(roster(s, event_id).players)


def players_by_id(s: Session, event_id: int) -> dict[str, Player]:
    return {p.id: p for p in roster(s, event_id).players}


def list_entries(
    s: Session,
    event_id: int,
    *,
    division: str | None = None,
    stage: str | None = None,
    status: EntryStatus | Iterable[EntryStatus] | None = None,
    player_id: str | int | None = None,
) -> list[Entry]:
    """The event's entries in id order, filtered; one player's are read directly (a single
    lookup need not build the whole roster)."""
    if player_id is not None:
        return entry_rows.player_entries(s, event_id, player_id, division=division, stage=stage, status=status)
    wanted = {status} if isinstance(status, EntryStatus) else set(status) if status is not None else None
    return [e for e in roster(s, event_id).entries
            if (division is None or e.division == division) and (stage is None or e.stage == stage)
            and (wanted is None or e.status in wanted)]
