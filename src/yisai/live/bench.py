"""`yisai bench live --games N`: simulated players over loopback WebSockets playing real moves.

The bench starts the live server (uvicorn, one worker) as a child process on a fresh SQLite file
holding an event made from seed 000 (Beijing time fixed inside period 1), then runs 2 × N
clients in this process: each signs in with a ticket, queues, is matched by the server's waves,
and plays seeded random legal moves (checked on a local board) until the game reaches
``--moves`` actions, when the player to move resigns. Every action is timed from send to its
``ack`` (which the server sends only after the action is committed). Printed: games, moves,
moves per second, p50/p99/max round trip, and CPU seconds and peak memory of the server and
the client process. Bounded by ``--games`` (≤ 5,000) and ``--seconds``.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import typer

from yisai.i18n import tr

BENCH_NOW = "2025-05-06T10:30:00"
MAX_GAMES = 5000
SEED_000 = Path(__file__).resolve().parents[3] / "regulations" / "2025-shanhai-cup.toml"


def make_bench_app():  # uvicorn --factory entry point
    """The server side of the bench (run in the child process)."""
    from datetime import datetime

    from fastapi import FastAPI

    from yisai.live.server import LiveOptions, create_live_router
    from yisai.services.context import open_context

    env = os.environ
    moment = datetime.fromisoformat(env.get("YISAI_BENCH_NOW", BENCH_NOW))
    ctx = open_context(env["YISAI_BENCH_DB"], actor="bench", now=lambda: moment)
    app = FastAPI()
    app.include_router(create_live_router(ctx, LiveOptions(
        secret=env["YISAI_BENCH_SECRET"], wave_seconds=0.5, ping_seconds=5.0,
        silence_seconds=60.0, tick_seconds=0.5)))  # fmt: skip
    return app


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    games_done: int = 0
    errors: list[str] = field(default_factory=list)


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _proc_peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _player(
    url: str, seed: int, moves: int, stats: Stats, deadline: float, think: float = 0.0
) -> None:
    import asyncio
    import json
    import random

    from websockets.asyncio.client import connect

    from yisai.game.board import BLACK, WHITE, Board

    rng = random.Random(seed)
    async with connect(url, max_queue=None) as ws:
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
                await asyncio.sleep(rng.uniform(0, 2 * think))
            sent_at = time.perf_counter()
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
            elif t == "state" and msg.get("game") == game:  # resync: rebuild from the moves
                board = Board(19)
                for a in msg["moves"]:
                    color = BLACK if a["color"] == "B" else WHITE
                    if a["kind"] == "move":
                        board.play(color, board.parse_gtp(a["point"]))
                    elif a["kind"] == "pass":
                        board.pass_move(color)
                version = msg["version"]
                await maybe_move()
            elif t == "ack":
                if sent_at is not None and sent_at >= 0:
                    stats.rtts.append(time.perf_counter() - sent_at)
                sent_at = None
            elif t == "update" and msg["version"] == version + 1:
                a = msg["action"]
                color = BLACK if a["color"] == "B" else WHITE
                if a["kind"] == "move":
                    board.play(color, board.parse_gtp(a["point"]))
                elif a["kind"] == "pass":
                    board.pass_move(color)
                version = msg["version"]
                await maybe_move()
            elif t == "ended":
                if me == BLACK:
                    stats.games_done += 1
                return
            elif t in ("refused", "error"):
                stats.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                sent_at = None


def run_bench(
    games: int, moves: int, seconds: float, seed: int, regulation: Path | None = None,
    think: float = 0.0,
) -> dict[str, float]:
    import asyncio
    import resource
    import socket
    import subprocess
    import sys
    import tempfile

    from yisai.live.server import issue_ticket
    from yisai.services.context import open_context
    from yisai.services.events import create_event

    secret = "bench-secret"
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        with open_context(db, actor="bench") as ctx, ctx.work() as work:
            create_event(work, regulation or SEED_000)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        env = dict(os.environ, YISAI_BENCH_DB=db, YISAI_BENCH_SECRET=secret)
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "yisai.live.bench:make_bench_app",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
             "--ws-max-queue", "1024"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            limit = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(err)
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if time.monotonic() > limit:
                    raise RuntimeError("server did not start")
                time.sleep(0.05)
            base = f"ws://127.0.0.1:{port}/live/ws?ticket="
            stats = Stats()
            server_cpu0 = _proc_cpu(proc.pid)
            client_cpu0 = time.process_time()
            started = time.perf_counter()

            async def main() -> None:
                deadline = time.monotonic() + seconds
                tasks = [
                    asyncio.create_task(_player(base + issue_ticket(secret, f"b{i}", f"B{i}", "open"),
                                                seed * 100_003 + i, moves, stats, deadline, think))
                    for i in range(2 * games)
                ]  # fmt: skip
                done = await asyncio.gather(*tasks, return_exceptions=True)
                stats.errors.extend(repr(d) for d in done if isinstance(d, BaseException))

            asyncio.run(main())
            elapsed = time.perf_counter() - started
            server_cpu = _proc_cpu(proc.pid) - server_cpu0
            server_mb = _proc_peak_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(20)
    rtts = sorted(stats.rtts)
    pick = (lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))]) if rtts else (lambda q: 0.0)
    return {
        "games": stats.games_done, "moves": len(rtts), "seconds": elapsed,
        "moves_per_s": len(rtts) / elapsed if elapsed else 0.0,
        "p50_ms": pick(0.50) * 1000, "p99_ms": pick(0.99) * 1000,
        "max_ms": (rtts[-1] * 1000 if rtts else 0.0),
        "mean_ms": statistics.fmean(rtts) * 1000 if rtts else 0.0,
        "server_cpu_s": server_cpu, "server_peak_mb": server_mb,
        "client_cpu_s": time.process_time() - client_cpu0,
        "client_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "errors": float(len(stats.errors)),
    }  # fmt: skip


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("live")
    def live_bench(
        games: int = typer.Option(50, "--games", min=1, max=MAX_GAMES, help="同时进行的对局数"),
        moves: int = typer.Option(60, "--moves", min=1, max=400, help="每局着数 (之后认输)"),
        seconds: float = typer.Option(120.0, "--seconds", min=1, max=1800, help="最长运行秒数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        regulation: Path = typer.Option(None, "--regulation", help="规程文件 (默认 山海杯 2025)"),
        think: float = typer.Option(0.0, "--think", min=0, max=60,
                                    help="平均思考秒数 (0 = 立即应着, 测最大吞吐)"),
    ) -> None:
        """线上对局基准: 模拟棋手经本机 WebSocket 下真实着手, 打印每秒着数与往返时间."""
        typer.echo(tr(
            f"线上对局基准: {games} 局同时进行, 每局 {moves} 着, 平均思考 {think} 秒, 最长 {seconds:.0f} 秒, 种子 {seed}",
            f"live benchmark: {games} concurrent games, {moves} moves each, mean think {think} s, "
            f"at most {seconds:.0f} s, seed {seed}",
        ))  # fmt: skip
        r = run_bench(games, moves, seconds, seed, regulation, think)
        typer.echo(tr(
            f"完成 {r['games']:.0f} 局, {r['moves']:.0f} 着, {r['seconds']:.1f} 秒: {r['moves_per_s']:,.0f} 着/秒",
            f"finished {r['games']:.0f} games, {r['moves']:.0f} moves in {r['seconds']:.1f} s: "
            f"{r['moves_per_s']:,.0f} moves/s",
        ))  # fmt: skip
        typer.echo(tr(
            f"往返时间 (发出到确认, 含入库): p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, 最大 {r['max_ms']:.1f} ms",
            f"round trip (send to ack, stored first): p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
            f"max {r['max_ms']:.1f} ms",
        ))  # fmt: skip
        per_move = r["server_cpu_s"] / r["moves"] * 1000 if r["moves"] else 0.0
        typer.echo(tr(f"服务器 CPU 每着 {per_move:.2f} ms", f"server CPU per move {per_move:.2f} ms"))
        typer.echo(tr(
            f"服务器进程: CPU {r['server_cpu_s']:.1f} 秒, 内存峰值 {r['server_peak_mb']:.0f} MB; "
            f"客户端进程: CPU {r['client_cpu_s']:.1f} 秒, 内存峰值 {r['client_peak_mb']:.0f} MB",
            f"server process: CPU {r['server_cpu_s']:.1f} s, peak memory {r['server_peak_mb']:.0f} MB; "
            f"client process: CPU {r['client_cpu_s']:.1f} s, peak memory {r['client_peak_mb']:.0f} MB",
        ))  # fmt: skip
        if r["errors"]:
            typer.echo(tr(f"错误/拒绝: {r['errors']:.0f}", f"errors/refusals: {r['errors']:.0f}"))
        verdict = r["p99_ms"] < 100
        typer.echo(tr(f"p99 目标 < 100 ms: {'达标' if verdict else '未达标'}",
                      f"p99 target < 100 ms: {'met' if verdict else 'NOT met'}"))  # fmt: skip
