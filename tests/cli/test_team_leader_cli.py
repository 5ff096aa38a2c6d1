"""#31 item 6 on the command line (regulations/examples/team-league.toml: club teams of up to 4,
3 boards, a round robin): `team add -m` enters the players it names, so the teams are paired;
`--role team_leader --actor LOGIN` acts as that leader account and submits its own line-up only."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app

LEAGUE = REGULATIONS / "examples" / "team-league.toml"
runner = CliRunner()


def _run(*args: str, stdin: str | None = None) -> str:
    r = runner.invoke(app, list(args), input=stdin)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture
def league(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YISAI_DB", str(tmp_path / "l.sqlite"))
    monkeypatch.setenv("YISAI_NOW", "2026-03-20T09:00:00")  # before teams.registration_to (04-01)
    _run("event", "create", "--regulation", str(LEAGUE), "--seed", "3")
    for team in ("A", "B"):
        for i, gender in enumerate(("男", "男", "女"), start=1):  # min_women = 1
            _run("player", "add", "--name", f"{team}队{i}", "--gender", gender, "--birth", f"1990-0{i}-0{i}",
                 "--rank", "3段")
    return tmp_path


def test_team_add_enters_the_named_players_and_the_round_is_paired(league: Path) -> None:
    _run("team", "add", "--name", "A队", "--leader", "甲", "-m", "1", "-m", "2", "-m", "3")
    _run("team", "add", "--name", "B队", "--leader", "乙", "-m", "4", "-m", "5", "-m", "6")
    entries = _run("entry", "list")
    assert entries.count("团体组") == 6 and entries.count("已通过") == 6  # no approval rule in this file
    paired = _run("pair", "-d", "league", "-r", "1")
    for name in ("A队1", "A队2", "A队3", "B队1", "B队2", "B队3"):
        assert name in paired


def test_a_leader_on_the_command_line_submits_the_own_line_up_only(league: Path) -> None:
    _run("team", "add", "--name", "A队", "--leader", "甲", "-m", "1", "-m", "2", "-m", "3")
    _run("team", "add", "--name", "B队", "--leader", "乙", "-m", "4", "-m", "5", "-m", "6")
    _run("account", "add", "jia", "--role", "team_leader", "--team", "A队", "--password-stdin",
         stdin="leader-password\n")
    saved = _run("--role", "team_leader", "--actor", "jia", "match", "lineup", "A队", "-r", "1", "1", "2", "3")
    assert "已保存 A队 第1轮出场名单: 1台 A队1、2台 A队2、3台 A队3" in saved  # fixed_order: as registered
    other = runner.invoke(app, ["--role", "team_leader", "--actor", "jia", "match", "lineup", "B队", "-r", "1",
                                "4", "5", "6"])
    assert other.exit_code != 0 and "领队只能提交本队的出场名单 (B队不是本账号的队伍)" in other.output
    stranger = runner.invoke(app, ["--role", "team_leader", "--actor", "nobody", "match", "lineup", "A队", "-r",
                                   "1", "1", "2", "3"])
    assert stranger.exit_code != 0 and "A队不是本账号的队伍" in stranger.output
