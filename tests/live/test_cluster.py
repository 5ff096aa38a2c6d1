"""Two live server processes behind one Redis (127.0.0.1:6379) and one store: a player on the
process that does not own the game plays it, a spectator on the other process gets the news,
kill -9 of the owner hands the game to the survivor once the ownership key expires (no
acknowledged move lost, the outage not charged), and spectators are delayed, players not.

Each test uses its own Redis key prefix; servers are uvicorn children on free loopback ports,
stopped by pid. The store is SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tests.conftest import REGULATIONS
from tests.live.test_websocket import Server, Tab, tab
from yisai.services.context import open_context
from yisai.services.events import create_event

REDIS = "redis://127.0.0.1:6379/0"
TTL = 2.0  # the ownership key's life in these tests: a takeover comes 2–3 s after a crash


def redis_up() -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", 6379)) == 0


@pytest.fixture
def redis() -> Iterator[str]:
    """A key prefix of its own; its keys are removed afterwards."""
    if not redis_up():
        if os.environ.get("CI"):
            pytest.fail("CI is set but Redis is not answering on 127.0.0.1:6379 (scripts/services.sh)")
        pytest.skip("Redis not running on 127.0.0.1:6379")
    prefix = f"yisai-test:{uuid.uuid4().hex[:10]}"
    yield prefix
    import redis as sync_redis

    r = sync_redis.Redis.from_url(REDIS)
    for key in r.scan_iter(f"{prefix}:*"):
        r.delete(key)
    r.close()


def event_db(url: str) -> str:
    with open_context(url, actor="测试裁判") as ctx, ctx.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    return url


def pair(url: str, prefix: str, **env: str) -> tuple[Server, Server]:
    common = dict(YISAI_LIVE_TEST_REDIS=REDIS, YISAI_LIVE_TEST_PREFIX=prefix,
                  YISAI_LIVE_TEST_TTL=str(TTL), YISAI_LIVE_TEST_SILENCE="30", **env)
    a = Server(url, YISAI_LIVE_TEST_OWNER="A", **common)
    b = Server(url, YISAI_LIVE_TEST_OWNER="B", **common)
    a.start()
    b.start()
    return a, b


def stop(*servers: Server) -> None:
    for s in servers:
        s.stop()
        print(s.log_text()[-4000:])  # shown by pytest when the test failed


def label(process: str) -> str:
    """A process's configured name ("A"), without the token it adds at every start."""
    name, _, token = process.rpartition("/")
    assert name and len(token) == 8, process
    return name


async def until(condition: Any, what: str, timeout: float = 15.0) -> None:
    """Wait for ``condition()`` (polled every 50 ms, in a thread: it may query a server or the
    database) instead of sleeping a guessed time; fail naming what never happened."""
    limit = time.monotonic() + timeout
    while not await asyncio.to_thread(condition):
        if time.monotonic() > limit:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


def alive_at(url: str, game: int) -> float:
    """When the owning process last stamped ``game`` alive (epoch seconds)."""
    with open_context(url, actor="x") as ctx, ctx.work() as work:
        return float(work.session.execute(text("SELECT alive_at FROM live_games WHERE id = :g"),
                                          {"g": game}).scalar() or 0.0)


def owner_of(url: str, game: int) -> str:
    with open_context(url, actor="x") as ctx, ctx.work() as work:
        return label(str(work.session.execute(text("SELECT owner FROM live_games WHERE id = :g"),
                                              {"g": game}).scalar()))


async def matched_across(a: Server, b: Server, pa: str, pb: str) -> tuple[int, dict[str, Tab], dict[str, tuple[str, str]]]:
    """``pa`` on process A, ``pb`` on process B; both queue and are paired by the leader.
    Returns the game, each colour's tab, and each colour's (process, player)."""
    ta, tb = await tab(a, pa), await tab(b, pb)
    await ta.send(t="queue")
    await tb.send(t="queue")
    ma, mb = await ta.expect("matched"), await tb.expect("matched")
    assert ma["game"] == mb["game"] and {ma["color"], mb["color"]} == {"B", "W"}
    await ta.expect("state", game=ma["game"])
    await tb.expect("state", game=ma["game"])
    return (ma["game"], {ma["color"]: ta, mb["color"]: tb},
            {ma["color"]: ("A", pa), mb["color"]: ("B", pb)})


