"""A team league played as a double round robin (issue 41: "第二循环双方执黑执白互换"): the example
league's regulation with ``system = "double_round_robin"``, six teams of four (three men, one
woman; the default line-up is the registered order), ten rounds.

By hand: each cycle of six teams is 5 rounds of 3 matches of 3 boards (45 games); round 5+k
repeats round k's matches, team A the same, and every board's colours are the other way round
(so 15 of 15 board-1 games swapped). The team registered earlier wins every board: per cycle
东湖 5 match wins, 江汉 4, 黄鹤 3, 汉阳 2, 武昌 1, 青山 0; over both cycles 场分 (2 a win)
20, 16, 12, 8, 4, 0 and 局分 30, 24, 18, 12, 6, 0 — counting one cycle would give half.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import reports
from yisai.services.context import Context, Refused, open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.results import division_progress
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.services.team_matches import team_round_view, team_stage_rounds
from yisai.services.teams import add_team
from yisai.store import event_rows

TEAMS = ["东湖", "江汉", "黄鹤", "汉阳", "武昌", "青山"]
NOW = datetime(2026, 3, 20, 9, 0)
Games = dict[int, dict[tuple[frozenset[str], int], tuple[str, str]]]  # round → (teams, board) → (black, white)


def _regulation(tmp: Path) -> Path:
    text = (REGULATIONS / "examples" / "team-league.toml").read_text(encoding="utf-8")
    assert 'system = "round_robin"' in text
    path = tmp / "double-league.toml"
    path.write_text(text.replace('system = "round_robin"', 'system = "double_round_robin"'), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Context, Games, list]]:
    tmp = tmp_path_factory.mktemp("team-drr")
    games: Games = {}
    progress = []
    with open_context(str(tmp / "l.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            event = create_event(w, _regulation(tmp), seed=2026)
            for i, t in enumerate(TEAMS):
                members = []
                for k, suffix in enumerate(("一", "二", "三", "女")):
                    p = Player(id="", name=f"{t}{suffix}", gender=Gender.FEMALE if suffix == "女" else Gender.MALE,
                               birth_date=date(1990 + k, 1 + i, 15), id_number=None)
                    members.append((register_player(w, event, p, division="league").player.id, None))
                add_team(w, event, Team(name=f"{t}队"), members)
        for rnd in range(1, 11):
            with ctx.work() as w:
                pair(w, event.id, "league", rnd)
                view = team_round_view(w, event.id, rnd)
                names = view.player_names
                games[rnd] = {}
                for m in view.matches:
                    for b in m.boards:
                        table = view.tables[(m.number, b.board)]
                        game = view.games[table]
                        black, white = names[game.black], names[game.white]
                        games[rnd][(frozenset((m.name_a, m.name_b)), b.board)] = (black, white)
                        winner = min(black[:2], white[:2], key=TEAMS.index)
                        record_result(w, event.id, "league", rnd, table, "黑胜" if black[:2] == winner else "白胜")
            with ctx.work() as w:
                progress.append(division_progress(w, event_rows.get_event(w.session, event.id), "league"))
        yield ctx, games, progress


def test_the_second_cycle_repeats_the_matches_with_every_board_swapped(league) -> None:
    _ctx, games, _progress = league
    for r in range(1, 6):
        assert len(games[r]) == 9
        assert set(games[r + 5]) == set(games[r])  # the same matches, board by board
        assert all(games[r + 5][key] == (w, b) for key, (b, w) in games[r].items())
    first_cycle = {frozenset(teams) for r in range(1, 6) for teams, _board in games[r]}
    assert len(first_cycle) == 15  # every pair of the six teams once per cycle
    board1 = [(key, r) for r in range(1, 6) for key in games[r] if key[1] == 1]
    assert sum(games[r + 5][key] == games[r][key][::-1] for key, r in board1) == 15


def test_one_final_team_table_over_both_cycles(league) -> None:
    ctx, _games, progress = league
    assert [p.final for p in progress] == [False] * 9 + [True]
    assert progress[4].note.zh == "暂定 (第5轮后)"
    with ctx.work() as w:
        assert team_stage_rounds(w, 1) == 10
        table = reports.prizes(w, 1).teams[0]
    assert [(r.name, r.place, r.value, r.board_points) for r in table.rows] == [
        ("东湖队", 1, 20, 30), ("江汉队", 2, 16, 24), ("黄鹤队", 3, 12, 18),
        ("汉阳队", 4, 8, 12), ("武昌队", 5, 4, 6), ("青山队", 6, 0, 0)]


def test_there_is_no_eleventh_round(league) -> None:
    ctx, _games, _progress = league
    with pytest.raises(Refused) as info, ctx.work() as w:
        pair(w, 1, "league", 11)
    assert info.value.code == "no_such_round"
