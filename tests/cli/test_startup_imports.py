"""What a command loads decides how long a referee waits for it (issue 9: every result is a fresh
process). These tests pin the import boundaries that keep start-up short; the time itself is a
benchmark (`yisai bench startup`), not a test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from yisai.cli.startup_bench import REGULATION, _prepare

# What no command below needs: the pairing engine and its numerics, the web and live servers,
# PDF, workbooks, migrations. Each one costs tens of milliseconds to a few hundred on import.
HEAVY = ("numpy", "scipy", "rustworkx", "yisai.pairing", "yisai.web", "yisai.live", "fastapi",
         "starlette", "uvicorn", "jinja2", "typst", "xlsxwriter", "openpyxl", "python_calamine",
         "alembic", "yisai.formats.pdf", "yisai.services.rounds", "yisai.services.simulation")

PROBE = """
import json, runpy, sys
sys.argv = ["yisai", *json.loads(sys.argv[1])]
try:
    runpy.run_module("yisai.cli.app", run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = sorted(sys.modules)
print(json.dumps({"code": code, "loaded": loaded}))
"""


def _loaded(args: list[str], env: dict[str, str]) -> tuple[int, set[str], str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], env=env,
                          capture_output=True, text=True, check=False)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["code"], set(report["loaded"]), done.stdout


def _env(db: Path) -> dict[str, str]:
    env = {**os.environ, "YISAI_DB": str(db), "YISAI_ACTOR": "test"}
    env.pop("YISAI_DATABASE_URL", None)
    return env


def test_help_loads_neither_the_store_nor_the_regulation_models(tmp_path: Path) -> None:
    code, loaded, _ = _loaded(["--help"], _env(tmp_path / "none.sqlite"))
    assert code == 0
    assert not {m for m in loaded if m.startswith(("sqlalchemy", "yisai.store", "pydantic", "rich"))}
    assert not (tmp_path / "none.sqlite").exists()


def test_a_result_entry_loads_no_engine_no_roster_and_no_rich(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    _prepare(db)
    code, loaded, out = _loaded(["result", "黑胜", "-d", "甲组", "-r", "1", "-b", "1"], _env(db))
    assert code == 0
    assert "已录入: 第1轮第1台" in out
    heavy = ("yisai.pairing", "yisai.standings", "yisai.awards", "yisai.formats",
             "yisai.services.registration", "yisai.services.players", "yisai.services.entries",
             "yisai.services.approvals", "yisai.services.teams", "yisai.services.roster_import",
             "yisai.services.eligibility", "yisai.services.rounds", "rich")
    assert not {m for m in loaded if m.startswith(heavy)}
    assert "yisai.services.round_results" in loaded  # the probe really ran the entry


# What the store's tables cost: a command reading neither live play nor the side tables (papers,
# check-ins, profiles, line-ups, appeals, pending changes, OAuth links) maps none of them.
UNUSED_TABLES = ("yisai.store.live_models", "yisai.store.side_models", "yisai.store.notice_models",
                 "yisai.store.qualification_models")
# The prize and award engines and the standings' file readers and writers: not for an event's table.
NOT_FOR_STANDINGS = ("yisai.awards.prizes", "yisai.awards.promotions", "yisai.awards.rank_awards",
                     "yisai.formats.awards_report", "yisai.formats.h9", "yisai.formats.opengotha",
                     "yisai.services.standings_source")


def _heavy(loaded: set[str], extra: tuple[str, ...] = ()) -> set[str]:
    names = HEAVY + extra
    return {m for m in loaded if m in names or m.startswith(tuple(n + "." for n in names))}


def test_regulation_show_loads_no_store_and_nothing_heavy(tmp_path: Path) -> None:
    code, loaded, out = _loaded(["regulation", "show", str(REGULATION)], _env(tmp_path / "none.sqlite"))
    assert code == 0
    assert "小棋王" in out
    assert _heavy(loaded, ("sqlalchemy", "yisai.store", "yisai.services.context", "yisai.standings",
                           "yisai.awards", "rich")) == set()
    assert "yisai.regulation.loader" in loaded


def test_result_and_standings_of_an_event_load_nothing_heavy(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    _prepare(db)
    code, loaded, out = _loaded(["result", "白胜", "-d", "jia", "-r", "1", "-b", "1"], _env(db))
    assert code == 0
    assert "已录入: 第1轮第1台 白胜" in out
    assert _heavy(loaded, UNUSED_TABLES + NOT_FOR_STANDINGS + ("yisai.awards",)) == set()
    code, loaded, out = _loaded(["standings", "1", "-d", "jia"], _env(db))
    assert code == 0
    assert "第1轮后成绩" in out  # the table really came out: one round with a result
    assert "yisai.standings.compute" in loaded
    assert _heavy(loaded, UNUSED_TABLES + NOT_FOR_STANDINGS) == set()
