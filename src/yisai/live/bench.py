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
from pathlib import Path
from typing import Any

import typer

from yisai.i18n import tr
from yisai.live.bench_client import client_process, default_clients

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
    router = create_live_router(ctx, LiveOptions(
        secret=env["YISAI_BENCH_SECRET"], wave_seconds=0.5,
        ping_seconds=float(env.get("YISAI_BENCH_PING", "5")),
        alive_seconds=float(env.get("YISAI_BENCH_ALIVE", "2")),
        silence_seconds=60.0, tick_seconds=0.5, spectator_delay=0.0,
        redis_url=env.get("YISAI_BENCH_REDIS") or None,
        redis_prefix=env.get("YISAI_BENCH_PREFIX", "yisai:bench"),
        owner=env.get("YISAI_BENCH_OWNER", f"bench:{os.getpid()}")))  # fmt: skip
    hub = router.hub  # type: ignore[attr-defined]
    # YISAI_BENCH_PROFILE=file: a cProfile of the event loop's thread over the steady state
    profile = None
    if env.get("YISAI_BENCH_PROFILE"):
        import cProfile

        profile = cProfile.Profile()

    @app.get("/bench/stats")
    async def stats(reset: int = 0) -> dict[str, Any]:  # the server's own timings (yisai.live.metrics)
        out = hub.metrics.snapshot()
        if reset:
            hub.metrics.reset()
            if profile is not None:
                profile.enable()
        elif profile is not None:
            profile.disable()
            profile.dump_stats(env["YISAI_BENCH_PROFILE"])
        return out

    app.include_router(router)
    return app


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



class _Store:
    """The bench's database: a fresh SQLite file, or a fresh schema in the PostgreSQL database
    given by ``--db`` (dropped afterwards), holding one event made from the regulation."""

    def __init__(self, db: str | None, folder: Path, regulation: Path) -> None:
        from yisai.services.context import open_context
        from yisai.services.events import create_event

        self.scratch = bool(db and db.startswith("postgresql"))
        if self.scratch:
            from yisai.services.maintenance import scratch_database

            assert db is not None
            self.url = scratch_database(db, "yisai_bench")
        else:
            self.url = f"sqlite:///{folder / 'bench.sqlite'}"
        with open_context(self.url, actor="bench") as ctx, ctx.work() as work:
            create_event(work, regulation)

    def drop(self) -> None:
        if self.scratch:
            from yisai.services.maintenance import drop_scratch

            drop_scratch(self.url)


def _start_server(env: dict[str, str], log: Path) -> tuple[Any, int]:
    import socket
    import subprocess
    import sys

    from yisai.live.server import UVICORN_WS

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    ws = [arg for key, value in UVICORN_WS.items()  # the settings `yisai serve` runs with
          for arg in ("--" + key.replace("_", "-"), str(value).lower() if isinstance(value, bool) else str(value))]
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "yisai.live.bench:make_bench_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--ws-max-queue", "1024", "--backlog", "4096", *ws],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"),
    )  # fmt: skip
    return proc, port


def _wait_up(proc: Any, port: int, log: Path) -> None:
    import socket

    limit = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise RuntimeError(log.read_text())
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if time.monotonic() > limit:
            raise RuntimeError("server did not start")
        time.sleep(0.05)



