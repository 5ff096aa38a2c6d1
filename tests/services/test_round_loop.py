"""The referee's loop through the CLI: pair, enter results (never twice by accident), re-pair."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.services.context import unit_of_work
from yisai.services.events import resolve_event
from yisai.store import audit_rows, roster_rows, round_rows

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = str(tmp_path / "t.sqlite")
    monkeypatch.setenv("YISAI_DB", path)
    monkeypatch.setenv("YISAI_NOW", "2025-04-10T09:00")  # seed 002 takes entries until 2025-04-18 17:00
    r = runner.invoke(app, ["event", "create", "--regulation", str(REGULATIONS / "2025-xiaoqiwang.toml"),
                            "--seed", "7"])
    assert r.exit_code == 0, r.output
    for i in range(1, 6):
        r = runner.invoke(app, ["player", "add", "--name", f"选手{i}", "--gender", "男",
                                "--birth", f"2013-0{i}-01", "--rank", f"{i}段", "--cert", f"C{i}",
                                "--region", "中国大陆", "--province", "浙江", "--division", "jia"])
        assert r.exit_code == 0, r.output
    return path


def _games(db: str, n: int) -> list:
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        return [g for r in round_rows.list_rounds(work.session, event.id, "jia") if r.number == n for g in r.games]


def test_pair_enter_and_repair(db: str) -> None:
    r = runner.invoke(app, ["pair", "-d", "jia", "-r", "1", "--explain"])
    assert r.exit_code == 0, r.output
    games = _games(db, 1)
    byes = [g for g in games if g.is_bye]
    assert len(games) == 3 and len(byes) == 1  # five players: two boards and one bye
    # Round 1 slide pairing by rank: the lowest seed (1段) gets the bye.
    with unit_of_work(db) as work:
        names = {p.id: p.name for p in roster_rows.list_players(work.session, resolve_event(work, None).id)}
    assert names[byes[0].black] == "选手1"
    # Re-pairing the unplayed round with the same seed gives the same pairing.
    r = runner.invoke(app, ["pair", "-d", "jia", "-r", "1", "--replace"])
    assert r.exit_code == 0, r.output
    assert _games(db, 1) == games
    # Round 2 is refused until every board has a result.
    assert runner.invoke(app, ["pair", "-d", "jia", "-r", "2"]).exit_code == 1
    assert runner.invoke(app, ["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1"]).exit_code == 0
    again = runner.invoke(app, ["result", "白胜", "-d", "jia", "-r", "1", "-b", "1"])
    assert again.exit_code == 1 and "--change" in again.output
    changed = runner.invoke(app, ["result", "白胜", "-d", "jia", "-r", "1", "-b", "1", "--change",
                                  "--note", "记录员笔误"])
    assert changed.exit_code == 0
    assert runner.invoke(app, ["result", "黑弃权", "-d", "jia", "-r", "1", "-b", "2"]).exit_code == 0
    bad = runner.invoke(app, ["result", "黑赢了", "-d", "jia", "-r", "1", "-b", "2", "--change"])
    assert bad.exit_code == 2 and "允许" in bad.output
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        rnd = next(r for r in round_rows.list_rounds(work.session, event.id, "jia") if r.number == 1)
        history = round_rows.result_history(work.session, rnd.id, 1)
    assert [h.result.value for h in history] == ["B+", "W+"]
    assert history[1].previous.value == "B+"
    r = runner.invoke(app, ["pair", "-d", "jia", "-r", "2"])
    assert r.exit_code == 0, r.output
    first = {frozenset((g.black, g.white)) for g in _games(db, 1) if g.white}
    second = {frozenset((g.black, g.white)) for g in _games(db, 2) if g.white}
    assert not first & second  # never a rematch
    assert {g.black for g in _games(db, 2) if g.is_bye}.isdisjoint({g.black for g in byes})
    shown = runner.invoke(app, ["round", "show", "-d", "jia", "-r", "1"])
    assert shown.exit_code == 0 and "白胜" in shown.output and "轮空" in shown.output


def test_chinese_division_names_identical_results_and_late_corrections(db: str) -> None:
    """甲组 works wherever jia does; the same result again is no change; correcting an earlier
    round after the next was paired is warned about and audited."""
    r = runner.invoke(app, ["pair", "-d", "甲组", "-r", "1"])
    assert r.exit_code == 0, r.output
    bad = runner.invoke(app, ["round", "show", "-d", "丁组", "-r", "1"])
    assert bad.exit_code == 2 and "甲组(jia)" in bad.output and "乙组(yi)" in bad.output
    assert runner.invoke(app, ["result", "黑胜", "-d", "甲组", "-r", "1", "-b", "1"]).exit_code == 0
    again = runner.invoke(app, ["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1"])
    assert again.exit_code == 0 and "未改动" in again.output
    same = runner.invoke(app, ["result", "黑胜", "-d", "jia", "-r", "1", "-b", "1", "--change"])
    assert same.exit_code == 0 and "未改动" in same.output
    assert runner.invoke(app, ["result", "白胜", "-d", "jia", "-r", "1", "-b", "2"]).exit_code == 0
    assert runner.invoke(app, ["pair", "-d", "jia", "-r", "2"]).exit_code == 0
    late = runner.invoke(app, ["result", "白胜", "-d", "jia", "-r", "1", "-b", "1", "--change",
                               "--note", "记录有误"])
    assert late.exit_code == 0 and "第2轮已按原成绩编排" in late.output, late.output
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        notes = [a.note for a in audit_rows.audit_log(work.session, event.id) if a.action == "result"]
        rnd = next(r for r in round_rows.list_rounds(work.session, event.id, "jia") if r.number == 1)
        history = round_rows.result_history(work.session, rnd.id, 1)
    assert notes[-1] == "记录有误; 更改时第2轮已编排"
    assert [h.result.value for h in history] == ["B+", "W+"]  # the no-change entries left no trace


def test_english_cli_messages(db: str) -> None:
    r = runner.invoke(app, ["--lang", "en", "pair", "-r", "1"])
    assert r.exit_code == 2 and "Missing option" in r.output
    r = runner.invoke(app, ["pair", "-r", "1"])
    assert r.exit_code == 2 and "缺少选项" in r.output and "Missing" not in r.output
    r = runner.invoke(app, ["--lang", "en", "round", "show", "-d", "x", "-r", "1"])
    assert r.exit_code == 2 and "no division 'x'" in r.output
