"""The live server's group commit: one writer task per process, one transaction per batch.

Acknowledging an action only after it is committed makes every move a transaction; grouping
the writes that arrive while one commits, and storing a batch's actions as two executemany
statements, keeps the cost per move small (docs/BENCHMARKS.md, live section). The commits run
on a thread of their own, never behind the reads that other work sends to worker threads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from yisai.live.metrics import Metrics
from yisai.live.tasks import stop_task
from yisai.qualifier.session import Action, LiveGame
from yisai.services import live as svc
from yisai.services.context import Context, Work
from yisai.services.identity import Actor

T = TypeVar("T")


class Writer:
    """Group commit: writes queued while one transaction runs go together into the next.

    Each caller awaits its own result; the acknowledgement of an action is sent only when the
    transaction holding it has committed. The actions of a batch go in as two executemany
    statements (``services.live.record_actions``) and its clock-and-presence saves as one
    (``services.live.save_states``); other writes run as they are. If a batch fails, its
    writes are retried one by one so one bad write cannot sink the others.
    """

    def __init__(self, context: Context, actor: Actor, metrics: Metrics | None = None) -> None:
        self.ctx = context
        self.actor = actor
        self.metrics = metrics or Metrics()
        self.pending: list[tuple[str, Any, asyncio.Future[Any]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.batches = self.writes = 0
        self.busy = 0.0  # seconds spent committing (for the bench's report)
        self.thread: ThreadPoolExecutor | None = None

    def start(self) -> None:
        # A thread of its own: on the shared default executor a commit queued behind the reads
        # of a burst of connections (welcome, queue checks), and moves waited seconds for acks.
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="yisai-writer")
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        await stop_task(self.task)
        self.task = None
        if self.thread is not None:
            self.thread.shutdown(wait=True)
            self.thread = None

    async def submit(self, fn: Callable[[Work], T]) -> T:
        return cast(T, await self._queue(FN, fn))

    async def record(self, game_id: int, game: LiveGame, action: Action) -> None:
        """Store one accepted action (batched with the others of the same commit)."""
        await self._queue(MOVE, (game_id, game, action))

    async def save_state(self, game_id: int, game: LiveGame, at: float) -> None:
        """Store a game's clock and presence (after a connection change; batched too)."""
        await self._queue(STATE, (game_id, game, at))

    def _queue(self, kind: str, item: Any) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((kind, item, future))
        self.wake.set()
        return future

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            began = time.perf_counter()
            items = [(kind, item) for kind, item, _ in batch]
            results = await asyncio.get_running_loop().run_in_executor(self.thread, self._commit, items)
            took = time.perf_counter() - began
            self.busy += took
            self.metrics.hist("commit").add(took)
            self.metrics.batch.add(len(batch) / 1000)
            self.batches += 1
            self.writes += len(batch)
            for (_, _, future), (ok, value) in zip(batch, results, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    @staticmethod
    def _one(work: Work, kind: str, item: Any) -> Any:
        if kind == FN:
            return item(work)
        if kind == MOVE:
            svc.record_action(work, *item)
        else:
            svc.save_states(work, [item])
        return None

    def _commit(self, items: list[tuple[str, Any]]) -> list[tuple[bool, Any]]:
        try:
            began = time.perf_counter()
            with self.ctx.work(actor=self.actor) as work:
                svc.record_actions(work, [item for kind, item in items if kind == MOVE])
                values = [item(work) if kind == FN else None for kind, item in items]
                svc.save_states(work, [item for kind, item in items if kind == STATE])
                written = time.perf_counter()
            self.metrics.hist("commit_sql").add(written - began)  # the rest: COMMIT (fsync)
            self.metrics.hist("commit_end").add(time.perf_counter() - written)
            return [(True, v) for v in values]
        except Exception as exc:
            if len(items) == 1:
                return [(False, exc)]
        out: list[tuple[bool, Any]] = []
        for kind, item in items:
            try:
                with self.ctx.work(actor=self.actor) as work:
                    out.append((True, self._one(work, kind, item)))
            except Exception as exc:
                out.append((False, exc))
        return out


FN, MOVE, STATE = "fn", "move", "state"

__all__ = ["Writer"]
