"""The live server over real WebSockets: a uvicorn child process on a loopback port, real
clients (the ``websockets`` package). Duplicate and stale moves, two tabs of one player,
reconnection with resync, and kill -9 of the server in the middle of a game."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from itsdangerous import URLSafeSerializer
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.conftest import REGULATIONS, ROOT
from yisai.live.server import TICKET_SALT, TICKET_SECONDS, issue_ticket
from yisai.regulation.loader import loads
from yisai.services import live
from yisai.services.context import open_context
from yisai.services.events import create_event, create_event_from_text

SECRET = "test-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: str, **env: str) -> None:
        self.db = db
        self.final_log = ""
        self.log = ""  # the server's stderr (a file: a pipe nobody reads would fill and block it)
        self.env = env  # more YISAI_LIVE_TEST_* settings (tests/live/liveapp.py)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, YISAI_LIVE_TEST_DB=self.db, YISAI_LIVE_TEST_SECRET=SECRET,
                   PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", **self.env)
        fd, self.log = tempfile.mkstemp(prefix="yisai-live-", suffix=".log")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "tests.live.liveapp:make_app",
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=fd,
        )
        os.close(fd)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log_text())
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("the live server did not start")

    def log_text(self) -> str:
        path = Path(self.log)
        return path.read_text(errors="replace") if self.log and path.exists() else self.final_log

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.log and Path(self.log).exists():  # keep the text (a failing test prints it)
            self.final_log = self.log_text()
            Path(self.log).unlink()

    def url(self, player: str | None, division: str = "open") -> str:
        base = f"ws://127.0.0.1:{self.port}/live/ws"
        return f"{base}?ticket={issue_ticket(SECRET, player, player.upper(), division)}" if player else base


def new_db(folder: Path) -> str:
    url = f"sqlite:///{folder / 'live.sqlite'}"
    with open_context(url, actor="测试裁判") as ctx, ctx.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    return url


@pytest.fixture
def db(tmp_path: Path) -> str:
    return new_db(tmp_path)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that do not kill it (each uses its own players)."""
    srv = Server(new_db(tmp_path_factory.mktemp("live")))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Tab:
    """One browser tab: a socket that answers pings and keeps what it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    async def expect(self, t: str, timeout: float = 8.0, **match: Any) -> dict[str, Any]:
        async def loop() -> dict[str, Any]:
            while True:
                msg = json.loads(await self.ws.recv())
                self.seen.append(msg)
                if msg["t"] == "ping":
                    await self.send(t="pong", at=msg["at"])
                    continue
                if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                    return msg
        return await asyncio.wait_for(loop(), timeout)

    async def close(self) -> None:
        await self.ws.close()


async def tab(server: Server, player: str | None, division: str = "open") -> Tab:
    t = Tab(await connect(server.url(player, division)))
    await t.expect("welcome")
    return t


async def matched_pair(server: Server, a: str, b: str) -> tuple[int, dict[str, Tab]]:
    ta, tb = await tab(server, a), await tab(server, b)
    await ta.send(t="queue")
    await tb.send(t="queue")
    ma = await ta.expect("matched")
    mb = await tb.expect("matched")
    assert ma["game"] == mb["game"] and {ma["color"], mb["color"]} == {"B", "W"}
    await ta.expect("state", game=ma["game"])
    await tb.expect("state", game=ma["game"])
    colors = {ma["color"]: ta, mb["color"]: tb}
    return ma["game"], colors


def test_duplicate_and_stale_moves(server: Server) -> None:
    async def run() -> None:
        gid, tabs = await matched_pair(server, "p1", "p2")
        b, w = tabs["B"], tabs["W"]
        await b.send(t="act", game=gid, kind="move", point="D4", version=0)
        ack = await b.expect("ack")
        assert (ack["seq"], ack["version"], ack["duplicate"]) == (1, 1, False)
        upd = await w.expect("update")
        assert upd["action"] == {"seq": 1, "color": "B", "kind": "move", "point": "D4"}
        await b.send(t="act", game=gid, kind="move", point="D4", version=0)  # resent
        again = await b.expect("ack")
        assert (again["seq"], again["version"], again["duplicate"]) == (1, 1, True)
        await b.send(t="act", game=gid, kind="move", point="Q16", version=0)  # stale
        stale = await b.expect("refused")
        assert (stale["code"], stale["version"]) == ("stale", 1)
        await w.send(t="act", game=gid, kind="move", point="Q16", version=1)
        assert (await w.expect("ack"))["version"] == 2
        # White saw exactly one update for move 1 (the resend was applied once)
        updates = [m for m in w.seen if m["t"] == "update" and m["action"]["seq"] == 1]
        assert len(updates) == 1
        await w.send(t="act", game=gid, kind="resign", version=2)
        ended = await b.expect("ended")
        assert (ended["result"], ended["reason"]) == ("B+R", "resign")
        await w.expect("ended")
        for t in (b, w):
            await t.close()
    asyncio.run(run())
    with open_context(server.db, actor="x") as ctx, ctx.work() as work:
        cfg = live.live_config(work, None)
        table = {r.line.player: (r.line.points, r.line.wins, r.line.games) for r in live.ladder_table(work, cfg, 1, "open")}
    black = "p1" if table["p1"][0] > 0 else "p2"
    white = "p2" if black == "p1" else "p1"
    assert table[black] == (2, 1, 1) and table[white] == (-2, 0, 1)


def test_two_tabs_of_one_player(server: Server) -> None:
    async def run() -> None:
        gid, tabs = await matched_pair(server, "t1", "t2")
        b1, w = tabs["B"], tabs["W"]
        player = await _player_of(b1)
        b2 = await tab(server, player)  # a second tab of Black
        await b2.send(t="join", game=gid)
        await b2.expect("state", game=gid)
        await b2.send(t="act", game=gid, kind="move", point="C3", version=0)
        assert (await b2.expect("ack"))["version"] == 1
        upd1 = await b1.expect("update")  # the first tab sees its own player's move
        assert upd1["action"]["point"] == "C3"
        await b1.close()  # closing one tab: Black is still on the platform
        await asyncio.sleep(0.3)
        await w.send(t="sync", game=gid)
        state = await w.expect("state", game=gid)
        assert state["clocks"]["B"]["connected"] is True
        await b2.close()
        pres = await w.expect("presence", game=gid)  # now Black is away; White is told
        assert pres["clocks"]["B"]["connected"] is False
        assert 0 < pres["clocks"]["B"]["escape_in"] <= 120
        await w.close()
    asyncio.run(run())


async def _player_of(t: Tab) -> str:
    return str(next(m for m in t.seen if m["t"] == "welcome")["player"])


def test_reconnection_with_resync(server: Server) -> None:
    async def run() -> None:
        gid, tabs = await matched_pair(server, "r1", "r2")
        b, w = tabs["B"], tabs["W"]
        white = await _player_of(w)
        await w.close()
        await b.send(t="act", game=gid, kind="move", point="D4", version=0)  # while White is away
        await b.expect("ack")
        w2 = await tab(server, white)
        welcome = next(m for m in w2.seen if m["t"] == "welcome")
        assert welcome["games"] == [gid]  # the server tells the returning player their game
        await w2.send(t="join", game=gid)
        state = await w2.expect("state", game=gid)
        assert state["version"] == 1 and state["moves"][0]["point"] == "D4"
        assert state["clocks"]["W"]["connected"] is True
        await w2.send(t="act", game=gid, kind="move", point="Q16", version=1)
        assert (await w2.expect("ack"))["version"] == 2
        await b.close()
        await w2.close()
    asyncio.run(run())


def test_kill_9_mid_game_and_restart_with_the_game_intact(db: str) -> None:
    srv = Server(db)
    srv.start()
    try:
        async def first() -> tuple[int, str, str, float]:
            gid, tabs = await matched_pair(srv, "k1", "k2")
            b, w = tabs["B"], tabs["W"]
            await b.send(t="act", game=gid, kind="move", point="D4", version=0)
            await b.expect("ack")
            await w.send(t="act", game=gid, kind="move", point="Q16", version=1)
            await w.expect("ack")
            await b.send(t="sync", game=gid)
            state = await b.expect("state", game=gid)
            return gid, await _player_of(b), await _player_of(w), state["clocks"]["B"]["main"]
        gid, black, white, main_before = asyncio.run(first())
        srv.kill9()  # no clean shutdown: only what was committed survives
        time.sleep(3.0)  # the outage, which nobody may be charged for
        srv.start()

        async def second() -> None:
            b, w = await tab(srv, black), await tab(srv, white)
            for t in (b, w):
                assert next(m for m in t.seen if m["t"] == "welcome")["games"] == [gid]
                await t.send(t="join", game=gid)
            state = await b.expect("state", game=gid)
            await w.expect("state", game=gid)
            assert state["version"] == 2 and [m["point"] for m in state["moves"]] == ["D4", "Q16"]
            # Black's clock ran only while a server was up: well under the 3 s outage is used
            assert main_before - state["clocks"]["B"]["main"] < 1.5
            await b.send(t="act", game=gid, kind="move", point="C3", version=2)
            assert (await b.expect("ack"))["version"] == 3
            assert (await w.expect("update"))["action"]["point"] == "C3"
            await b.close()
            await w.close()
        asyncio.run(second())
    finally:
        srv.stop()


def fast_db(folder: Path) -> str:
    """Seed 000 with a 3 × 1 s clock and a 1 s absence limit, so the server's own clock can end
    games within a test: flags and escapes are settled by the housekeeping loop, not by moves."""
    text = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
    start = text.index("[stages.time_control]")
    end = text.index("[[stages]]", start)
    fast = text[:start] + (
        "[stages.time_control]\nmain_minutes = 0\nbyoyomi_periods = 3\nbyoyomi_seconds = 1\n"
        "loss_on_time = true\n[stages.disconnection]\ndisconnection_after_seconds = 1\n"
        "max_disconnections = 2\nmax_total_absence_seconds = 1\n\n"
    ) + text[end:]
    url = f"sqlite:///{folder / 'fast.sqlite'}"
    with open_context(url, actor="测试裁判") as ctx, ctx.work() as work:
        create_event_from_text(work, fast, loads(fast, "fast.toml"))
    return url


def test_the_server_clock_flags_and_the_ladder_is_written_before_anyone_is_told(tmp_path: Path) -> None:
    srv = Server(fast_db(tmp_path))
    srv.start()
    try:
        async def run() -> tuple[str, str]:
            gid, tabs = await matched_pair(srv, "f1", "f2")
            b, w = tabs["B"], tabs["W"]
            ended = await w.expect("ended", game=gid)  # Black never moves: 3 × 1 s used up
            assert (ended["result"], ended["reason"]) == ("W+T", "time")
            with open_context(srv.db, actor="x") as ctx, ctx.work() as work:
                cfg = live.live_config(work, None)
                lines = {r.line.player: r.line.points for r in live.ladder_table(work, cfg, 1, "open")}
                assert live.game_sgf(work, gid)  # the record is stored too
            names = await _player_of(b), await _player_of(w)
            await b.expect("ended", game=gid)
            for t in (b, w):
                await t.close()
            assert lines == {names[0]: -2, names[1]: 2}
            return names

        asyncio.run(run())
    finally:
        srv.stop()


def test_an_absent_player_escapes_and_both_were_told_the_time_left(tmp_path: Path) -> None:
    srv = Server(fast_db(tmp_path))
    srv.start()
    try:
        async def run() -> None:
            gid, tabs = await matched_pair(srv, "e1", "e2")
            b, w = tabs["B"], tabs["W"]
            await b.send(t="act", game=gid, kind="move", point="D4", version=0)
            await b.expect("ack")
            await w.close()  # White leaves the platform for good
            pres = await b.expect("presence", game=gid)
            assert pres["clocks"]["W"]["connected"] is False
            assert 0 <= pres["clocks"]["W"]["escape_in"] <= 1.0
            ended = await b.expect("ended", game=gid)
            assert (ended["result"], ended["reason"]) == ("B+F", "escape")
            await b.close()
            with open_context(srv.db, actor="x") as ctx, ctx.work() as work:
                cfg = live.live_config(work, None)
                rows = {r.line.player: (r.line.points, r.line.escapes) for r in live.ladder_table(work, cfg, 1, "open")}
            black = await _player_of(b)
            white = "e2" if black == "e1" else "e1"
            assert rows == {black: (2, 0), white: (-2, 1)}

        asyncio.run(run())
    finally:
        srv.stop()


def test_a_spectator_watches_but_cannot_play(server: Server) -> None:
    async def run() -> None:
        gid, tabs = await matched_pair(server, "s1", "s2")
        viewer = await tab(server, None)  # no ticket: a spectator
        await viewer.send(t="join", game=gid)
        assert (await viewer.expect("state", game=gid))["version"] == 0
        await viewer.send(t="act", game=gid, kind="move", point="D4", version=0)
        assert (await viewer.expect("error"))["code"] == "not_your_game"
        await viewer.send(t="queue")
        assert (await viewer.expect("error"))["code"] == "not_signed_in"
        await tabs["B"].send(t="act", game=gid, kind="move", point="D4", version=0)
        seen = await viewer.expect("update", game=gid)
        assert seen["action"]["point"] == "D4" and seen["version"] == 1
        for t in (viewer, tabs["B"], tabs["W"]):
            await t.close()
    asyncio.run(run())


def test_a_forged_ticket_is_refused(server: Server) -> None:
    async def run() -> None:
        ws = await connect(f"ws://127.0.0.1:{server.port}/live/ws?ticket=forged.ticket")
        msg = json.loads(await ws.recv())
        assert (msg["t"], msg["code"]) == ("error", "bad_ticket")
        await ws.close()
    asyncio.run(run())


def test_an_expired_ticket_is_refused_and_a_fresh_one_is_served(server: Server) -> None:
    """Tickets end TICKET_SECONDS after issue; the refusal closes with 4401 (the page renews)."""
    base = f"ws://127.0.0.1:{server.port}/live/ws?ticket="
    old = URLSafeSerializer(SECRET, salt=TICKET_SALT).dumps({"p": "e1", "n": "E1", "d": "open"})  # before expiry

    async def run() -> None:
        for ticket in (issue_ticket(SECRET, "e1", "E1", "open", now=time.time() - TICKET_SECONDS - 1), old):
            ws = await connect(base + ticket)
            msg = json.loads(await ws.recv())
            assert (msg["t"], msg["code"]) == ("error", "ticket_expired")
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4401
        ws = await connect(base + issue_ticket(SECRET, "e1", "E1", "open", now=time.time() - TICKET_SECONDS + 60))
        msg = json.loads(await ws.recv())
        assert (msg["t"], msg["player"]) == ("welcome", "e1")
        await ws.close()
    asyncio.run(run())


def test_a_silent_connection_is_dropped_and_a_move_brings_the_player_back(server: Server) -> None:
    """The test server drops a connection silent for 3 s; the absence starts at its last frame."""

    async def run() -> None:
        gid, tabs = await matched_pair(server, "q1", "q2")
        b, w = tabs["B"], tabs["W"]
        # Black stops answering pings (reads nothing) while White keeps answering.
        pres = await w.expect("presence", game=gid, timeout=10.0)
        while pres["clocks"]["B"]["connected"]:
            pres = await w.expect("presence", game=gid, timeout=10.0)
        assert pres["clocks"]["B"]["absence"] >= 3.0  # dated from the last frame, not from now
        await b.send(t="act", game=gid, kind="move", point="D4", version=0)  # Black is back
        # Black's socket holds the pings it ignored; the ack follows them
        ack = await b.expect("ack", timeout=10.0)
        assert ack["version"] == 1 and not ack["duplicate"]
        upd = await w.expect("update", game=gid)
        assert upd["clocks"]["B"]["connected"] is True
        assert upd["clocks"]["B"]["disconnections"] == 0  # a few seconds: not a disconnection
        for t in (b, w):
            await t.close()

    asyncio.run(run())


def test_two_passes_then_both_accept_the_count(server: Server) -> None:
    async def run() -> None:
        gid, tabs = await matched_pair(server, "c1", "c2")
        b, w = tabs["B"], tabs["W"]
        await b.send(t="act", game=gid, kind="pass", version=0)
        await b.expect("ack")
        await w.send(t="act", game=gid, kind="pass", version=1)
        scoring = await w.expect("update", game=gid, version=2)
        # An empty board: all 361 points shared, 180½ each; Black needs 184¼ (komi 3¾ stones),
        # so White wins by 3¾ stones = 7.5 points.
        assert scoring["phase"] == "scoring" and scoring["count"]["result"] == "W+7.5"
        await b.send(t="act", game=gid, kind="reject", version=2)  # play on instead
        assert (await b.expect("update", game=gid, version=3))["phase"] == "playing"
        await w.expect("update", game=gid, version=3)
        await b.send(t="act", game=gid, kind="pass", version=3)
        await b.expect("ack")
        await w.send(t="act", game=gid, kind="pass", version=4)
        await w.expect("update", game=gid, version=5)
        await b.send(t="act", game=gid, kind="accept", version=5)
        await b.expect("ack")
        await w.send(t="act", game=gid, kind="accept", version=6)
        ended = await b.expect("ended", game=gid)
        assert (ended["result"], ended["reason"]) == ("W+7.5", "score")
        for t in (b, w):
            await t.close()

    asyncio.run(run())
