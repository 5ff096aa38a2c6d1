"""Work no request waits for: re-reading an event's stamp and re-rendering a public table.

A polled table is served from memory; when it is out of date the poll gets the previous
rendering at once while the new one is made here (stale while revalidating), and the next
poll gets it. The threads are few and made once, so the event loop never waits for a thread
to start (anyio's pool starts a fresh one after its idle ones expire, and starting a thread
while another holds the interpreter stalled every connection for 50–180 ms).
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)


class Background:
    """At most one job per key queued or running at a time, on ``workers`` threads."""

    def __init__(self, workers: int = 2) -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="yisai-refresh")
        self._busy: set[Hashable] = set()
        self._lock = threading.Lock()

    def once(self, key: Hashable, job: Callable[[], object]) -> bool:
        """Start ``job`` (in the caller's context: its language) unless one for ``key`` is
        queued or running; whether it was started."""
        with self._lock:
            if key in self._busy:
                return False
            self._busy.add(key)

        def run() -> None:
            try:
                job()
            except Exception:  # a failed refresh leaves the previous table; the next poll retries
                log.exception("web: background refresh %r failed", key)
            finally:
                with self._lock:
                    self._busy.discard(key)

        try:
            self._pool.submit(contextvars.copy_context().run, run)
        except RuntimeError:  # shutting down
            with self._lock:
                self._busy.discard(key)
            return False
        return True

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["Background"]
