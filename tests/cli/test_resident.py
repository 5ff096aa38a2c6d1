"""The resident process: a command handed over runs exactly as it runs on its own.

The reference for every output is the same command run without the resident process
(``YISAI_RESIDENT=0``): what the referee sees, the exit code and what is stored must not depend
on how the command was started.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from yisai.cli import launch
from yisai.cli.resident import ask
from yisai.cli.startup_bench import _prepare

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp: Path, db: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "YISAI_RESIDENT": "1", "YISAI_RESIDENT_DIR": str(tmp / "res"),
            "YISAI_RESIDENT_IDLE": "60", "YISAI_DB": str(db), "YISAI_ACTOR": "tester", **extra}  # fmt: skip


def _yisai(args: list[str], env: dict[str, str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "yisai.cli.launch", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False, **kw)  # type: ignore[call-overload]  # fmt: skip


def _wait(predicate: object, seconds: float = 20.0) -> None:
    limit = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > limit:
            raise AssertionError("timed out")
        time.sleep(0.05)


@pytest.fixture
def resident(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str], str]]:
    db = tmp_path / "event.db"
    _prepare(db)
    env = _env(tmp_path, db)
    path = launch.socket_path(env)
    assert path is not None
    proc = subprocess.Popen([sys.executable, "-m", "yisai.cli.resident", path], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    _wait(lambda: ask(path, "status") is not None)
    yield db, env, path
    ask(path, "stop")
    try:
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()


def _served(path: str) -> int:
    status = ask(path, "status")
    assert status is not None
    return int(str(status["served"]))


def _result_rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT board, result FROM games ORDER BY board").fetchall()


def test_result_entry_through_the_resident_is_the_same_as_alone(
        resident: tuple[Path, dict[str, str], str], tmp_path: Path) -> None:
    db, env, path = resident
    cold = {**env, "YISAI_RESIDENT": "0"}
    first = _yisai(["result", "黑胜", "-d", "甲组", "-r", "1", "-b", "1"], env)
    assert (first.returncode, first.stdout.strip()) == (0, "已录入: 第1轮第1台 黑胜"), first.stderr
    assert _served(path) == 1
    assert _result_rows(db) == [(1, "B+"), (2, "?")]
    with sqlite3.connect(db) as conn:  # audited under the caller's actor, from the caller's environment
        assert conn.execute("SELECT actor, action FROM audit ORDER BY id DESC LIMIT 1").fetchone() == ("tester", "result")
    # entering it again without --change: refused with the same words and exit code as alone
    for args in (["result", "白胜", "-d", "jia", "-r", "1", "-b", "1"],
                 ["result", "白胜", "-d", "jia", "-r", "1", "-b", "1", "--bogus"],
                 ["result", "白胜", "-d", "jia", "-r", "1", "-b", "9"],
                 ["--help"], ["result", "--help"]):  # fmt: skip
        handed, alone = _yisai(args, env), _yisai(args, cold)
        assert (handed.returncode, handed.stdout, handed.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    assert _served(path) == 6
    refused = _yisai(["result", "白胜", "-d", "jia", "-r", "1", "-b", "1"], env)
    assert refused.returncode != 0 and "--change" in refused.stderr


def test_the_callers_directory_environment_and_stdin_are_the_childs(
        resident: tuple[Path, dict[str, str], str], tmp_path: Path) -> None:
    _db, env, path = resident
    (tmp_path / "bad.toml").write_text("title = \n", encoding="utf-8")
    relative = _yisai(["regulation", "check", "bad.toml"], env, cwd=tmp_path)
    assert relative.returncode == 2
    assert relative.stderr.startswith("bad.toml:1:") and "语法错误" in relative.stderr
    zh = _yisai(["result", "黑胜", "-d", "jia", "-r", "1", "-b", "9"], env)
    en = _yisai(["result", "黑胜", "-d", "jia", "-r", "1", "-b", "9"], {**env, "YISAI_LANG": "en"})
    assert zh.returncode == en.returncode == 2
    assert "第1轮没有第9台" in zh.stderr and "round 1 has no board 9" in en.stderr
    piped = _yisai(["regulation", "check", "/dev/stdin"], env, input="a = [\n")
    assert piped.returncode == 2 and piped.stderr.startswith("/dev/stdin:")
    assert _served(path) == 4


def test_ctrl_c_reaches_the_command_and_a_vanished_caller_stops_it(
        resident: tuple[Path, dict[str, str], str]) -> None:
    _db, env, path = resident
    args = [sys.executable, "-m", "yisai.cli.launch", "regulation", "check", "/dev/stdin"]
    waiting = subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait(lambda: ask(path, "status") is not None and ask(path, "status")["running"] == 1)  # type: ignore[index]
    waiting.send_signal(signal.SIGINT)
    assert waiting.wait(20) == 130
    waiting.stdin.close()  # type: ignore[union-attr]
    _wait(lambda: ask(path, "status")["running"] == 0)  # type: ignore[index]
    gone = subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait(lambda: ask(path, "status")["running"] == 1)  # type: ignore[index]
    gone.kill()  # the terminal closed: the command must not go on without anyone
    gone.wait(20)
    _wait(lambda: ask(path, "status")["running"] == 0)  # type: ignore[index]


def test_a_cold_command_starts_one_for_the_next_and_stop_ends_it(tmp_path: Path) -> None:
    db = tmp_path / "event.db"
    _prepare(db)
    env = _env(tmp_path, db)
    path = launch.socket_path(env)
    assert path is not None and ask(path, "status") is None
    first = _yisai(["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1"], env)
    assert first.returncode == 0, first.stderr
    _wait(lambda: ask(path, "status") is not None)
    second = _yisai(["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1"], env)
    assert second.returncode == 0 and "未改动" in second.stdout
    assert _served(path) == 1
    stopped = _yisai(["resident", "stop"], env)
    assert stopped.returncode == 0 and "1" in stopped.stdout
    _wait(lambda: not os.path.exists(path))
    off = _yisai(["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1"], {**env, "YISAI_RESIDENT": "0"})
    assert off.returncode == 0
    time.sleep(1.0)
    assert ask(path, "status") is None  # turned off: nothing was started


def test_only_a_private_folder_is_trusted_and_code_changes_change_the_socket(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    assert launch.socket_dir({"YISAI_RESIDENT_DIR": str(shared)}) is None
    private = tmp_path / "private"
    assert launch.socket_dir({"YISAI_RESIDENT_DIR": str(private)}) == str(private)
    assert private.stat().st_mode & 0o777 == 0o700
    before = launch.fingerprint()
    assert launch.fingerprint() == before
    monkeypatch.setattr(sys, "executable", sys.executable + "-other")
    assert launch.fingerprint() != before
    assert not launch.enabled({"YISAI_RESIDENT": "0"}) and launch.enabled({})


def test_a_new_version_retires_the_old_one_of_the_same_installation(tmp_path: Path) -> None:
    env = _env(tmp_path, tmp_path / "unused.db")
    folder = launch.socket_dir(env)
    assert folder is not None
    old_path, new_path = os.path.join(folder, "r-old.sock"), os.path.join(folder, "r-new.sock")
    start = [sys.executable, "-m", "yisai.cli.resident"]
    old = subprocess.Popen([*start, old_path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: ask(old_path, "status") is not None)
        new = subprocess.Popen([*start, new_path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait(lambda: ask(new_path, "status") is not None)
            assert old.wait(20) == 0 and not os.path.exists(old_path)
        finally:
            ask(new_path, "stop")
            new.wait(20)
    finally:
        if old.poll() is None:
            old.kill()
