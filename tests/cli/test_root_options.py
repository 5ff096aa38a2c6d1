"""The root's options (--lang, --actor, --role) work wherever they are typed."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from yisai.cli.app import hoist_root_options
from yisai.cli.startup_bench import _prepare


def test_hoisting_keeps_everything_else_in_order() -> None:
    assert hoist_root_options(["result", "黑胜", "-b", "3", "--lang", "en"]) == ["--lang", "en", "result", "黑胜", "-b", "3"]
    assert hoist_root_options(["result", "--actor=张裁判", "x", "--role", "referee"]) == [
        "--actor=张裁判", "--role", "referee", "result", "x"]
    assert hoist_root_options(["sgf", "check", "--", "--lang", "en"]) == ["sgf", "check", "--", "--lang", "en"]
    assert hoist_root_options(["result", "--lang"]) == ["--lang", "result"]  # click then says what is missing


def test_lang_and_actor_after_the_command(tmp_path: Path) -> None:
    db = tmp_path / "event.db"
    _prepare(db)
    env = {**os.environ, "YISAI_DB": str(db), "YISAI_RESIDENT": "0"}
    env.pop("YISAI_LANG", None)
    env.pop("YISAI_ACTOR", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "yisai.cli.app", *args], env=env, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip

    missing = run("result", "黑胜", "-d", "jia", "-r", "1", "-b", "9", "--lang", "en")
    assert missing.returncode == 2 and "round 1 has no board 9" in missing.stderr
    entered = run("result", "黑胜", "-d", "jia", "-r", "1", "-b", "1", "--actor", "张裁判", "--role", "referee")
    assert entered.returncode == 0, entered.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT actor FROM audit ORDER BY id DESC LIMIT 1").fetchone() == ("张裁判",)
    zh, en = run("standings", "1", "-d", "jia"), run("standings", "1", "-d", "jia", "--lang", "en")
    assert "总得分" in zh.stdout and "逐轮减去对手分" in zh.stdout  # seed 002's criteria, by their names
    assert "total score" in en.stdout and "SOS cut" in en.stdout and "总得分" not in en.stdout
    refused = run("pair", "-d", "jia", "-r", "2", "--role", "referee")  # a 裁判员 may not pair
    assert refused.returncode != 0 and "裁判员" in refused.stderr
