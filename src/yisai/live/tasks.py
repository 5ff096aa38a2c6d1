"""Background tasks of the servers: the one way one is stopped."""

from __future__ import annotations

import asyncio
import contextlib


async def stop_task(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` and wait until it has ended (its ``finally`` blocks have run)."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
