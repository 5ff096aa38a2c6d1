"""The live server's two calls into this issue, over real WebSockets: a suspended player is
refused at queueing with the reason; a client's focus-loss report is stored for the signals."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.live.test_websocket import Server, matched_pair, new_db, tab
from yisai.services import fairplay
from yisai.services.context import open_context


def test_suspended_refused_and_focus_stored(tmp_path: Path) -> None:
    db = new_db(tmp_path)
    with open_context(db, actor="裁判长") as ctx, ctx.work() as work:
        fairplay.suspend_player(work, None, "s1", periods=1, first_period=1, reason="第1期对局使用软件")
    server = Server(db)
    server.start()
    try:
        async def run() -> int:
            s1 = await tab(server, "s1")
            await s1.send(t="queue")
            refused = await s1.expect("error")
            assert refused["code"] == "suspended" and "第1期对局使用软件" in refused["message"]
            await s1.close()
            gid, tabs = await matched_pair(server, "f1", "f2")
            b = tabs["B"]
            await b.send(t="focus", game=gid, lost=4)
            await b.send(t="focus", game=gid + 999, lost=9)  # not this client's game: ignored
            await b.send(t="act", game=gid, kind="resign", version=0)
            await b.expect("ended")
            for t in tabs.values():
                await t.close()
            return gid

        gid = asyncio.run(run())
    finally:
        server.stop()
    with open_context(db, actor="裁判长") as ctx, ctx.work() as work:
        queue = {g.game_id: g for g in fairplay.review_queue(work, None)}
    black = queue[gid].signals["black"]
    assert black["focus_losses"] == 4 and queue[gid].signals["white"]["focus_losses"] == 0


def test_suspended_while_waiting_leaves_the_queue_before_the_next_wave(tmp_path: Path) -> None:
    db = new_db(tmp_path)
    server = Server(db)
    server.start()
    try:
        async def run() -> None:
            waiting = await tab(server, "w1")
            await waiting.send(t="queue")
            await waiting.expect("queued")
            with open_context(db, actor="裁判长") as ctx, ctx.work() as work:  # the console, meanwhile
                fairplay.suspend_player(work, None, "w1", periods=1, first_period=1, reason="第1期对局使用软件")
            told = await waiting.expect("error")
            assert told["code"] == "suspended" and "第1期对局使用软件" in told["message"]
            gid, tabs = await matched_pair(server, "w2", "w3")  # the next two meet each other
            assert gid > 0 and set(tabs) == {"B", "W"}
            for t in (waiting, *tabs.values()):
                await t.close()

        asyncio.run(run())
    finally:
        server.stop()
