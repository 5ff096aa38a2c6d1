"""`yisai bench …`: fixed-seed benchmarks that print figures (docs/BENCHMARKS.md records them)."""

from __future__ import annotations

import importlib

import typer

bench_app = typer.Typer(help="性能基准测试 (benchmarks with fixed seeds)", no_args_is_help=True)

# Each benchmark module under yisai.bench defines register(bench_app).
_MODULES = ("board", "pairing", "standings")


def register(app: typer.Typer) -> None:
    for name in _MODULES:
        try:
            module = importlib.import_module(f"yisai.bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"yisai.bench.{name}":
                raise
            continue
        module.register(bench_app)
    app.add_typer(bench_app, name="bench")
