"""Revisions and the caches they key: a round's games, an event's roster.

Every flush that adds, changes or deletes a game — or adds a round — gives the round a new
revision; every flush that touches an event's players or entries gives the event a new
roster revision. The database moves them too (triggers, migration 0022), so a write
that goes around the ORM — a Core ``update()``/``delete()``, raw SQL, an ``ON DELETE
CASCADE`` — moves them as surely; the hook here gives a row the ORM writes a value unique to
this process within the flush, and the triggers move it on past that. A revision is a nanosecond clock reading made strictly increasing per process: unique
over time, so a round or event deleted and made again, even under a reused id, never repeats
an earlier (id, revision).

The caches hold what was read at one revision, per database, in this process. Readers first
read the revision (a small query) and re-read only what they do not hold at it: entering one
result re-reads one round, not the division, and the roster is read again only after a
registration change. The database stays the source of truth; the caches only skip reading
rows that cannot have changed, so every worker and every concurrent writer is seen as soon
as committed.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session

from yisai.record import Game
from yisai.registry.entry import Entry
from yisai.registry.person import Player
from yisai.store.models import (
    EntryRow,
    EventRow,
    GameRow,
    PlayerRow,
    RoundRow,
)

_lock = threading.Lock()
_last = 0


def next_revision() -> int:
    """A revision larger than every one this process handed out before."""
    global _last
    with _lock:
        _last = max(time.time_ns(), _last + 1)
        return _last


@event.listens_for(Session, "before_flush")
def _bump(session: Session, _context: object, _instances: object) -> None:
    _bump_rounds(session)
    _bump_rosters(session)


def _bump_rounds(session: Session) -> None:
    rounds: set[RoundRow] = set()
    ids: set[int] = set()
    for obj in itertools.chain(session.new, session.dirty, session.deleted):
        if isinstance(obj, RoundRow):
            if obj in session.new or session.is_modified(obj):
                rounds.add(obj)
        elif isinstance(obj, GameRow):
            if obj.round is not None:
                rounds.add(obj.round)
            elif obj.round_id is not None:
                ids.add(obj.round_id)
    for rid in ids:
        row = session.get(RoundRow, rid)
        if row is not None:
            rounds.add(row)
    for row in rounds:
        if row not in session.deleted:
            row.revision = next_revision()


def _bump_rosters(session: Session) -> None:
    """A new event starts at a fresh roster revision; a change to its players or entries
    moves it on."""
    events: set[int] = set()
    for obj in itertools.chain(session.new, session.dirty, session.deleted):
        if isinstance(obj, EventRow) and obj in session.new:
            obj.roster_revision = obj.revision = next_revision()
        elif isinstance(obj, PlayerRow | EntryRow) and obj.event_id is not None:
            events.add(obj.event_id)
    for eid in events:
        row = session.get(EventRow, eid)
        if row is not None and row not in session.deleted:
            row.roster_revision = next_revision()


@dataclass(frozen=True, slots=True)
class RoundGames:
    """One round's games and each board's version, as read at one revision."""

    games: tuple[Game, ...]
    versions: tuple[tuple[int, int], ...]  # (board, version)


@dataclass(frozen=True, slots=True)
class GamesRead:
    """A division's games and, read with them, where they came from: the database and each
    round's (id, number, revision). Anything computed from these games may be kept under
    ``round_key`` — it changes whenever the games of that round number do."""

    games: list[Game]
    database: str
    rounds: tuple[tuple[int, int, int], ...]

    def round_key(self, number: int) -> tuple[object, ...]:
        return (self.database, *((rid, rev) for rid, n, rev in self.rounds if n == number))


@dataclass(frozen=True, slots=True)
class Roster:
    """An event's players and entries, as read at one roster revision (entries' reasons in
    both languages: the same roster for every reader)."""

    players: tuple[Player, ...]
    entries: tuple[Entry, ...]


K = TypeVar("K")
V = TypeVar("V")


class RevisionCache(Generic[K, V]):
    """key (database, id, revision, …) → what was read at it; least recently used dropped first."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put_all(self, items: Iterable[tuple[K, V]]) -> None:
        with self._lock:
            for key, value in items:
                self._items[key] = value
                self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


GAMES: RevisionCache[tuple[str, int, int], RoundGames] = RevisionCache(4096)
ROSTERS: RevisionCache[tuple[str, int, int], Roster] = RevisionCache(8)  # large: few kept