def _server_stats(port: int, reset: bool = False) -> dict[str, Any]:
    """The server's own timings (``/bench/stats``: act → ack, commits, loop lag, collector)."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/stats?reset={int(reset)}", timeout=30) as r:
            return dict(json.loads(r.read()))
    except Exception as exc:  # a busy or dead server: say so instead of failing the whole run
        return {"error": repr(exc)}


def _sleep_until(moment: float) -> None:
    time.sleep(max(moment - time.monotonic(), 0.0))


def run_bench(
    games: int, moves: int, seconds: float, seed: int, regulation: Path | None = None,
    think: float = 0.0, processes: int = 1, redis: str | None = None, db: str | None = None,
    clients: int | None = None,
) -> dict[str, Any]:
    import multiprocessing
    import queue
    import secrets
    import subprocess
    import tempfile

    from yisai.live.metrics import Histogram

    if processes > 1 and not redis:
        raise ValueError("--processes > 1 needs --redis")
    count = clients or default_clients(games)
    secret = "bench-secret"
    prefix = f"yisai:bench:{secrets.token_hex(4)}"
    load_before = os.getloadavg()
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        store = _Store(db, Path(tmp), regulation or SEED_000)
        procs: list[tuple[Any, int]] = []
        children: list[Any] = []
        try:
            for i in range(processes):
                env = dict(os.environ, YISAI_BENCH_DB=store.url, YISAI_BENCH_SECRET=secret,
                           YISAI_BENCH_OWNER=f"bench-{i}", YISAI_BENCH_PREFIX=prefix,
                           YISAI_BENCH_REDIS=redis or "")  # fmt: skip
                procs.append(_start_server(env, Path(tmp) / f"server-{i}.log"))
            for i, (proc, port) in enumerate(procs):
                _wait_up(proc, port, Path(tmp) / f"server-{i}.log")
            bases = [f"ws://127.0.0.1:{port}/live/ws?ticket=" for _, port in procs]
            seated, steady_from, out = spawn.Value("i", 0), spawn.Value("d", 0.0), spawn.Queue()
            cpu0 = [_proc_cpu(p.pid) for p, _ in procs]
            started = time.monotonic()
            deadline = started + seconds
            children = [spawn.Process(target=client_process, daemon=True, args=(
                k, count, bases, secret, games, seed, moves, think, deadline, seated, steady_from, out))
                for k in range(count)]  # fmt: skip
            for child in children:
                child.start()
            seated_at = 0.0
            while time.monotonic() < deadline - 1 and not seated_at:
                time.sleep(0.1)
                if seated.value >= 2 * games:
                    seated_at = time.monotonic()
            steady: tuple[float, list[float], int] | None = None
            steady_clients: list[float] = []
            server_stats: list[dict[str, Any]] = []
            burst_stats: list[dict[str, Any]] = []
            if seated_at and seated_at + 10 < deadline - 2:
                # the steady state: from 10 s after the last player was seated (connecting 2 × N
                # sockets and seating them is a burst no real day has: players arrive over hours)
                _sleep_until(seated_at + 10)
                steady_from.value = time.monotonic()
                # what the servers saw from their start to here (the seating burst), then reset
                burst_stats = [_server_stats(port, reset=True) for _, port in procs]
                began = time.monotonic()
                s_cpu0 = [_proc_cpu(p.pid) for p, _ in procs]
                c_cpu0 = [_proc_cpu(c.pid) for c in children]
                _sleep_until(deadline - 1)
                secs = time.monotonic() - began
                steady = (secs, [_proc_cpu(p.pid) - c for (p, _), c in zip(procs, s_cpu0, strict=True)], 0)
                steady_clients = [_proc_cpu(c.pid) - c0 for c, c0 in zip(children, c_cpu0, strict=True)]
                server_stats = [_server_stats(port) for _, port in procs]
            results: list[dict[str, Any]] = []
            for _ in children:
                try:
                    results.append(out.get(timeout=max(deadline - time.monotonic(), 0) + 120))
                except queue.Empty:
                    break
            for child in children:
                child.join(30)
            elapsed = time.monotonic() - started
            server_cpu = [_proc_cpu(p.pid) - c for (p, _), c in zip(procs, cpu0, strict=True)]
            server_mb = [_proc_peak_mb(p.pid) for p, _ in procs]
            logs = [(Path(tmp) / f"server-{i}.log").read_text(errors="replace")[-2000:] for i in range(processes)]
        finally:
            for child in children:
                if child.is_alive():
                    child.kill()
            for proc, _ in procs:
                proc.terminate()
            for proc, _ in procs:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:  # thousands of sockets closing: do not wait longer
                    proc.kill()
                    proc.wait(30)
            store.drop()
            if redis:
                _clean_redis(redis, prefix)
    load_after = os.getloadavg()
    acks = [a for r in results for a in r["acks"]]
    rtts = sorted(r for _, r in acks)
    pick = (lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))]) if rtts else (lambda q: 0.0)
    times = sorted(t for t, _ in acks)
    window = times[-1] - times[0] if len(times) > 1 else elapsed
    steady_rtts = sorted(r for t, r in acks if steady_from.value and t >= steady_from.value)
    spick = (lambda q: steady_rtts[min(len(steady_rtts) - 1, int(q * len(steady_rtts)))]) if steady_rtts \
        else (lambda q: 0.0)  # fmt: skip
    if steady is not None:
        steady = (steady[0], steady[1], len(steady_rtts))
    # the seating burst: every ack before the steady state (2 × N sockets connecting at once)
    burst = sorted(r for t, r in acks if not steady_from.value or t < steady_from.value)
    lag_all, lag_steady = Histogram(), Histogram()
    for r in results:
        lag_all.merge(r["lag_all"])
        lag_steady.merge(r["lag_steady"])
    codes: dict[str, int] = {}
    for r in results:
        for code, n in r["codes"].items():
            codes[code] = codes.get(code, 0) + n
    return {
        "games": sum(r["games_done"] for r in results), "moves": len(rtts), "seconds": elapsed,
        "connected": sum(r["matched"] for r in results), "moves_per_s": len(rtts) / window if window else 0.0,
        "p50_ms": pick(0.50) * 1000, "p99_ms": pick(0.99) * 1000,
        "steady_moves": len(steady_rtts), "steady_p50_ms": spick(0.50) * 1000,
        "steady_p99_ms": spick(0.99) * 1000,
        "max_ms": (rtts[-1] * 1000 if rtts else 0.0),
        "mean_ms": statistics.fmean(rtts) * 1000 if rtts else 0.0,
        "server_cpu_s": server_cpu, "server_peak_mb": server_mb,
        "client_cpu_s": [r["cpu_s"] for r in results], "client_peak_mb": [r["peak_mb"] for r in results],
        "client_steady_cpu_s": steady_clients, "client_loop": results[0]["loop"] if results else "",
        "client_lag": lag_all.summary(), "client_lag_steady": lag_steady.summary(),
        "server_stats": server_stats, "burst_stats": burst_stats, "clients": count, "client_results": len(results),
        "errors": float(sum(r["errors"] for r in results)), "error_codes": codes,
        "error_sample": [e for r in results for e in r["error_sample"]][:3],
        "load_before": load_before, "load_after": load_after, "steady": steady,
        "seated_s": seated_at - started if seated_at else None, "burst_moves": len(burst),
        "burst_p99_ms": burst[min(len(burst) - 1, int(0.99 * len(burst)))] * 1000 if burst else 0.0,
        "burst_over_1s": sum(1 for r in burst if r > 1.0),
        "logs": logs,
    }  # fmt: skip


def _clean_redis(url: str, prefix: str) -> None:
    import redis

    r = redis.Redis.from_url(url)
    try:
        for key in r.scan_iter(f"{prefix}:*"):
            r.delete(key)
    finally:
        r.close()


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
        processes: int = typer.Option(1, "--processes", min=1, max=4, help="服务器进程数 (>1 需 --redis)"),
        redis: str = typer.Option(None, "--redis", help="Redis 地址 (多进程时必需), 如 redis://127.0.0.1:6379/0"),
        db: str = typer.Option(None, "--db", help="PostgreSQL 地址 (建临时 schema, 用后删除); 默认临时 SQLite 文件"),
        clients: int = typer.Option(0, "--clients", min=0, max=8,
                                    help="客户端进程数 (0 = 每约 2500 个连接一个, 最多 4)"),
    ) -> None:
        """线上对局基准: 模拟棋手经本机 WebSocket 下真实着手, 打印每秒着数与往返时间."""
        typer.echo(tr(
            f"线上对局基准: {games} 局同时进行, 每局 {moves} 着, 平均思考 {think} 秒, 最长 {seconds:.0f} 秒, 种子 {seed}",
            f"live benchmark: {games} concurrent games, {moves} moves each, mean think {think} s, "
            f"at most {seconds:.0f} s, seed {seed}",
        ))  # fmt: skip
        if processes > 1 and not redis:
            raise typer.BadParameter(tr("多进程需要 --redis", "several processes need --redis"))
        r = run_bench(games, moves, seconds, seed, regulation, think, processes, redis, db, clients or None)
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
        typer.echo(tr(
            f"稳定阶段 (全部入座 10 秒后) {r['steady_moves']:.0f} 着: p50 {r['steady_p50_ms']:.1f} ms, "
            f"p99 {r['steady_p99_ms']:.1f} ms",
            f"steady state (from 10 s after all were seated) {r['steady_moves']:.0f} moves: "
            f"p50 {r['steady_p50_ms']:.1f} ms, p99 {r['steady_p99_ms']:.1f} ms"))  # fmt: skip
        if r["seated_s"] is not None:
            typer.echo(tr(
                f"入座阶段: 开始后 {r['seated_s']:.1f} 秒全部入座; 此前及之后 10 秒 {r['burst_moves']} 着: "
                f"p99 {r['burst_p99_ms']:.1f} ms, 超过 1 秒 {r['burst_over_1s']} 着",
                f"seating burst: all seated {r['seated_s']:.1f} s after the start; {r['burst_moves']} moves until 10 s "
                f"later: p99 {r['burst_p99_ms']:.1f} ms, {r['burst_over_1s']} over 1 s"))  # fmt: skip
        if r["steady"]:
            secs, cpus, n = r["steady"]
            typer.echo(tr(
                f"稳定阶段 {secs:.0f} 秒: {n / secs:.0f} 着/秒; 服务器 CPU " + ", ".join(f"{c / secs * 100:.0f}%" for c in cpus)
                + f" 一核; 每着 {sum(cpus) / n * 1000 if n else 0:.2f} ms (含心跳等固定开销)",
                f"steady state {secs:.0f} s: {n / secs:.0f} moves/s; server CPU "
                + ", ".join(f"{c / secs * 100:.0f}%" for c in cpus)
                + f" of a core; {sum(cpus) / n * 1000 if n else 0:.2f} ms per move (pings and the rest included)"))  # fmt: skip
        total_cpu = sum(r["server_cpu_s"])
        per_move = total_cpu / r["moves"] * 1000 if r["moves"] else 0.0
        typer.echo(tr(f"入座棋手 {r['connected']:.0f} / {2 * games}; 服务器 CPU 每着 {per_move:.2f} ms (所有进程合计)",
                      f"players seated {r['connected']:.0f} / {2 * games}; server CPU per move {per_move:.2f} ms "
                      f"(all processes)"))  # fmt: skip
        for i, (cpu, mb) in enumerate(zip(r["server_cpu_s"], r["server_peak_mb"], strict=True)):
            typer.echo(tr(f"服务器进程 {i}: CPU {cpu:.1f} 秒 ({cpu / r['seconds'] * 100:.0f}% 一核), 内存峰值 {mb:.0f} MB",
                          f"server process {i}: CPU {cpu:.1f} s ({cpu / r['seconds'] * 100:.0f}% of a core), "
                          f"peak memory {mb:.0f} MB"))  # fmt: skip
        _echo_clients(r)
        _echo_server_stats(r, burst=True)
        _echo_server_stats(r)
        lb, la = r["load_before"], r["load_after"]
        typer.echo(tr(f"负载 (1/5/15 分钟): 开始 {lb[0]:.1f}/{lb[1]:.1f}/{lb[2]:.1f}, 结束 {la[0]:.1f}/{la[1]:.1f}/{la[2]:.1f}; "
                      f"CPU 核数 {os.cpu_count()}",
                      f"load average (1/5/15 min): before {lb[0]:.1f}/{lb[1]:.1f}/{lb[2]:.1f}, after "
                      f"{la[0]:.1f}/{la[1]:.1f}/{la[2]:.1f}; {os.cpu_count()} CPUs"))  # fmt: skip
        if r["errors"]:
            by_code = ", ".join(f"{c} {n}" for c, n in sorted(r["error_codes"].items(), key=lambda x: -x[1]))
            typer.echo(tr(f"错误/拒绝: {r['errors']:.0f} ({by_code})", f"errors/refusals: {r['errors']:.0f} ({by_code})"))
            for e in r["error_sample"]:
                typer.echo(f"  {e[:200]}")
            for i, text in enumerate(r["logs"]):
                if text.strip():
                    typer.echo(tr(f"服务器进程 {i} 日志末尾:", f"end of server process {i}'s log:"))
                    typer.echo(text)
        verdict = (r["steady_p99_ms"] if r["steady_moves"] else r["p99_ms"]) < 100
        typer.echo(tr(f"p99 目标 < 100 ms: {'达标' if verdict else '未达标'}",
                      f"p99 target < 100 ms: {'met' if verdict else 'NOT met'}"))  # fmt: skip


def _echo_clients(r: dict[str, Any]) -> None:
    cpus, mbs, steady = r["client_cpu_s"], r["client_peak_mb"], r["client_steady_cpu_s"]
    secs = r["steady"][0] if r["steady"] else 0.0
    share = ", ".join(f"{c / secs * 100:.0f}%" for c in steady) if secs else "—"
    typer.echo(tr(
        f"客户端 {r['clients']} 个进程 ({r['client_loop']}): CPU " + ", ".join(f"{c:.1f}" for c in cpus)
        + f" 秒 (稳定阶段 {share} 一核), 内存峰值 " + ", ".join(f"{m:.0f}" for m in mbs) + " MB",
        f"clients: {r['clients']} processes ({r['client_loop']}): CPU " + ", ".join(f"{c:.1f}" for c in cpus)
        + f" s (steady state {share} of a core), peak memory " + ", ".join(f"{m:.0f}" for m in mbs) + " MB"))
    lag, lag_s = r["client_lag"], r["client_lag_steady"]
    typer.echo(tr(
        f"客户端事件循环延迟: 全程 p99 {lag['p99_ms']:.1f} ms, 最大 {lag['max_ms']:.0f} ms; "
        f"稳定阶段 p99 {lag_s['p99_ms']:.1f} ms, 最大 {lag_s['max_ms']:.0f} ms",
        f"client event-loop lag: whole run p99 {lag['p99_ms']:.1f} ms, max {lag['max_ms']:.0f} ms; "
        f"steady state p99 {lag_s['p99_ms']:.1f} ms, max {lag_s['max_ms']:.0f} ms"))  # fmt: skip
    if r["client_results"] < r["clients"]:
        typer.echo(tr(f"有 {r['clients'] - r['client_results']} 个客户端进程没有交回结果",
                      f"{r['clients'] - r['client_results']} client processes returned no result"))  # fmt: skip


def _echo_server_stats(r: dict[str, Any], burst: bool = False) -> None:
    """The servers' own timings over the steady state (``yisai.live.metrics``), or over the
    seating burst before it (``burst``: the main lines only)."""
    labels = {"act": ("收到着手→确认", "act received → ack"), "act_lock": ("等对局锁", "wait for the game lock"),
              "act_commit": ("等入库", "wait for the commit"), "commit": ("一次组提交", "one group commit"),
              "commit_sql": ("  其中语句", "  of which statements"), "commit_end": ("  其中提交 (fsync)", "  of which COMMIT (fsync)"),
              "loop_lag": ("事件循环延迟", "event-loop lag"),
              "loop_cpu": ("  每 10 ms 睡眠间循环线程所用 CPU", "  loop thread CPU per 10 ms sleep"), "tick": ("一次巡检", "one housekeeping pass"),
              "ping": ("一批心跳", "one ping batch")}  # fmt: skip
    if burst:
        labels = {k: labels[k] for k in ("act", "act_lock", "act_commit", "commit", "loop_lag")}
    for i, st in enumerate(r["burst_stats" if burst else "server_stats"]):
        if "error" in st:
            typer.echo(tr(f"服务器进程 {i} 计时不可用: {st['error']}", f"server process {i} timings unavailable: {st['error']}"))
            continue
        phase = tr("入座阶段", "seating-burst") if burst else tr("稳定阶段", "steady-state")
        typer.echo(tr(f"服务器进程 {i} {phase}计时 ({st['seconds']:.0f} 秒, ms):",
                      f"server process {i} {phase} timings ({st['seconds']:.0f} s, ms):"))  # fmt: skip
        for key, (zh, en) in labels.items():
            h = st.get(key)
            if not h or not h["n"]:
                continue
            line = f"n {h['n']}, p50 {h['p50_ms']:.1f}, p99 {h['p99_ms']:.1f}, p99.9 {h['p999_ms']:.1f}, max {h['max_ms']:.1f}"
            typer.echo(f"  {tr(zh, en)}: {line}")
        if burst:
            continue
        b = st["batch"]
        gcs = "; ".join(f"gen{g} n {h['n']} max {h['max_ms']:.0f} total {h['total_ms']:.0f}"
                        for g, h in enumerate(st["gc"]) if h["n"])  # fmt: skip
        typer.echo(tr(f"  组提交大小: 平均 {b['mean']:.1f}, 最大 {b['max']:.0f}; 垃圾回收: {gcs or '无'}",
                      f"  group commit size: mean {b['mean']:.1f}, max {b['max']:.0f}; collector: {gcs or 'none'}"))
