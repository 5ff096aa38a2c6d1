"""`yisai standings EVENT`, `prizes`, `awards` read an event from the store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from yisai.cli.app import app

runner = CliRunner()


@pytest.fixture(scope="module")
def demo_db(seed_demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A copy of the seeds' demo (built once per session); seed 002's event is event 2."""
    db = tmp_path_factory.mktemp("ev") / "demo.sqlite"
    shutil.copy(seed_demo_db, db)
    return str(db)


def test_standings_of_an_event_use_the_regulation_criteria(demo_db: str) -> None:
    r = runner.invoke(app, ["standings", "2", "--db", demo_db, "--division", "jia", "--format", "csv"])
    assert r.exit_code == 0, r.output
    header, *rows = r.output.strip().splitlines()
    # Seed 002 八(五): 总得分, then 积分, 胜对手分, 直胜, 逐轮减去对手分.
    assert header.split(",")[:2] == ["名次", "姓名"]
    for name in ("总得分", "积分", "胜对手分"):
        assert name in header
    places = [int(row.split(",")[0].rstrip("=")) for row in rows]
    assert places == sorted(places) and places[0] == 1


def test_girls_ranking_is_a_filter_of_the_same_games(demo_db: str) -> None:
    everyone = runner.invoke(app, ["standings", "2", "--db", demo_db, "--division", "jia",
                                   "--format", "json"])
    girls = runner.invoke(app, ["standings", "2", "--db", demo_db, "--division", "jia",
                                "--filter", "gender=F", "--format", "json"])
    assert everyone.exit_code == 0 and girls.exit_code == 0
    assert 0 < girls.output.count('"place"') < everyone.output.count('"place"')


def test_prizes_and_awards_of_an_event(demo_db: str, tmp_path: Path) -> None:
    r = runner.invoke(app, ["prizes", "2", "--db", demo_db])
    assert r.exit_code == 0, r.output
    assert "甲组男子" in r.output and "参赛奖" in r.output
    r = runner.invoke(app, ["prizes", "2", "--db", demo_db, "--xlsx", str(tmp_path / "p.xlsx")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "p.xlsx").stat().st_size > 0
    r = runner.invoke(app, ["awards", "2", "--db", demo_db])
    assert r.exit_code == 0, r.output
    assert "甲组" in r.output
