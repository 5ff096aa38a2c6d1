"""Shared set-up for the hostile-input tests: the CLI through typer's CliRunner on a temporary
SQLite store holding seed 002 (小棋王) with five 甲组 players and round 1 paired."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.i18n import set_language
from yisai.record import Game
from yisai.services.context import unit_of_work
from yisai.services.events import resolve_event
from yisai.store import roster_rows, round_rows

runner = CliRunner()


@dataclass(frozen=True)
class Outcome:
    code: int
    output: str
    exception: BaseException | None  # anything but the SystemExit typer ends with


def run(*args: str, db: str | None = None, lang: str = "zh", now: str | None = None) -> Outcome:
    env = {"YISAI_DATABASE_URL": None, "YISAI_EVENT": None, "YISAI_LANG": None, "YISAI_DB": db,
           "YISAI_NOW": now}
    result = runner.invoke(app, ["--lang", lang, *args], env=env)
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return Outcome(result.exit_code, result.stdout + (result.stderr or ""), exc)


def assert_clean_exit(out: Outcome, codes: tuple[int, ...] = (0, 2)) -> None:
    """Exit code in ``codes``, no exception escaped, no traceback printed."""
    assert out.exception is None, f"{type(out.exception).__name__}: {out.exception}\n{out.output}"
    assert out.code in codes, out.output
    assert "Traceback" not in out.output


IN_TIME = "2025-04-10T09:00"  # seed 002 takes entries until 2025-04-18 17:00


def _build(db: Path) -> None:
    path = str(db)
    out = run("event", "create", "--regulation", str(REGULATIONS / "2025-xiaoqiwang.toml"), "--seed", "7", db=path)
    assert out.code == 0, out.output
    for i in range(1, 6):
        out = run("player", "add", "--name", f"选手{i}", "--gender", "男", "--birth", f"2013-0{i}-01",
                  "--rank", f"{i}段", "--cert", f"C{i}", "--region", "中国大陆", "--province", "浙江",
                  "--division", "jia", db=path, now=IN_TIME)  # fmt: skip
        assert out.code == 0, out.output
    out = run("pair", "-d", "jia", "-r", "1", db=path)
    assert out.code == 0, out.output


@pytest.fixture(scope="session")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("template") / "t.sqlite"
    _build(db)
    set_language("zh")
    return db


@pytest.fixture
def paired_db(_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A copy of the template store (round 1 of 甲组 paired: boards 1 and 2, one bye)."""
    for suffix in ("", "-wal", "-shm"):
        src = _template.with_name(_template.name + suffix)
        if src.exists():
            shutil.copy(src, tmp_path / ("t.sqlite" + suffix))
    monkeypatch.chdir(tmp_path)
    yield str(tmp_path / "t.sqlite")
    set_language("zh")


@pytest.fixture(autouse=True)
def _chinese() -> Iterator[None]:
    set_language("zh")
    yield
    set_language("zh")


def round_games(db: str, number: int = 1) -> list[Game]:
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        return [g for r in round_rows.list_rounds(work.session, event.id, "jia") if r.number == number for g in r.games]


def player_names(db: str) -> list[str]:
    with unit_of_work(db) as work:
        return [p.name for p in roster_rows.list_players(work.session, resolve_event(work, None).id)]
