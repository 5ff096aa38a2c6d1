"""`yisai bench backup` (docs/BENCHMARKS.md's backup and restore figures) runs end to end on a
small field: one backup and one restore into a new database, on SQLite and on PostgreSQL (on new
databases it drops afterwards). The figures themselves are not asserted."""

from __future__ import annotations

import re

from tests.cli_runner import run_cli
from tests.store.conftest import postgres_base_url


def _one_run(out: str) -> None:
    assert "event built: 20 players, 1 rounds + round 2 paired" in out
    assert re.search(r"run 1: backup [\d.]+ s wall, [\d.]+ s CPU, [\d.]+ MB; restore [\d.]+ s wall", out), out
    assert "median of 1: backup" in out


def test_bench_backup_on_sqlite() -> None:
    out = run_cli("bench", "backup", "--players", "20", "--rounds", "1", "--repeat", "1")
    assert "SQLite" in out
    _one_run(out)


def test_bench_backup_on_postgresql() -> None:
    base = postgres_base_url()
    out = run_cli("bench", "backup", "--players", "20", "--rounds", "1", "--repeat", "1", "--postgres", base)
    assert "pg_dump" in out
    _one_run(out)
