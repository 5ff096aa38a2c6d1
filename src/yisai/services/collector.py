"""The cycle collector paused during a standings burst, for the entry points that own the
process (the core only enters ``yisai.bursts.allocation_pause``).

A full table allocates lists and tuples per player and round, none of them cyclic; the collector
would otherwise rescan them repeatedly. The pause is scoped and safe across threads: the first
caller in pauses, the last one out restores what it found, so concurrent standings requests
never leave it off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from yisai.bursts import set_allocation_pause

_lock = threading.Lock()
_users = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off inside, restored to what it was when the last user leaves."""
    global _users, _was_enabled
    with _lock:
        if _users == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0 and _was_enabled:
                gc.enable()


def pause_collector_during_standings() -> None:
    """Called once by an entry point: standings bursts then run with the collector paused."""
    set_allocation_pause(collector_paused)
