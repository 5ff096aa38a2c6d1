"""Shared fixtures. Real-world data lives in ../shared/testdata (never copied into the repo)."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTDATA = ROOT.parent / "shared" / "testdata"
REGULATIONS = ROOT / "regulations"
# Commands run as subprocesses by tests never hand over to, or start, a resident process
# (tests/cli/test_resident.py turns it on for its own processes).
os.environ["YISAI_RESIDENT"] = "0"


def testdata_dir() -> Path:
    """The shared test data; skip only when it is absent and we are not in CI."""
    if TESTDATA.is_dir():
        return TESTDATA
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {TESTDATA} is missing")
    pytest.skip(f"{TESTDATA} is absent (clone without ../shared); real-data tests skipped")
    raise AssertionError  # unreachable


@pytest.fixture
def testdata() -> Path:
    return testdata_dir()


@pytest.fixture(autouse=True)
def _chinese_by_default() -> Iterator[None]:
    """Each test starts in Chinese; a CLI call with --lang en must not leak into the next test."""
    from yisai.i18n import use_language

    with use_language("zh"):
        yield


@pytest.fixture(autouse=True)
def _fresh_cli_consoles() -> None:
    """rich reads the terminal's width (COLUMNS) when its console is made; in use every command
    is a process of its own, so each test's commands get consoles of their own too (with test
    workers in parallel, which test made the console first would otherwise decide its width)."""
    from yisai.cli.session import console, err_console

    console.reset()
    err_console.reset()


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """A database (or any file) built once per test session and only read afterwards: the first
    test worker that asks builds it in the session's temporary folder (shared by the xdist
    workers), the others wait on a lock for it. Tests copy it (``shutil.copy``) before writing."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the controller's folder: one per session, the workers' folders inside
    folder = base / "built-once"
    folder.mkdir(exist_ok=True)
    target = folder / name
    with (folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not target.exists():
            work = Path(tempfile.mkdtemp(prefix=f"building-{name}-", dir=folder))  # no trace of a failed try
            try:
                build(work / name)
                (work / name).rename(target)  # whole or absent: a reader never sees half a build
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return target


@pytest.fixture(scope="session")
def seed_demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both seed regulations' demo events (`yisai demo --scale 0.2 --boards 1`: event 1 is seed
    000, event 2 seed 002) as a SQLite file built once per session; copy it before writing."""

    def build(path: Path) -> None:
        from typer.testing import CliRunner

        from yisai.cli.app import app

        result = CliRunner().invoke(app, ["demo", "--scale", "0.2", "--boards", "1", "--db", str(path)])
        assert result.exit_code == 0, result.output

    return built_once(tmp_path_factory, "seed-demo.sqlite", build)


@pytest.fixture(scope="session")
def shanhai_final_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 000's open division at scale 0.2 played through its ten rounds, the same-place final
    included (event 1, seed 20250430), built once per session; copy it before writing."""

    def build(path: Path) -> None:
        from yisai.services.context import open_context
        from yisai.services.demo_event import (
            play_round,
            register_all,
            registration_moment,
            rounds_for,
            shanhai_people,
        )
        from yisai.services.event_data import approved_players
        from yisai.services.events import create_event, read_regulation_file, regulation_of

        regulation_file = REGULATIONS / "2025-shanhai-cup.toml"
        moment = registration_moment(read_regulation_file(regulation_file)[1])
        with open_context(str(path), actor="裁判长", now=moment) as ctx:
            with ctx.work() as w:
                event = create_event(w, regulation_file, seed=20250430)
                reg = regulation_of(event)
                people, teams = shanhai_people(event.seed, 0.2)
                register_all(w, event, reg, people, teams)
            with ctx.work() as w:
                n = len(approved_players(w, event, "open"))
            for r in range(1, rounds_for(reg, "open", n) + 1):
                with ctx.work() as w:
                    play_round(w, event, "open", r, event.seed + r)

    return built_once(tmp_path_factory, "shanhai-final.sqlite", build)
