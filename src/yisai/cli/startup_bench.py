"""`yisai bench startup`: how long a `yisai` command takes to start, in CPU seconds.

A referee enters results one by one, so start-up is paid per result. Each case runs as a fresh
process several times; the figure is the median CPU time (user + system) of the child, which the
machine's other load disturbs much less than wall time. Cases: ``--help`` (must never load the
store), ``result --help``, one real result entry on a prepared SQLite event, ``regulation show``
of a regulation file, and the standings of that event (the three commands issue #34 asks to
start in under 0.5 s of CPU on their own).

Each case is measured twice: started on its own (``python -m yisai.cli.app``: every import paid),
and handed to a resident process (``python -m yisai.cli.launch`` with one started beforehand, as
after a referee's first command): there the CPU is the caller's plus the forked child's (which
the resident process reports).

``--instructions`` runs each cold case once under valgrind's callgrind and prints the instructions
executed: the same count whatever else the shared machine is doing, so a change can be compared
with the one before it even under load (CPU seconds are not, on two busy cores).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import typer

from yisai.i18n import tr

REGULATION = Path(__file__).resolve().parents[3] / "regulations" / "2025-xiaoqiwang.toml"


def _prepare(db: Path, *, played: bool = False) -> None:
    """An event with four players and round 1 paired, so `yisai result` has a board to fill;
    ``played`` also enters board 2's result, so `yisai standings` has a played round to rank."""
    from datetime import date

    from yisai.registry.person import Gender, Player
    from yisai.services.context import open_context
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.round_results import record_result
    from yisai.services.rounds import pair
    from yisai.vocabulary import Rank

    with open_context(str(db), actor="bench", now=datetime(2025, 4, 10, 9)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATION, seed=1)
        for i in range(1, 5):
            register_player(w, event, Player(
                id="", name=f"棋手{i}", gender=Gender.MALE, birth_date=date(2013, 1, i),
                rank=Rank.parse("1段"), certificate_no=f"C{i}", region="中国大陆", province="浙江",
            ), division="jia")
        pair(w, event.id, "jia", 1)
        if played:
            record_result(w, event.id, "jia", 1, 2, "黑胜")


def _run(args: list[str], env: dict[str, str], module: str = "yisai.cli.app") -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", module, *args], env=env,
                          capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode("utf-8", "replace"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _instructions(args: list[str], env: dict[str, str]) -> int:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-m", "yisai.cli.app", *args], env=env,
                          capture_output=True, check=False)
    found = re.search(rb"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(done.stderr.decode("utf-8", "replace")[-2000:])
    return int(found.group(1))


def startup(
    repeat: int = typer.Option(7, "--repeat", min=1, max=50, help="每种命令运行次数"),
    instructions: bool = typer.Option(False, "--instructions",
                                      help="另用 valgrind 计指令数 (不受机器负载影响)"),
) -> None:
    """各命令的启动时间 (子进程 CPU 秒的中位数)."""
    if instructions and shutil.which("valgrind") is None:
        typer.echo(tr("--instructions 需要 valgrind (apt-get install valgrind)",
                      "--instructions needs valgrind (apt-get install valgrind)"), err=True)
        raise typer.Exit(2)
    with tempfile.TemporaryDirectory(prefix="yisai-bench-") as folder:
        db = Path(folder) / "bench.sqlite"
        _prepare(db, played=True)
        env = {**os.environ, "YISAI_DB": str(db), "YISAI_ACTOR": "bench"}
        env.pop("YISAI_DATABASE_URL", None)
        # measured as installed: byte-code cached, so compiling the sources is not counted
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cases = [
            ("yisai --help", ["--help"]),
            ("yisai result --help", ["result", "--help"]),
            ("yisai result 黑胜 -d jia -r 1 -b 1 (--change)", ["result", "黑胜", "-d", "jia", "-r", "1",
                                                              "-b", "1", "--change"]),
            ("yisai regulation show FILE", ["regulation", "show", str(REGULATION)]),
            ("yisai standings 1 -d jia", ["standings", "1", "-d", "jia"]),
        ]
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        typer.echo(tr(f"启动时间, 每种 {repeat} 次, 取中位数 (负载 {load}):",
                      f"start-up, {repeat} runs each, medians (load average {load}):"))
        typer.echo(tr("独立启动 (YISAI_RESIDENT=0, 每次全部导入):", "on its own (YISAI_RESIDENT=0, every import paid):"))
        cold: dict[str, float] = {}
        for label, args in cases:
            _run(args, {**env, "YISAI_RESIDENT": "0"})  # not counted: writes the byte-code caches
            runs = [_run(args, {**env, "YISAI_RESIDENT": "0"}) for _ in range(repeat)]
            cpu = statistics.median(r[0] for r in runs)
            cold[label] = wall = statistics.median(r[1] for r in runs)
            line = f"  {label:<46} CPU {cpu:.3f} s   wall {wall:.3f} s"
            if instructions:
                count = _instructions(args, env) / 1e9
                line += tr(f"   指令 {count:.3f} G", f"   instructions {count:.3f} G")
            typer.echo(line)
        typer.echo(tr("经常驻进程 (第一条命令之后的每一条):", "through the resident process (every command after the first):"))
        with _resident(Path(folder) / "resident", env) as (warm_env, path):
            for label, args in cases:
                runs = []
                for _ in range(repeat):
                    child0 = _child_cpu(path)
                    cpu, wall = _run(args, warm_env, module="yisai.cli.launch")
                    runs.append((cpu + _child_cpu(path) - child0, wall))
                cpu = statistics.median(r[0] for r in runs)
                wall = statistics.median(r[1] for r in runs)
                ratio = cold[label] / wall if wall else 0.0
                typer.echo(f"  {label:<46} CPU {cpu:.3f} s   wall {wall:.3f} s   "
                           + tr(f"(快 {ratio:.1f} 倍)", f"({ratio:.1f}× faster)"))


@contextmanager
def _resident(folder: Path, env: dict[str, str]) -> Iterator[tuple[dict[str, str], str]]:
    from yisai.cli.launch import socket_path
    from yisai.cli.resident import ask

    warm_env = {**env, "YISAI_RESIDENT": "1", "YISAI_RESIDENT_DIR": str(folder), "YISAI_RESIDENT_IDLE": "120"}
    path = socket_path(warm_env)
    if path is None:
        raise RuntimeError(f"{folder}: not a private folder")
    proc = subprocess.Popen([sys.executable, "-m", "yisai.cli.resident", path], env=warm_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        limit = time.monotonic() + 60
        while ask(path, "status") is None:
            if proc.poll() is not None or time.monotonic() > limit:
                raise RuntimeError("the resident process did not start")
            time.sleep(0.05)
        yield warm_env, path
    finally:
        ask(path, "stop")
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _child_cpu(path: str) -> float:
    from yisai.cli.resident import ask

    status = ask(path, "status") or {}
    return float(str(status.get("child_cpu", 0.0)))


def register(app: typer.Typer) -> None:
    app.command("startup")(startup)