def test_a_player_on_the_other_process_plays_and_a_spectator_there_watches(db_url: str, redis: str) -> None:
    url = event_db(db_url)
    a, b = pair(url, redis)
    try:
        async def run() -> None:
            gid, tabs, where = await matched_across(a, b, "x1", "x2")
            owner = owner_of(url, gid)
            assert owner == where["B"][0]  # the game goes to the process holding Black
            assert where["W"][0] != owner  # so White plays through the other process
            viewers = {"A": await tab(a, None), "B": await tab(b, None)}
            for v in viewers.values():
                await v.send(t="join", game=gid)
                assert (await v.expect("state", game=gid))["version"] == 0
            black, white = tabs["B"], tabs["W"]
            await black.send(t="act", game=gid, kind="move", point="D4", version=0)
            assert (await black.expect("ack", game=gid))["version"] == 1
            assert (await white.expect("update", game=gid))["action"]["point"] == "D4"
            await white.send(t="act", game=gid, kind="move", point="Q16", version=1)
            assert (await white.expect("ack", game=gid))["version"] == 2
            assert (await black.expect("update", game=gid, version=2))["action"]["point"] == "Q16"
            for v in viewers.values():  # the spectator on the non-owner process too
                got = await v.expect("update", game=gid, version=2)
                assert got["action"] == {"seq": 2, "color": "W", "kind": "move", "point": "Q16"}
            # a resent move through the non-owner is applied once
            await white.send(t="act", game=gid, kind="move", point="Q16", version=1)
            assert (await white.expect("ack", game=gid))["duplicate"] is True
            await black.send(t="act", game=gid, kind="resign", version=2)
            ended = await white.expect("ended", game=gid)
            assert (ended["result"], ended["reason"]) == ("W+R", "resign")
            await viewers["B" if owner == "A" else "A"].expect("ended", game=gid)
            for t in (*tabs.values(), *viewers.values()):
                await t.close()
        asyncio.run(run())
        with open_context(url, actor="x") as ctx, ctx.work() as work:
            moves = work.session.execute(text("SELECT seq, point FROM live_moves WHERE game_id = "
                                              "(SELECT max(id) FROM live_games) ORDER BY seq")).all()
        assert [m[0] for m in moves] == [1, 2, 3]  # D4, Q16, resign: the duplicate stored once
    finally:
        stop(a, b)


def test_kill_9_of_the_owner_the_other_process_takes_the_game_over(db_url: str, redis: str) -> None:
    url = event_db(db_url)
    a, b = pair(url, redis)
    servers = {"A": a, "B": b}
    try:
        async def run() -> None:
            gid, tabs, where = await matched_across(a, b, "k1", "k2")
            owner = owner_of(url, gid)
            survivor_name = "B" if owner == "A" else "A"
            survivor = servers[survivor_name]
            color_on_owner = "B" if where["B"][0] == owner else "W"  # this socket dies with it
            color_survivor = "W" if color_on_owner == "B" else "B"
            black, white = tabs["B"], tabs["W"]
            await black.send(t="act", game=gid, kind="move", point="D4", version=0)
            assert (await black.expect("ack", game=gid))["version"] == 1
            await white.send(t="act", game=gid, kind="move", point="Q16", version=1)
            assert (await white.expect("ack", game=gid))["version"] == 2
            await black.expect("update", game=gid, version=2)
            moved = time.time()
            await until(lambda: alive_at(url, gid) >= moved, "the owner stamps the game alive after the moves")
            killed_at = time.monotonic()
            servers[owner].kill9()
            # the player on the dead process reconnects to the survivor; the survivor takes over
            back = await tab(survivor, where[color_on_owner][1])
            await back.send(t="join", game=gid)
            state = await back.expect("state", game=gid, timeout=15)
            took = time.monotonic() - killed_at
            assert state["version"] == 2 and [m["point"] for m in state["moves"]] == ["D4", "Q16"]
            # Black to move: Black's clock was not charged for the outage
            black_left = state["clocks"]["B"]["main"]
            assert took >= TTL - 0.5  # not before the key expired
            assert black_left > 1800 - (took - TTL + 1.0) - 1.0, (black_left, took)
            movers = {color_on_owner: back, color_survivor: tabs[color_survivor]}
            await movers["B"].send(t="act", game=gid, kind="move", point="C3", version=2)
            assert (await movers["B"].expect("ack", game=gid, timeout=15))["version"] == 3
            assert (await movers["W"].expect("update", game=gid, version=3, timeout=15))["action"]["point"] == "C3"
            await movers["W"].send(t="act", game=gid, kind="resign", version=3)
            await movers["B"].expect("ended", game=gid, timeout=15)
            assert owner_of(url, gid) == survivor_name
            await back.close()
            await tabs[color_survivor].close()
        asyncio.run(run())
        with open_context(url, actor="x") as ctx, ctx.work() as work:
            rows = work.session.execute(text("SELECT seq, point FROM live_moves ORDER BY seq")).all()
        assert [r[0] for r in rows] == [1, 2, 3, 4]  # no acknowledged move lost, none doubled
    finally:
        stop(a, b)


