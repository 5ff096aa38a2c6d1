"""Where a live process's time goes: latency histograms, event-loop lag and collector pauses.

One ``Metrics`` per hub. The server records, for every action of a socket it serves, the time
from the frame's arrival to the ``ack`` being handed to the socket (``act``), split into the
wait for the game's lock and the wait for the commit; the writer records each group commit
(``commit``, ``batch`` size); housekeeping records each pass (``tick``). ``LoopLag`` measures
how late the event loop wakes a task that asked to sleep a few milliseconds: every stall of the
loop (a long synchronous pass, a collection, a burst of frames) shows there, whatever caused
it. ``GcPauses`` times the cyclic collector's runs through ``gc.callbacks``. The bench reads
``snapshot()`` over HTTP and prints the server's own p99 next to the client's round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import time
from typing import Any

from yisai.live.tasks import stop_task

# Log-spaced buckets, 5 % wide, from 10 µs to ~100 s: a quantile is exact to 5 %.
_BASE = 1e-5
_STEP = math.log(1.05)
_BUCKETS = int(math.log(100 / _BASE) / _STEP) + 2


class Histogram:
    """Durations in seconds, bucketed (constant memory however many are added)."""

    def __init__(self) -> None:
        self.counts = [0] * _BUCKETS
        self.n = 0
        self.total = 0.0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        i = 0 if seconds <= _BASE else min(_BUCKETS - 1, int(math.log(seconds / _BASE) / _STEP) + 1)
        self.counts[i] += 1
        self.n += 1
        self.total += seconds
        if seconds > self.max:
            self.max = seconds

    def merge(self, other: Histogram) -> None:
        self.counts = [a + b for a, b in zip(self.counts, other.counts, strict=True)]
        self.n += other.n
        self.total += other.total
        self.max = max(self.max, other.max)

    def quantile(self, q: float) -> float:
        """The upper edge of the bucket holding the q-quantile (0 when empty)."""
        if not self.n:
            return 0.0
        rank = max(1, math.ceil(q * self.n))
        seen = 0
        for i, c in enumerate(self.counts):
            seen += c
            if seen >= rank:
                return min(_BASE * math.exp(i * _STEP), self.max)
        return self.max

    def summary(self) -> dict[str, float]:
        """Count, mean, p50, p99, p99.9 and max, in milliseconds."""
        return {"n": self.n, "mean_ms": self.total / self.n * 1000 if self.n else 0.0,
                "p50_ms": self.quantile(0.5) * 1000, "p99_ms": self.quantile(0.99) * 1000,
                "p999_ms": self.quantile(0.999) * 1000, "max_ms": self.max * 1000}  # fmt: skip


class LoopLag:
    """How late the event loop runs a task that sleeps ``interval`` (its stalls, whatever the
    cause), and the CPU time the loop's thread used over each such sleep (``cpu``): a lag
    with as much CPU is the loop's own work (a long pass); a lag without is waiting for a core
    (the machine is busy) or for the GIL (held by the commit thread)."""

    def __init__(self, hist: Histogram, interval: float = 0.01, cpu: Histogram | None = None) -> None:
        self.hist = hist
        self.cpu = cpu or Histogram()
        self.interval = interval
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await stop_task(self.task)
        self.task = None

    async def _run(self) -> None:
        while True:
            began, used = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.interval)
            self.hist.add(max(time.perf_counter() - began - self.interval, 0.0))
            self.cpu.add(time.thread_time() - used)


class GcPauses:
    """The cyclic collector's runs, timed per generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.by_generation = [Histogram(), Histogram(), Histogram()]
        self._began = 0.0
        self.installed = False

    def install(self) -> None:
        if not self.installed:
            gc.callbacks.append(self._callback)
            self.installed = True

    def uninstall(self) -> None:
        if self.installed:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self._callback)
            self.installed = False

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            generation = int(info.get("generation", 2))
            self.by_generation[min(max(generation, 0), 2)].add(time.perf_counter() - self._began)


class Metrics:
    """The histograms of one live process (reset by the bench at the start of its steady state)."""

    NAMES = ("act", "act_lock", "act_commit", "commit", "commit_sql", "commit_end", "loop_lag", "loop_cpu",
             "tick", "ping")

    def __init__(self) -> None:
        self.hists: dict[str, Histogram] = {}
        self.batch = Histogram()  # group commit sizes, stored as "seconds" = count / 1e3
        self.gc = GcPauses()
        self.lag = LoopLag(self.hist("loop_lag"))
        self.since = time.perf_counter()
        self.reset()

    def hist(self, name: str) -> Histogram:
        return self.hists.setdefault(name, Histogram())

    def reset(self) -> None:
        for name in self.NAMES:
            self.hists[name] = Histogram()
        self.lag.hist = self.hists["loop_lag"]
        self.lag.cpu = self.hists["loop_cpu"]
        self.batch = Histogram()
        self.gc.by_generation = [Histogram(), Histogram(), Histogram()]
        self.since = time.perf_counter()

    def start(self) -> None:
        self.gc.install()
        self.lag.start()

    async def stop(self) -> None:
        self.gc.uninstall()
        await self.lag.stop()

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: h.summary() for name, h in self.hists.items()}
        out["batch"] = {"n": self.batch.n, "mean": self.batch.total / self.batch.n * 1000 if self.batch.n else 0.0,
                        "max": self.batch.max * 1000}  # fmt: skip
        out["gc"] = [h.summary() | {"total_ms": h.total * 1000} for h in self.gc.by_generation]
        out["seconds"] = time.perf_counter() - self.since
        return out


__all__ = ["GcPauses", "Histogram", "LoopLag", "Metrics"]
