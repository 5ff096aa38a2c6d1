"""`yisai bench …`: fixed-seed benchmarks that print figures (docs/BENCHMARKS.md records them)."""

from __future__ import annotations

import typer

from yisai.bench import backup, board, drafter, opengotha_pairing, pairing, printing, standings, web
from yisai.cli import startup_bench as startup
from yisai.live import bench as live_bench

bench_app = typer.Typer(help="性能基准测试 (benchmarks with fixed seeds)", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    for module in (backup, board, pairing, opengotha_pairing, standings, startup, printing, live_bench, web, drafter):
        module.register(bench_app)
    app.add_typer(bench_app, name="bench")
