"""The `yisai` command run in-process (typer's CliRunner) as a test drives it: Chinese output,
the exit status checked, standard output and error returned as one text."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from yisai.cli.app import app

# Variables a developer's shell may hold that would point a test at another database, event,
# file store or role.
OUTSIDE = ("YISAI_DATABASE_URL", "YISAI_EVENT", "YISAI_FILES", "YISAI_ROLE")


def run_cli(*args: str, stdin: str | None = None, code: int = 0) -> str:
    """``yisai --lang zh ARGS``; fails the test unless it exits with ``code``."""
    result = CliRunner().invoke(app, ["--lang", "zh", *args], input=stdin, catch_exceptions=False)
    out = result.stdout + (result.stderr or "")
    assert result.exit_code == code, out
    return out


def as_director(monkeypatch: pytest.MonkeyPatch, db: Path, now: str) -> None:
    """The chief referee (裁判长) at ``now`` (YISAI_NOW) on the SQLite file ``db``, working in
    the database's folder, with nothing from the developer's shell in the way."""
    monkeypatch.setenv("YISAI_DB", str(db))
    monkeypatch.setenv("YISAI_NOW", now)
    monkeypatch.setenv("YISAI_ACTOR", "裁判长")
    for name in OUTSIDE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(db.parent)
