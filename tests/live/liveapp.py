"""A tiny FastAPI app with only the live router, for the WebSocket tests (run by uvicorn in a
child process so a test can kill -9 it). Settings come from the environment the test sets."""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from yisai.live.server import LiveOptions, create_live_router
from yisai.services.context import open_context

BEIJING_NOW = datetime(2025, 5, 6, 10, 30)  # period 1 of seed 000 is open


def make_app() -> FastAPI:
    env = os.environ
    ctx = open_context(env["YISAI_LIVE_TEST_DB"], actor="live-test", now=lambda: BEIJING_NOW)
    options = LiveOptions(
        secret=env["YISAI_LIVE_TEST_SECRET"],
        wave_seconds=0.2,
        tick_seconds=0.1,
        ping_seconds=0.5,
        silence_seconds=float(env.get("YISAI_LIVE_TEST_SILENCE", "3")),
        alive_seconds=0.2,
        lag_cap=0.0,
        spectator_delay=float(env.get("YISAI_LIVE_TEST_DELAY", "0")),
        redis_url=env.get("YISAI_LIVE_TEST_REDIS") or None,
        redis_prefix=env.get("YISAI_LIVE_TEST_PREFIX", "yisai:live"),
        owner_ttl=float(env.get("YISAI_LIVE_TEST_TTL", "10")),
        request_seconds=0.5,
        owner=env.get("YISAI_LIVE_TEST_OWNER") or f"test:{os.getpid()}",
        sockets_per_address=int(env.get("YISAI_LIVE_TEST_PER_ADDRESS", "64")),
        sockets_per_player=int(env.get("YISAI_LIVE_TEST_PER_PLAYER", "4")),
    )
    app = FastAPI()
    router = create_live_router(ctx, options)
    hub = router.hub  # type: ignore[attr-defined]

    @app.get("/test/cluster")
    async def cluster() -> dict[str, Any]:  # the cluster messages this process received and sent, by kind
        if hub.cluster is None:
            return {"kinds": {}, "sent": {}}
        return {"kinds": dict(hub.cluster.kinds), "sent": dict(hub.cluster.sent_kinds)}

    @app.get("/test/stall")
    async def stall(seconds: float, mark: str = "") -> dict[str, float]:  # a busy owner: the event loop blocked
        if mark:  # the test waits for this file: the loop is blocked from now on
            Path(mark).touch()
        time.sleep(seconds)
        return {"stalled": seconds}

    app.include_router(router)
    return app