def test_spectators_see_moves_only_after_the_delay_players_at_once(db_url: str, redis: str) -> None:
    delay = 1.5
    url = event_db(db_url)
    a, b = pair(url, redis, YISAI_LIVE_TEST_DELAY=str(delay))
    try:
        async def run() -> None:
            gid, tabs, _ = await matched_across(a, b, "d1", "d2")
            viewers = [await tab(a, None), await tab(b, None)]
            for v in viewers:
                await v.send(t="join", game=gid)
                st = await v.expect("state", game=gid)
                assert (st["version"], st["delay"]) == (0, delay)
            black, white = tabs["B"], tabs["W"]
            played = time.monotonic()
            await black.send(t="act", game=gid, kind="move", point="D4", version=0)
            await black.expect("ack", game=gid)
            await white.expect("update", game=gid, version=1)  # the player: at once
            assert time.monotonic() - played < delay / 2
            for v in viewers:  # a resync right after the move still shows the board before it
                await v.send(t="sync", game=gid)
                st = await v.expect("state", game=gid)
                assert st["version"] == 0 and st["moves"] == [] and st["to_move"] == "B"
            for v in viewers:
                upd = await v.expect("update", game=gid, version=1, timeout=5)
                assert time.monotonic() - played >= delay - 0.05
                assert upd["action"]["point"] == "D4"
            for v in viewers:  # after the delay the resync has the move
                await v.send(t="sync", game=gid)
                assert (await v.expect("state", game=gid))["version"] == 1
            for t in (*tabs.values(), *viewers):
                await t.close()
        asyncio.run(run())
    finally:
        stop(a, b)


def http_json(server: Server, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=30) as r:
        return dict(json.loads(r.read()))


def test_a_wave_seats_every_player_with_one_join_request_per_owner(db_url: str, redis: str) -> None:
    """Seating used to send one request per socket whose game is owned by the other process;
    thousands at once left some unanswered for seconds (``owner_unreachable``). A wave's joins
    now go as one ``join_many`` per owner, and every player still gets its game's state."""
    url = event_db(db_url)
    a, b = pair(url, redis)
    try:
        async def run() -> int:
            n, across = 12, 0
            for rnd in range(3):  # a busy machine may pair each process's players among themselves
                tabs = [await tab(a if i % 2 == 0 else b, f"w{rnd}x{i}") for i in range(2 * n)]
                for t in tabs:
                    await t.send(t="queue")
                games: dict[int, dict[str, str]] = {}
                for i, t in enumerate(tabs):
                    m = await t.expect("matched", timeout=15)
                    st = await t.expect("state", game=m["game"], timeout=15)
                    assert (st["version"], st["you"]) == (0, m["color"])
                    games.setdefault(m["game"], {})[m["color"]] = "A" if i % 2 == 0 else "B"
                assert len(games) == n and all(set(c) == {"B", "W"} for c in games.values())
                for gid, where in games.items():
                    assert owner_of(url, gid) == where["B"]  # Black's process owns the game
                across += sum(where["B"] != where["W"] for where in games.values())
                for t in tabs:
                    await t.close()
                if across:
                    break
            return across

        assert asyncio.run(run()) > 0  # some White players joined through the other process
        kinds = [http_json(s, "/test/cluster")["kinds"] for s in (a, b)]
        assert sum(k.get("join", 0) for k in kinds) == 0, kinds  # no join of its own per socket
        assert sum(k.get("join_many", 0) for k in kinds) >= 1, kinds
    finally:
        stop(a, b)


