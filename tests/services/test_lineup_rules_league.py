"""Line-up rules (issue 41) in a team league through the CLI: "每场至少1名18岁以下棋手出场",
"赛前30分钟提交" and a leader who may not play, each refused in Chinese naming the rule.

The example league (3 boards, at least one woman) with three teams and round 1 at 2026-04-11
13:30 by the timetable, so line-ups close at 13:00. Ages count on the stage's first day,
2026-04-11. Each team registers 一 (born 1990, also its 领队), 二 (1991), 三 (born 2009-05-01: 16,
under 18) and 女 (a woman born 1993). By hand:
* 东湖 二 三 女 at 13:00: fits every rule (one under 18, one woman, no leader) → saved;
* 江汉 一 二 女: its leader plays and nobody is under 18 → refused with both reasons;
* 黄鹤 at 13:01 → refused: past the deadline; it plays the default line-up, which leaves the
  leader out: 二 三 女 (registered order; 三 is the young player, 女 the woman).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from yisai.store import event_rows, roster_rows, round_rows

LEAGUE = REGULATIONS / "examples" / "team-league.toml"
TEAMS = ["东湖", "江汉", "黄鹤"]
RULES = """min_women = 1
youth_quota = { players = 1, under_age = 18 }
lineup_deadline_minutes = 30
leader_may_play = false
"""


def _regulation(tmp: Path) -> Path:
    text = LEAGUE.read_text(encoding="utf-8")
    text = text.replace("min_women = 1\n", RULES, 1)
    text = text.replace('details_note = "每周六下午进行一轮"\n',
                        'details_note = "每周六下午进行一轮"\n'
                        'timetable = [{ at = 2026-04-11T13:30:00, round = 1 }]\n', 1)
    path = tmp / "league.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    as_director(monkeypatch, tmp_path / "league.sqlite", "2026-03-20T09:00")
    return run_cli


def test_line_up_rules_are_enforced_on_submission(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from yisai.services.context import open_context
    from yisai.services.team_matches import team_round_view

    shown = run("regulation", "show", str(_regulation(tmp_path)))
    for line in ("每场至少1名18岁以下棋手出场", "出场名单须在赛前30分钟提交", "领队不得兼任队员出场"):
        assert line in shown, line
    run("event", "create", "--regulation", str(_regulation(tmp_path)), "--seed", "2026")
    number = 0
    for t in TEAMS:
        members = []
        for suffix, gender, birth in (("一", "男", "1990-01-01"), ("二", "男", "1991-01-01"),
                                      ("三", "男", "2009-05-01"), ("女", "女", "1993-01-01")):
            number += 1
            run("player", "add", "--name", f"{t}{suffix}", "--gender", gender, "--birth", birth,
                "--division", "团体组")
            members += ["-m", str(number)]
        run("team", "add", "--name", f"{t}队", "--leader", f"{t}一", *members)

    monkeypatch.setenv("YISAI_NOW", "2026-04-11T13:00")
    run("match", "lineup", "东湖队", "东湖二", "东湖三", "东湖女", "-r", "1")
    out = run("match", "lineup", "江汉队", "江汉一", "江汉二", "江汉女", "-r", "1", code=2)
    assert "规程: 领队不得兼任队员出场; 江汉一 是江汉队的领队" in out
    assert "规程: 每场至少1名18岁以下棋手出场; 名单中2026年4月11日未满18周岁的棋手0名" in out
    monkeypatch.setenv("YISAI_NOW", "2026-04-11T13:01")
    out = run("match", "lineup", "黄鹤队", "黄鹤二", "黄鹤三", "黄鹤女", "-r", "1", code=1)
    assert "规程: 出场名单须在赛前30分钟提交; 第1轮4月11日13:30开始, 已于13:00截止" in out

    run("pair", "-d", "团体组", "-r", "1")
    with open_context(str(tmp_path / "league.sqlite"), actor="裁判长") as ctx, ctx.work() as w:
        view = team_round_view(w, 1, 1)
        names = view.player_names
        seated: dict[str, list[str]] = {}
        for m in view.matches:
            for side, team in (("a", m.name_a), ("b", m.name_b)):
                if team is None:
                    continue
                seated[team] = [names[p] for b in m.boards
                                if (p := (b.player_a if side == "a" else b.player_b)) is not None]
    # three teams: one has the bye; whoever plays is seated by the rules
    expected = {"东湖队": ["东湖二", "东湖三", "东湖女"], "江汉队": ["江汉二", "江汉三", "江汉女"],
                "黄鹤队": ["黄鹤二", "黄鹤三", "黄鹤女"]}
    playing = {t: who for t, who in seated.items() if who}
    assert len(playing) == 2
    assert all(who == expected[t] for t, who in playing.items())


def test_line_up_rules_that_cannot_work_are_refused(tmp_path: Path) -> None:
    from yisai.regulation import RegulationError, loads

    text = _regulation(tmp_path).read_text(encoding="utf-8")
    too_many = text.replace("players = 1, under_age = 18", "players = 4, under_age = 18")
    with pytest.raises(RegulationError) as info:
        loads(too_many, "l.toml")
    assert "每场至少4名18岁以下棋手, 多于每场台数3" in str(info.value)
    no_times = text.replace("timetable = [{ at = 2026-04-11T13:30:00, round = 1 }]\n", "")
    with pytest.raises(RegulationError) as info:
        loads(no_times, "l.toml")
    assert "出场名单须在赛前30分钟提交, 但本阶段日程 (timetable) 没有写各轮时间" in str(info.value)


def test_the_demo_fields_a_young_player_in_every_line_up(tmp_path: Path) -> None:
    """`yisai demo --regulation` with the youth quota: every team's line-up in every round has a
    player under 18 on 2026-04-11, counted here from the stored players' birth dates."""
    from datetime import date

    from typer.testing import CliRunner

    from yisai.cli.app import app
    from yisai.services.context import unit_of_work

    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(app, ["demo", "--regulation", str(_regulation(tmp_path)), "--boards", "1",
                                      "--db", str(db)])
    assert result.exit_code == 0, result.output
    with unit_of_work(str(db)) as work:
        (event,) = event_rows.list_events(work.session)
        players = roster_rows.players_by_id(work.session, event.id)
        rounds = round_rows.list_rounds(work.session, event.id, "league")
    assert rounds
    for r in rounds:
        line_ups = r.info["lineups"]
        assert line_ups
        for team, line_up in line_ups.items():
            ages = [players[p].age_on(date(2026, 4, 11)) for p in line_up["players"]]
            assert any(a is not None and a < 18 for a in ages), (r.number, team)
