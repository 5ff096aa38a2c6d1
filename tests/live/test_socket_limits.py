"""Live sockets are capped per address and per player's ticket, and frames are limited (issue
44, item 6), against a real uvicorn on 127.0.0.1. On the code before this change 300 ticketless
sockets from one address were all accepted and frames of 15 MB were parsed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.live.test_websocket import Server, Tab, new_db, tab
from yisai.live.server import MAX_FRAME, UVICORN_WS, _address_key


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(new_db(tmp_path_factory.mktemp("capped")), YISAI_LIVE_TEST_PER_ADDRESS="10",
                 YISAI_LIVE_TEST_PER_PLAYER="3")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


async def _refused(url: str) -> tuple[dict[str, object], int | None]:
    """The one message a refused socket gets, and the close code."""
    async with connect(url) as ws:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        return message, ws.close_code


def test_sockets_per_player_are_capped_and_a_closed_one_frees_its_place(capped: Server) -> None:
    async def run() -> None:
        tabs = [await tab(capped, "p-cap") for _ in range(3)]
        message, code = await _refused(capped.url("p-cap"))
        assert message["code"] == "too_many_connections" and code == 4429
        assert "连接过多" in str(message["message"])
        other = await tab(capped, "p-other")  # another player on the same address is not refused
        await tabs[0].close()
        await asyncio.sleep(0.3)
        tabs[0] = await tab(capped, "p-cap")  # the closed tab's place is free again
        for t in [*tabs, other]:
            await t.close()
    asyncio.run(run())


def test_sockets_per_address_are_capped(capped: Server) -> None:
    async def run() -> None:
        await asyncio.sleep(0.3)  # the previous test's sockets are gone
        open_ones: list[Tab] = [await tab(capped, None) for _ in range(10)]  # spectators: no ticket
        message, code = await _refused(capped.url(None))
        assert message["code"] == "too_many_connections" and code == 4429
        message, code = await _refused(capped.url("p-late"))  # with a ticket too: the address is full
        assert code == 4429
        for t in open_ones:
            await t.close()
        await asyncio.sleep(0.3)
        again = await tab(capped, None)
        await again.close()
    asyncio.run(run())


def test_a_frame_past_the_limit_closes_the_socket(capped: Server) -> None:
    assert UVICORN_WS["ws_max_size"] == MAX_FRAME  # `yisai serve` has uvicorn refuse it unassembled

    async def run() -> None:
        t = await tab(capped, "p-frame")
        await t.send(t="focus", game=1, lost=0, note="x" * 1000)  # an ordinary frame is fine
        await t.ws.send(json.dumps({"t": "focus", "note": "x" * (MAX_FRAME + 1)}))
        answer = await t.expect("error")
        assert answer["code"] == "frame_too_large"
        with pytest.raises(ConnectionClosed):
            await t.expect("welcome", timeout=10)
        assert t.ws.close_code == 1009
    asyncio.run(run())


def test_yisai_serve_has_uvicorn_refuse_a_big_frame(tmp_path: Path) -> None:
    """The real server: a 1 MB frame never reaches the app (uvicorn closes with 1009)."""
    from tests.web.server import Server as Serve
    from yisai.services.context import open_context
    from yisai.services.events import list_events

    url = new_db(tmp_path)
    with open_context(url) as ctx, ctx.work() as work:
        event = list_events(work)[0]
    with Serve(Path(url.removeprefix("sqlite:///")), now="2025-05-06T10:30", args=("--qualifier", str(event.id))) as srv:
        async def run() -> None:
            async with connect(f"ws://127.0.0.1:{srv.port}/live/ws", max_size=None) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                await ws.send("x" * (1024 * 1024))
                with pytest.raises(ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), 20)
                assert ws.close_code == 1009
        asyncio.run(run())


def test_an_ipv6_prefix_counts_as_one_address() -> None:
    assert _address_key("2001:db8:1:2::1") == _address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert _address_key("2001:db8:1:3::1") != _address_key("2001:db8:1:2::1")
    assert _address_key("203.0.113.7") == "203.0.113.7"
