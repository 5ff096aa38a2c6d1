"""A guard that fails a test which hangs, for work that must stay bounded. It is never a speed
assertion: the limit is far above any honest run on a loaded machine, and the bound itself is
what the test asserts (a cap, a refusal before reading)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

HANG_SECONDS = 300


@contextmanager
def no_hang(seconds: int = HANG_SECONDS) -> Iterator[None]:
    def _hung(_signum: int, _frame: FrameType | None) -> None:
        raise TimeoutError(f"no answer within {seconds} s: the work is not bounded")

    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
