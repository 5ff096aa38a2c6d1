"""A seam around bursts of acyclic allocations (a standings table's lists and tuples per player
and round): the core enters ``allocation_pause()``, which does nothing unless the entry point
that owns the process installed a pause (``yisai.services.collector`` pauses the cycle
collector). The core never touches the process's collector itself, so a library caller keeps
its own settings. A module of its own so an entry point installs the pause without importing
the standings."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

_pause: Callable[[], AbstractContextManager[object]] = nullcontext


def set_allocation_pause(pause: Callable[[], AbstractContextManager[object]]) -> None:
    """Install what ``allocation_pause`` enters (an entry point calls it once)."""
    global _pause
    _pause = pause


def allocation_pause() -> AbstractContextManager[object]:
    """Entered around a burst of acyclic allocations."""
    return _pause()
