"""The spectators' delay: game news reaches a watcher ``delay`` seconds after it happened.

Players are never delayed. A spectator's resync (``state``) is cut at ``now - delay`` too
(``delayed_state``), so a watcher never sees a move earlier than the delay, however they ask.
One ``DelayLine`` per process holds the news waiting for its time (in order of due time, then
arrival), so a watcher's messages keep their order.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import heapq
import itertools
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from yisai.game.board import BLACK
from yisai.live.tasks import stop_task
from yisai.qualifier.session import LiveGame


class DelayLine:
    """Hand each item to ``deliver`` at its due time; one task, one heap."""

    def __init__(self, clock: Callable[[], float], deliver: Callable[[Any], Awaitable[None]]) -> None:
        self.clock = clock
        self.deliver = deliver
        self._heap: list[tuple[float, int, Any]] = []
        self._n = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        await stop_task(self._task)

    def put(self, due: float, item: Any) -> None:
        heapq.heappush(self._heap, (due, next(self._n), item))
        self._wake.set()

    async def _run(self) -> None:
        while True:
            if not self._heap:
                self._wake.clear()
                await self._wake.wait()
                continue
            wait = self._heap[0][0] - self.clock()
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue
            item = heapq.heappop(self._heap)[2]
            with contextlib.suppress(Exception):
                await self.deliver(item)


class Recent:
    """The views a spectator may still need: (time, version, view) of the last actions, kept
    back to the newest one at least ``delay`` old (the base of a delayed resync)."""

    def __init__(self) -> None:
        self.items: deque[tuple[float, int, dict[str, Any]]] = deque()

    def add(self, at: float, version: int, view: dict[str, Any], cutoff: float) -> None:
        self.items.append((at, version, view))
        self.trim(cutoff)

    def trim(self, cutoff: float) -> None:
        while len(self.items) >= 2 and self.items[1][0] <= cutoff:
            self.items.popleft()

    def view_at(self, version: int) -> dict[str, Any] | None:
        for _, v, view in self.items:
            if v == version:
                return view
        return None


def delayed_state(game: LiveGame, recent: Recent, now: float, delay: float) -> dict[str, Any]:
    """What a spectator may see at ``now``: the game as it was ``delay`` seconds ago (the full
    state when nothing happened since)."""
    cutoff = now - delay
    recent.trim(cutoff)
    visible = bisect.bisect_right([a.at for a in game.actions], cutoff)
    ended_late = game.ending is not None and game.ending.at > cutoff
    if visible == len(game.actions) and not ended_late:
        return game.state(now) | {"delay": delay}
    view = recent.view_at(visible)
    if view is None:  # the start of the game (or a view no longer kept): clocks from the start
        fresh = LiveGame(game.rules, game.start)
        view = {"phase": fresh.phase.value, "clocks": fresh.clocks(min(now, max(cutoff, game.start))),
                "running": "B"}  # fmt: skip
    shown = game.actions[:visible]
    to_move = "B" if not shown or shown[-1].color != BLACK else "W"
    return {"version": visible, "phase": view["phase"], "to_move": view.get("to_move", to_move),
            "size": game.flow.board.size, "moves": [game.describe(a) for a in shown],
            "clocks": view["clocks"], "running": view.get("running"), "delay": delay,
            **{k: view[k] for k in ("dead", "accepted", "count") if k in view}}  # fmt: skip


__all__ = ["DelayLine", "Recent", "delayed_state"]
