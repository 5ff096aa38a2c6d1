"""The example city team league from an empty database to the prize list, through the CLI and
the services (issue 23: it used to pair 24 individuals and rank six teams tied first).

Six teams of four (three men registered first, one woman fourth) play a single round robin on
three boards; `min_women = 1` puts each woman on board 3 by default. Results follow one rule so
every number below can be worked out by hand:

* the team registered earlier wins all three boards, except a cycle among the first three:
  江汉 beats 东湖 2:1 (东湖 wins board 1), 黄鹤 beats 江汉 2:1 (江汉 wins board 3),
  东湖 beats 黄鹤 2:1 (黄鹤 wins board 2);
* 青山 hands in a two-player line-up for round 2, so its board 3 is forfeited.

场分: 东湖, 江汉, 黄鹤 4 wins each → 8; 汉阳 2 wins → 4; 武昌 1 → 2; 青山 0.
局分: the three leaders 2+1+3+3+3 = 12 each (a tie); 汉阳 6, 武昌 3, 青山 0.
直胜 among the three: each won one match of the cycle → 2 each, no split.
主将台局分: 东湖 1+1+3 = 5, 黄鹤 1+0+3 = 4, 江汉 0+0+3 = 3 → 东湖 1st, 黄鹤 2nd, 江汉 3rd.
Prizes 8000/5000/3000; 最佳主将 东湖一 (5 in 5), 最佳二台 黄鹤二 (1+1+3 = 5),
最佳三台 江汉女 (1+1+3 = 5); total 19,000 yuan.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from yisai.store import roster_rows

LEAGUE = str(REGULATIONS / "examples" / "team-league.toml")
TEAMS = ["东湖", "江汉", "黄鹤", "汉阳", "武昌", "青山"]
CYCLE = {  # (winner, loser): boards the loser wins
    ("江汉", "东湖"): {1},
    ("黄鹤", "江汉"): {3},
    ("东湖", "黄鹤"): {2},
}


def board_winner(team_a: str, team_b: str, board: int) -> str:
    for (winner, loser), lost in CYCLE.items():
        if {winner, loser} == {team_a, team_b}:
            return loser if board in lost else winner
    return min(team_a, team_b, key=TEAMS.index)


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    as_director(monkeypatch, tmp_path / "league.sqlite", "2026-03-20T09:00")
    return run_cli


def test_team_league_end_to_end(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from yisai.services import reports
    from yisai.services.context import open_context
    from yisai.services.team_matches import team_round_view

    run("event", "create", "--regulation", LEAGUE, "--seed", "2026")
    number = 0
    for t in TEAMS:
        members = []
        for k, (suffix, gender) in enumerate((("一", "男"), ("二", "男"), ("三", "男"), ("女", "女"))):
            number += 1
            run("player", "add", "--name", f"{t}{suffix}", "--gender", gender, "--birth",
                f"199{k}-0{1 + TEAMS.index(t)}-15", "--division", "团体组")
            members += ["-m", str(number)]
        run("team", "add", "--name", f"{t}队", *members)

    db = str(tmp_path / "league.sqlite")
    # 报名费 600 元/队 is charged once per team, not on each player's entry
    assert "每队报名费 600 元 (规程按队收取), 共 3600 元" in run("team", "list")
    with open_context(db, actor="裁判长") as ctx, ctx.work() as w:
        assert {e.fee_due for e in roster_rows.list_entries(w.session, 1)} == {0}
    for rnd in range(1, 6):
        if rnd == 2:
            run("match", "lineup", "青山队", "青山一", "青山女", "-r", "2")
            # a leader account of no team may not hand in another team's line-up
            out = run("--role", "领队", "match", "lineup", "东湖队", "东湖一", "东湖二", "东湖女", "-r", "2", code=1)
            assert "领队只能提交本队的出场名单" in out
        out = run("pair", "-d", "团体组", "-r", str(rnd))
        assert "第1场" in out
        with open_context(db, actor="裁判长") as ctx, ctx.work() as w:
            view = team_round_view(w, 1, rnd)
            names = view.player_names
        for m in view.matches:
            assert m.team_b is not None  # six teams: no bye
            for b in m.boards:
                table = view.tables[(m.number, b.board)]
                if b.player_a is None or b.player_b is None:
                    assert (rnd, m.name_b if b.player_b is None else m.name_a, b.board) in {
                        (2, "青山队", 3)}  # only the forfeited board has nobody
                    continue
                game = view.games[table]
                ta, tb = names[b.player_a][:2], names[b.player_b][:2]
                assert ta != tb  # teammates never meet (the bug)
                winner = board_winner(ta, tb, b.board)
                black_team = names[game.black][:2]
                run("result", "黑胜" if winner == black_team else "白胜", "-d", "团体组", "-r", str(rnd),
                    "-b", str(table))
        shown = run("match", "show", "-r", str(rnd))
        assert "场分" in shown
    run("pair", "-d", "团体组", "-r", "6", code=1)  # 6 teams: 5 rounds
    with open_context(db, actor="裁判长") as ctx, ctx.work() as w:
        from yisai.services.team_matches import team_stage_rounds

        assert team_stage_rounds(w, 1) == 5

    with open_context(db, actor="裁判长") as ctx, ctx.work() as w:
        view = reports.prizes(w, 1)
        r2 = team_round_view(w, 1, 2)
    table = view.teams[0]
    assert [(r.name, r.place, r.value, r.board_points) for r in table.rows] == [
        ("东湖队", 1, 8, 12), ("黄鹤队", 2, 8, 12), ("江汉队", 3, 8, 12),
        ("汉阳队", 4, 4, 6), ("武昌队", 5, 2, 3), ("青山队", 6, 0, 0)]
    assert [dict(r.tie_values)["主将台局分"] for r in table.rows[:3]] == [5, 4, 3]
    assert [dict(r.tie_values)["直胜"] for r in table.rows[:3]] == [2, 2, 2]
    # 抽签 is drawn (once, from the event's seed 2026): every team holds one number 1..6
    assert sorted(dict(r.tie_values)["抽签"] for r in table.rows) == [1, 2, 3, 4, 5, 6]
    qs = next(m for m in r2.matches if "青山队" in (m.name_a, m.name_b))
    side_b = qs.name_b == "青山队"
    forfeited = qs.boards[2]
    assert (forfeited.player_b if side_b else forfeited.player_a) is None
    assert (forfeited.points_a, forfeited.points_b) == ((1, 0) if side_b else (0, 1))
    report = view.report
    assert [(ln.name, ln.amount) for ln in report.list("teams").lines] == [
        ("东湖队", 8000), ("黄鹤队", 5000), ("江汉队", 3000)]
    assert [(ln.name, ln.amount) for ln in report.list("best-board1").lines] == [("东湖一", 1000)]
    assert [(ln.name, ln.amount) for ln in report.list("best-board2").lines] == [("黄鹤二", 1000)]
    assert [(ln.name, ln.amount) for ln in report.list("best-board3").lines] == [("江汉女", 1000)]
    assert report.total == 19000

    standings = run("match", "standings")
    assert "东湖队" in standings and "主将台局分" in standings
    assert "合计" in run("prizes")
