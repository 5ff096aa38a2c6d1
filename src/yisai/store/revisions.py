"""Round revisions and the games cache they key.

Every flush that adds, changes or deletes a game — or adds a round — gives the round a new
revision, here and only here (a session hook, so no writer can forget it). A revision is a
nanosecond clock reading made strictly increasing per process: unique over time, so a round
deleted and paired again, even under a reused id, never repeats an earlier (id, revision).

The cache holds each round's games as read at one revision, per database, in this process.
Readers first read the (id, revision) list of the rounds they want (a small query) and re-read
only the rounds whose revision they do not hold: entering one result re-reads one round, not
the division. The database stays the source of truth; the cache only skips reading rows that
cannot have changed, so every worker and every concurrent writer is seen as soon as committed.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable

from sqlalchemy import event
from sqlalchemy.orm import Session

from yisai.record import Game
from yisai.store.models import GameRow, RoundRow

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


class GamesCache:
    """(database, round id, revision) → the round's games; least recently used dropped first."""

    def __init__(self, capacity: int = 4096) -> None:
        self._capacity = capacity
        self._items: OrderedDict[tuple[str, int, int], tuple[Game, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> tuple[Game, ...] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put_all(self, items: Iterable[tuple[tuple[str, int, int], tuple[Game, ...]]]) -> None:
        with self._lock:
            for key, games in items:
                self._items[key] = games
                self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


GAMES = GamesCache()
