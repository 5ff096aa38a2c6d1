"""The simulated players of `yisai bench live` (``yisai.live.bench``): each client process signs
its players in with a ticket, queues them, and plays seeded random legal moves (checked on a
local board), timing every action from send to its ``ack``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the board loads in the client processes, not at import
    from yisai.game.board import Board


@dataclass
class Stats:
    """What one client process saw (times are ``time.monotonic``, one clock for every process)."""

    acks: list[tuple[float, float]] = field(default_factory=list)  # (when, round trip)
    games_done: int = 0
    matched: int = 0  # players seated in a game
    seated: Any = None  # shared counter of seated players (all client processes)
    errors: list[str] = field(default_factory=list)


def default_clients(games: int) -> int:
    """Client processes for 2 × games sockets: about 2,500 sockets each, at most 4."""
    return max(1, min(4, -(-2 * games // 2500)))


async def player(
    url: str, seed: int, moves: int, stats: Stats, deadline: float, think: float,
    gate: Any,
) -> None:
    import asyncio
    import json
    import random

    from websockets.asyncio.client import connect

    from yisai.game.board import BLACK, WHITE, Board

    rng = random.Random(seed)
    clock = time.monotonic
    async with gate:
        # no keep-alive pings of its own: a browser sends none (the server pings, the client answers)
        ws = await connect(url, max_queue=None, open_timeout=120, ping_interval=None)
    async with ws:
        async def send(**msg: object) -> None:
            await ws.send(json.dumps(msg))

        await send(t="queue")
        board = Board(19)
        me = game = None
        version = 0
        sent_at: float | None = None

        async def maybe_move() -> None:
            nonlocal sent_at
            if me is None or board.to_move != me or sent_at is not None:
                return
            if think > 0:  # a human-like pause: uniform in [0, 2 × think]
                sent_at = -1.0  # reserved while thinking
                await asyncio.sleep(min(rng.uniform(0, 2 * think), max(deadline - time.monotonic(), 0.0)))
            sent_at = clock()
            if version >= moves:
                await send(t="act", game=game, kind="resign", version=version)
                return
            empties = [p for p in range(len(board.color)) if board.color[p] == 0]
            for _ in range(30):
                p = rng.choice(empties)
                if board.is_legal(me, p):
                    await send(t="act", game=game, kind="move", point=board.gtp(p), version=version)
                    return
            await send(t="act", game=game, kind="resign", version=version)

        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(deadline - time.monotonic(), 0.01))
            except TimeoutError:
                break
            msg = json.loads(raw)
            t = msg["t"]
            if t == "ping":
                await send(t="pong", at=msg["at"])
            elif t == "matched":
                me, game = (BLACK if msg["color"] == "B" else WHITE), msg["game"]
                stats.matched += 1
                if stats.seated is not None:
                    with stats.seated.get_lock():
                        stats.seated.value += 1
            elif t == "state" and msg.get("game") == game:  # resync: rebuild from the moves
                board = Board(19)
                for a in msg["moves"]:
                    _apply(board, a)
                version = msg["version"]
                await maybe_move()
            elif t == "ack":
                if sent_at is not None and sent_at >= 0:
                    done_at = clock()
                    stats.acks.append((done_at, done_at - sent_at))
                sent_at = None
            elif t == "update" and msg["version"] == version + 1:
                _apply(board, msg["action"])
                version = msg["version"]
                await maybe_move()
            elif t == "ended":
                if me == BLACK:
                    stats.games_done += 1
                return
            elif t in ("refused", "error"):
                stats.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                sent_at = None


def client_process(index: int, count: int, bases: list[str], secret: str, games: int, seed: int,
                    moves: int, think: float, deadline: float, seated: Any, steady_from: Any,
                    out: Any) -> None:
    """One client process: players index, index + count, … of the 2 × games (its own event
    loop, uvloop when installed, so one loop's stalls do not delay every socket)."""
    import asyncio
    import gc
    import resource
    from collections import Counter

    from yisai.live.metrics import Histogram
    from yisai.live.server import issue_ticket

    stats = Stats(seated=seated)
    lag_all, lag_steady = Histogram(), Histogram()

    async def watch_lag() -> None:  # this loop's own stalls count in its round trips
        while True:
            began = time.monotonic()
            await asyncio.sleep(0.01)
            lag = max(time.monotonic() - began - 0.01, 0.0)
            lag_all.add(lag)
            if steady_from.value and began >= steady_from.value:
                lag_steady.add(lag)

    async def main() -> list[Any]:
        gate = asyncio.Semaphore(max(200 // count, 20))  # handshakes at once (all processes: ~200)
        watcher = asyncio.get_running_loop().create_task(watch_lag())
        players = range(index, 2 * games, count)
        done = await asyncio.gather(*(
            player(bases[i % len(bases)] + issue_ticket(secret, f"b{i}", f"B{i}", "open"),
                    seed * 100_003 + i, moves, stats, deadline, think, gate)
            for i in players), return_exceptions=True)  # fmt: skip
        watcher.cancel()
        return list(done)

    gc.set_threshold(50_000, 20, 100)  # the clients' own pauses would count as latency
    try:
        import uvloop

        done = uvloop.run(main())
        loop_kind = "uvloop"
    except ImportError:
        done = asyncio.run(main())
        loop_kind = "asyncio"
    stats.errors.extend(repr(d) for d in done if isinstance(d, BaseException))
    codes = Counter(e.split(":", 1)[0] for e in stats.errors)
    out.put({"index": index, "acks": stats.acks, "games_done": stats.games_done, "matched": stats.matched,
             "errors": len(stats.errors), "codes": dict(codes), "error_sample": stats.errors[:3],
             "cpu_s": time.process_time(), "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
             "lag_all": lag_all, "lag_steady": lag_steady, "loop": loop_kind})  # fmt: skip


__all__ = ["Stats", "client_process", "default_clients", "player"]


def _apply(board: Board, action: dict[str, Any]) -> None:
    """Play one action of the server's record on the client's own board (moves and passes)."""
    from yisai.game.board import BLACK, WHITE

    color = BLACK if action["color"] == "B" else WHITE
    if action["kind"] == "move":
        board.play(color, board.parse_gtp(action["point"]))
    elif action["kind"] == "pass":
        board.pass_move(color)
