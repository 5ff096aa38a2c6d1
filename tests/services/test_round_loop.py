"""The referee's loop through the CLI: pair, enter results (never twice by accident), re-pair."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.services.context import unit_of_work
from yisai.services.events import resolve_event

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = str(tmp_path / "t.sqlite")
    monkeypatch.setenv("YISAI_DB", path)
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
        return [g for r in work.repo.list_rounds(event.id, "jia") if r.number == n for g in r.games]


def test_pair_enter_and_repair(db: str) -> None:
    r = runner.invoke(app, ["pair", "-d", "jia", "-r", "1", "--explain"])
    assert r.exit_code == 0, r.output
    games = _games(db, 1)
    byes = [g for g in games if g.is_bye]
    assert len(games) == 3 and len(byes) == 1  # five players: two boards and one bye
    # Round 1 slide pairing by rank: the lowest seed (1段) gets the bye.
    with unit_of_work(db) as work:
        names = {p.id: p.name for p in work.repo.list_players(resolve_event(work, None).id)}
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
        rnd = next(r for r in work.repo.list_rounds(event.id, "jia") if r.number == 1)
        history = work.repo.result_history(rnd.id, 1)
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
