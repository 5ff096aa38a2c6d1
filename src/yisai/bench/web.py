"""`yisai bench web`: public standings and pairings pages under many polling clients.

A 2,000-player division (seed 002's 甲组 rules, fixed seed) after 7 rounds, with round 8
paired and published; the real server (`yisai serve`, one worker by default) on a loopback
port; N clients (default 200) each open a page (standings or pairings), then poll its table
every second with If-None-Match, as the browser's poll loop does. Optionally a referee enters
round-8 results through the API meanwhile, so caches turn over as they do in a real round.
Bounded: a fixed number of clients for a fixed number of seconds. Each page is requested once
before the clock starts (the first rendering of a table is not what polling clients see).
Prints median/p99 latency and requests per second.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Coroutine
from datetime import date, datetime
from pathlib import Path
from typing import Any

import typer

from yisai.bench.wrk import WrkReport, run_wrk

REGULATION = Path(__file__).resolve().parents[3] / "regulations" / "2025-xiaoqiwang.toml"
NOW = datetime(2025, 4, 10, 9, 0)


def build_event(db: Path | str, players: int, rounds: int, seed: int) -> None:
    """Register ``players`` in 甲组, play ``rounds`` rounds (results by strength), pair the next.

    ``db`` is a SQLite path or a database URL (a URL must not pass through ``Path``: it would
    lose the ``//``)."""
    from yisai.formats.result_sheet import ResultSheet, SheetRow
    from yisai.record.parse import parse_result
    from yisai.registry.person import Gender, Player
    from yisai.services.accounts import create_user
    from yisai.services.context import open_context
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.identity import Actor, Role
    from yisai.services.publishing import publish_round
    from yisai.services.result_sheets import import_results
    from yisai.services.rounds import pair, round_view, set_round_count
    from yisai.services.settings import Settings
    from yisai.vocabulary.rank import Rank

    rng = random.Random(seed)
    director = Actor.cli("bench", Role.CHIEF_REFEREE)
    with open_context(Settings(database=str(db), clock=lambda: NOW)) as ctx:
        with ctx.work(actor=director) as work:
            event = create_event(work, REGULATION, seed=seed)
            for i in range(players):
                register_player(work, event, Player(
                    id="", name=f"棋手{i:04d}", gender=Gender.MALE if i % 2 else Gender.FEMALE,
                    birth_date=date(2013 + i % 2, 1 + i % 12, 1 + i % 28), rank=Rank(rng.randint(-10, 5)),
                    certificate_no=f"B{i:05d}", region="中国大陆", province="浙江", city=f"城市{i % 40}",
                ), division="jia", fee_paid=True)
            # 规程: 暂定7轮, 视报名情况而定 — the chief referee fixes the count for this field.
            set_round_count(work, event.id, "jia", max(7, rounds + 1), note="bench")
        strength: dict[str, float] = {}
        for n in range(1, rounds + 2):
            with ctx.work(actor=director) as work:
                pair(work, str(event.id), "jia", n)
                publish_round(work, str(event.id), "jia", n)
            if n > rounds:
                break
            with ctx.work(actor=director) as work:
                view = round_view(work, str(event.id), "jia", n)
                rows: list[SheetRow] = []
                for r in view.rounds:
                    for g in r.games:
                        if g.is_bye:
                            continue
                        b = strength.setdefault(g.black, rng.gauss(0, 1))
                        w = strength.setdefault(g.white or "", rng.gauss(0, 1))
                        word = "黑胜" if b + rng.gauss(0, 1) > w else "白胜"
                        rows.append(SheetRow("bench", "bench", len(rows) + 2, g.board, str(g.board), "",
                                             view.names[g.black], view.names[g.white or ""], word,
                                             parse_result(word)))
                import_results(work, str(event.id), "jia", n, ResultSheet("bench", rows))
        with ctx.work(actor=Actor.system()) as work:
            create_user(work, "bench-referee", "bench", Role.REFEREE, "bench-referee-pw")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its children (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return sum(int(x) for x in fields[11:15]) / ticks
    except (OSError, ValueError, IndexError):
        return None


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Connection:
    """A minimal keep-alive HTTP/1.1 client: one connection per simulated browser, so the load
    generator costs little next to the server it measures (a general client library spends more
    time in its connection pool than the server spends answering a 304)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept-Encoding: gzip"]
            lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
            if body:
                lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
            try:
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
                await self.writer.drain()
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.reader = self.writer = None
                if attempt == 2:
                    raise
                continue
            status_line, *rest = head.decode("latin-1").split("\r\n")
            found = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in rest if x)}
            length = int(found.get("content-length", "0"))
            data = await self.reader.readexactly(length) if length else b""
            if found.get("connection", "").lower() == "close":
                self.writer.close()
                self.reader = self.writer = None
            return int(status_line.split(" ", 2)[1]), found, data
        raise ConnectionError(path)


async def _load(port: int, clients: int, seconds: float, interval: float, writes: float,
                rounds: int) -> dict[str, list[float]]:
    latencies: dict[str, list[float]] = {"page": [], "poll": [], "write": []}
    errors: list[str] = []
    stop = time.monotonic() + seconds

    async def client(k: int) -> None:
        http = _Connection("127.0.0.1", port)
        what = ("standings/jia", f"rounds/jia/{rounds + 1}")[k % 2]
        page, fragment = f"/events/1/{what}", f"/events/1/{what}/fragment"
        await asyncio.sleep(interval * k / clients)  # clients arrive spread over one interval
        t = time.perf_counter()
        try:
            status, _h, _b = await http.request("GET", page)
            latencies["page"].append(time.perf_counter() - t)
            if status != 200:
                errors.append(f"{page} {status}")
        except (OSError, asyncio.IncompleteReadError) as exc:
            errors.append(f"{page} {exc.__class__.__name__}")
        etag = None
        while time.monotonic() < stop:
            await asyncio.sleep(interval)
            t = time.perf_counter()
            try:
                status, headers, _b = await http.request("GET", fragment, {"If-None-Match": etag} if etag else {})
            except (OSError, asyncio.IncompleteReadError) as exc:
                errors.append(f"{fragment} {exc.__class__.__name__}")
                continue
            latencies["poll"].append(time.perf_counter() - t)
            if status == 200:
                etag = headers.get("etag")
            elif status != 304:
                errors.append(f"{fragment} {status}")

    async def referee() -> None:
        import json

        http = _Connection("127.0.0.1", port)
        _s, _h, body = await http.request("POST", "/api/token", body=json.dumps(
            {"login": "bench-referee", "password": "bench-referee-pw"}).encode())
        token = json.loads(body)["token"]
        board = 1
        while time.monotonic() < stop and writes > 0:
            await asyncio.sleep(1 / writes)
            t = time.perf_counter()
            status, _h, _b = await http.request(
                "POST", f"/api/events/1/rounds/jia/{rounds + 1}/results", {"Authorization": f"Bearer {token}"},
                json.dumps({"board": board, "result": "黑胜", "version": 1}).encode())
            latencies["write"].append(time.perf_counter() - t)
            if status != 200:
                errors.append(f"write {status}")
            board += 1

    await asyncio.gather(*(client(k) for k in range(clients)), referee())
    if errors:
        typer.echo(f"errors: {len(errors)} (first: {errors[:3]})")
    return latencies


def _wrk_with_referee(base: str, port: int, tables: tuple[str, ...], connections: int, seconds: float,
                      writes: float, rounds: int, folder: Path) -> tuple[dict[str, list[float]], WrkReport]:
    """wrk polls the tables while the referee (the Python generator without clients) enters
    results, so the caches turn over as in the open-loop run."""
    lat: dict[str, list[float]] = {"page": [], "poll": [], "write": []}
    referee = threading.Thread(target=lambda: lat.update(_run_loop(_load(port, 0, seconds, 1.0, writes, rounds))))
    referee.start()
    try:
        report = run_wrk(base, tables, connections, seconds, folder)
    finally:
        referee.join()
    return lat, report


def _run_loop(main: Coroutine[Any, Any, dict[str, list[float]]]) -> dict[str, list[float]]:
    """The load generator on uvloop when installed (as the live bench's clients): it shares the
    machine with the server, so the less it costs, the more of the cores the server gets."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def web(
    players: int = typer.Option(2000, "--players", help="棋手人数"),
    rounds: int = typer.Option(7, "--rounds", help="已赛轮数 (下一轮已编排)"),
    clients: int = typer.Option(200, "--clients", min=1, max=1000, help="并发轮询客户端数"),
    seconds: float = typer.Option(30.0, "--seconds", min=1, max=600, help="持续时间 (秒)"),
    interval: float = typer.Option(1.0, "--interval", min=0.1, help="每个客户端的轮询间隔 (秒)"),
    writes: float = typer.Option(1.0, "--writes", min=0, help="测试期间每秒录入的成绩数 (0 = 不录入)"),
    workers: int = typer.Option(1, "--workers", min=1, max=8, help="服务器进程数"),
    refresh: float = typer.Option(2.0, "--refresh", min=0.0, help="服务器的 --refresh (表格最多每N秒重新生成)"),
    seed: int = typer.Option(1, "--seed"),
    db: Path = typer.Option(None, "--db", help="沿用已建好的数据库 (默认: 临时新建)"),
    generator: str = typer.Option("python", "--generator",
                                  help="负载发生器: python (每个客户端定时轮询) 或 wrk (闭环, 测服务器吞吐)"),
    connections: int = typer.Option(50, "--connections", min=2, max=1000, help="wrk 的连接数"),
) -> None:
    """网站负载: 名次与对阵页面在多个客户端轮询下的延迟 (median/p99) 与每秒请求数."""
    if generator not in ("python", "wrk"):
        raise typer.BadParameter("python 或 wrk", param_hint="--generator")
    if generator == "wrk" and shutil.which("wrk") is None:
        typer.echo("未找到 wrk: apt-get install wrk (scripts/setup.sh 会安装) / wrk not found", err=True)
        raise typer.Exit(2)
    folder = tempfile.TemporaryDirectory(prefix="yisai-bench-web-")
    try:
        if db is None or not db.exists():
            target = db or Path(folder.name) / "bench.sqlite"
            t = time.perf_counter()
            build_event(target, players, rounds, seed)
            typer.echo(f"event built: {players} players, {rounds} rounds + round {rounds + 1} paired "
                       f"({time.perf_counter() - t:.0f} s)")
            db = target
        port = _free_port()
        env = {**os.environ, "YISAI_NOW": NOW.isoformat(), "YISAI_WEB_SECRET": "bench"}
        log = (Path(folder.name) / "server.log").open("w")
        server = subprocess.Popen([sys.executable, "-m", "yisai.cli.app", "serve", "--db", str(db),
                                   "--port", str(port), "--workers", str(workers), "--refresh", str(refresh)],
                                  env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/events", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            for path in ("standings/jia", f"rounds/jia/{rounds + 1}"):  # warm-up: first render of each table
                urllib.request.urlopen(f"{base}/events/1/{path}", timeout=120).close()
            tables = ("/events/1/standings/jia/fragment", f"/events/1/rounds/jia/{rounds + 1}/fragment")
            if generator == "wrk":  # every worker renders its own tables: a run not counted first
                run_wrk(base, tables, connections, 3, Path(folder.name))
            cpu_before = _cpu_seconds(server.pid)
            t = time.perf_counter()
            if generator == "wrk":
                lat, report = _wrk_with_referee(base, port, tables, connections, seconds, writes, rounds,
                                                Path(folder.name))
            else:
                lat, report = _run_loop(_load(port, clients, seconds, interval, writes, rounds)), None
            elapsed = time.perf_counter() - t
            cpu_after = _cpu_seconds(server.pid)
        finally:
            os.kill(server.pid, signal.SIGINT)
            server.wait(timeout=20)
            log.close()
        problems = [ln for ln in (Path(folder.name) / "server.log").read_text().splitlines() if "Error" in ln]
        if problems:
            typer.echo("server errors: " + " | ".join(problems[-3:]))
        every = lat["page"] + lat["poll"] + lat["write"]
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        who = f"wrk, {connections} connections" if report else f"{clients} clients, poll every {interval:g} s"
        typer.echo(f"{who}, {seconds:g} s, {writes:g} result(s)/s, "
                   f"{workers} worker(s), tables re-rendered at most every {refresh:g} s")
        count = len(every) + (report.requests if report else 0)
        typer.echo(f"requests: {count} in {elapsed:.1f} s = {count / elapsed:.0f} req/s "
                   f"(machine load average {load:.1f})")
        if cpu_before is not None and cpu_after is not None and workers == 1 and count:
            used = cpu_after - cpu_before
            typer.echo(f"server CPU: {used:.1f} s = {used / count * 1000:.2f} ms per request")
        if report:
            typer.echo(f" poll: n={report.requests:6d}  median {report.median * 1000:7.1f} ms  "
                       f"p99 {report.p99 * 1000:7.1f} ms  (wrk: {report.per_second:.0f} req/s, "
                       f"{report.bytes_per_request:.0f} B a request, {report.errors} errors)")
        for name, values in (("all", every), ("page", lat["page"]), ("poll", lat["poll"]), ("write", lat["write"])):
            if report and name == "all":
                continue
            if values:
                typer.echo(f"{name:>5}: n={len(values):6d}  median {statistics.median(values) * 1000:7.1f} ms  "
                           f"p99 {_percentile(values, 0.99) * 1000:7.1f} ms  max {max(values) * 1000:7.1f} ms")
    finally:
        folder.cleanup()


def register(app: typer.Typer) -> None:
    app.command("web")(web)