def test_a_slow_owner_serves_a_forwarded_move_once_and_it_is_not_refused(db_url: str, redis: str,
                                                                        tmp_path: Path) -> None:
    """The owner's event loop is blocked longer than ``request_seconds`` (0.5 s here): the
    other process asks again with the same request id, the owner serves the request once
    when it wakes (ignoring the repeats) and the player gets one ack, not a refusal."""
    url = event_db(db_url)
    a, b = pair(url, redis)
    servers = {"A": a, "B": b}
    try:
        async def run() -> None:
            gid, tabs, where = await matched_across(a, b, "s1", "s2")
            owner = owner_of(url, gid)
            version = 0
            remote = next(c for c, (p, _) in where.items() if p != owner)
            asker = where[remote][0]  # the process that forwards the remote player's move
            if remote == "W":  # Black (on the owner) moves first
                await tabs["B"].send(t="act", game=gid, kind="move", point="D4", version=0)
                await tabs["B"].expect("ack", game=gid)
                await tabs["W"].expect("update", game=gid, version=1)
                version = 1
            mark = tmp_path / "stalling"
            stall = asyncio.create_task(asyncio.to_thread(
                http_json, servers[owner], f"/test/stall?seconds=1.2&mark={urllib.parse.quote(str(mark))}"))
            await until(mark.exists, "the owner's event loop is blocked")
            player = tabs[remote]
            await player.send(t="act", game=gid, kind="move", point="Q16", version=version)
            ack = await player.expect("ack", game=gid, timeout=10)
            assert (ack["version"], ack["duplicate"]) == (version + 1, False)
            await stall

            def delivered() -> bool:  # every repeat reached the owner, every answer came back
                here, there = http_json(servers[owner], "/test/cluster"), http_json(servers[asker], "/test/cluster")
                return (here["kinds"].get("act", 0) >= there["sent"].get("act", 0) > 0
                        and there["kinds"].get("rep", 0) >= here["sent"].get("rep", 0))

            await until(delivered, "the owner received every repeat of the move and its answers arrived")
            with contextlib.suppress(TimeoutError):
                await player.expect("no-such-message", timeout=0.5)  # read what came in
            acks = [m for m in player.seen if m["t"] == "ack" and m.get("version") == version + 1]
            assert len(acks) == 1, acks
            assert not [m for m in player.seen if m["t"] in ("refused", "error")]
            for t in tabs.values():
                await t.close()
        asyncio.run(run())
    finally:
        stop(a, b)


@pytest.mark.parametrize("renamed", [False, True], ids=["killed", "killed-with-its-name-in-use-again"])
def test_a_player_queued_through_a_killed_process_is_not_paired(db_url: str, redis: str, renamed: bool) -> None:
    """A process killed while one of its players waited could not forward their ``leave``:
    the matching leader drops players whose process no longer listens, so the next player is
    not paired with someone who is not there. That holds when a process runs under the dead
    one's name (restarted as pid 1 of a container, say): here it is started before the kill,
    so the check cannot fall into the gap between the two."""
    import redis as sync_redis

    url = event_db(db_url)
    a, b = pair(url, redis)
    servers = {"A": a, "B": b}
    extra: list[Server] = []
    try:
        async def run() -> None:
            r = sync_redis.Redis.from_url(REDIS, decode_responses=True)
            try:
                limit = time.monotonic() + 10
                while not (leader := r.get(f"{redis}:matcher")) and time.monotonic() < limit:
                    await asyncio.sleep(0.1)
            finally:
                r.close()
            assert leader
            leader = label(leader)
            victim = servers["B" if leader == "A" else "A"]
            gone = await tab(victim, "q1")
            await gone.send(t="queue")
            await gone.expect("queued")
            await until(lambda: http_json(servers[leader], "/test/cluster")["kinds"].get("queue", 0) >= 1,
                        "the leader has the forwarded queue entry")
            if renamed:
                again = Server(url, **victim.env)  # the same name, YISAI_LIVE_TEST_OWNER
                again.start()
                extra.append(again)
                await (await tab(again, None)).close()  # up and listening
            victim.kill9()
            waiting = await tab(servers[leader], "q2")
            await waiting.send(t="queue")
            await waiting.expect("queued")
            with pytest.raises(TimeoutError):  # q1 is not there to be paired with
                await waiting.expect("matched", timeout=2.0)
            late = await tab(servers[leader], "q3")
            await late.send(t="queue")
            m2, m3 = await waiting.expect("matched"), await late.expect("matched")
            assert m2["game"] == m3["game"]
            assert {m2["opponent"], m3["opponent"]} == {"Q2", "Q3"}
            await waiting.close()
            await late.close()
        asyncio.run(run())
    finally:
        stop(a, b, *extra)
