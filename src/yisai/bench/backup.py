"""`yisai bench backup`: the time of `yisai db backup` and `yisai db restore` on a 2,000-player event.

The event is the one `yisai bench web` builds (seed 002's 甲组, fixed seed, 7 rounds played,
the next paired), once, on SQLite or on a new PostgreSQL database; then each of ``--repeat`` runs
takes a backup (SQLite's online backup API, or ``pg_dump``) and restores it into a new database.
Prints each run and the medians of wall and CPU time (this process and its children: ``pg_dump``
and ``pg_restore`` work in children). The databases made for PostgreSQL are dropped afterwards.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from yisai.bench.web import build_event


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@contextmanager
def _postgres_databases(base: str, count: int) -> Iterator[list[str]]:
    """``count`` new, empty databases on the server of ``base``; dropped at the end."""
    from yisai.services.maintenance import drop_scratch_database, scratch_whole_database

    made: list[str] = []
    try:
        for _ in range(count):
            made.append(scratch_whole_database(base, "yisai_bench"))
        yield made
    finally:
        for url in made:
            drop_scratch_database(url)


def _run(source: str, targets: list[str], folder: Path, players: int, rounds: int, seed: int) -> None:
    from yisai.services.identity import Actor, Role
    from yisai.services.maintenance import backup, restore, upgrade
    from yisai.services.settings import Settings

    operator = Actor.cli("bench", Role.OPERATOR)
    if "://" in source:
        upgrade(Settings(database=source, actor=operator))
    t = time.perf_counter()
    build_event(source, players, rounds, seed)
    typer.echo(f"event built: {players} players, {rounds} rounds + round {rounds + 1} paired "
               f"({time.perf_counter() - t:.0f} s)")
    backup_wall, backup_cpu, restore_wall, restore_cpu = [], [], [], []
    for k, target in enumerate(targets, 1):
        c, t = _cpu(), time.perf_counter()
        archive = backup(Settings(database=source, actor=operator, files_dir=folder / "files"),
                         folder / "backups", keep=1)[0]
        wall, cpu = time.perf_counter() - t, _cpu() - c
        c, t = _cpu(), time.perf_counter()
        restore(Settings(database=target, actor=operator, files_dir=folder / f"files-{k}"), archive)
        wall2, cpu2 = time.perf_counter() - t, _cpu() - c
        size = archive.stat().st_size
        backup_wall.append(wall)
        backup_cpu.append(cpu)
        restore_wall.append(wall2)
        restore_cpu.append(cpu2)
        typer.echo(f"run {k}: backup {wall:.2f} s wall, {cpu:.2f} s CPU, {size / 1e6:.1f} MB; "
                   f"restore {wall2:.2f} s wall, {cpu2:.2f} s CPU")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    typer.echo(f"median of {len(targets)}: backup {statistics.median(backup_wall):.2f} s wall "
               f"({statistics.median(backup_cpu):.2f} s CPU), restore {statistics.median(restore_wall):.2f} s wall "
               f"({statistics.median(restore_cpu):.2f} s CPU); machine load average {load:.1f}")


def backup(
    players: int = typer.Option(2000, "--players", min=2, help="棋手人数"),
    rounds: int = typer.Option(7, "--rounds", min=0, help="已赛轮数 (下一轮已编排)"),
    repeat: int = typer.Option(3, "--repeat", min=1, max=20, help="备份与恢复各做几次 (取中位数)"),
    seed: int = typer.Option(1, "--seed"),
    postgres: str = typer.Option(None, "--postgres",
                                 help="PostgreSQL 服务器地址 (postgresql+psycopg://…); 在其上新建数据库测, 测完删除"),
) -> None:
    """备份与恢复用时: 2000人的比赛, SQLite 或 PostgreSQL."""
    with tempfile.TemporaryDirectory(prefix="yisai-bench-backup-") as name:
        folder = Path(name)
        if postgres:
            typer.echo("store: PostgreSQL (pg_dump / pg_restore)")
            with _postgres_databases(postgres, repeat + 1) as urls:
                _run(urls[0], urls[1:], folder, players, rounds, seed)
        else:
            typer.echo("store: SQLite (online backup API)")
            targets = [str(folder / f"restored-{k}.sqlite") for k in range(1, repeat + 1)]
            _run(str(folder / "bench.sqlite"), targets, folder, players, rounds, seed)


def register(app: typer.Typer) -> None:
    app.command("backup")(backup)
