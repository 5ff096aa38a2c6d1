"""Shared fixtures. Real-world data lives in ../shared/testdata (never copied into the repo)."""

from __future__ import annotations

import os
from collections.abc import Iterator
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
