"""Issue 41's smaller rules: 协办单位 among the organisers, a souvenir for every player, and a
best-board prize that counts only the boards actually played ("出场")."""

from __future__ import annotations

import pytest

from tests.awards.awardfields import REGULATIONS, player, results, table
from yisai.awards.prizes import compute_prizes
from yisai.formats.awards_report import prize_summary
from yisai.formats.regulation_summary import summarize
from yisai.regulation.loader import RegulationError, loads
from yisai.regulation.team_match import BoardPrize
from yisai.standings.teams import BoardResult, TeamMatch, board_prize_rows

KIDS = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")


def test_co_organisers_are_stated_and_not_doubled() -> None:
    # "三、协办单位:珠海弈林棋院 珠海市天元棋院" (corpus text 01)
    text = KIDS.replace("[organisers]\n", '[organisers]\nco_organisers = ["弈林棋院", "天元棋院"]\n', 1)
    assert "协办单位: 弈林棋院、天元棋院" in "\n".join(summarize(loads(text, "k.toml")))
    host = loads(KIDS, "k.toml").organisers.hosts[0]
    with pytest.raises(RegulationError) as err:
        loads(KIDS.replace("[organisers]\n", f'[organisers]\nco_organisers = ["{host}"]\n', 1), "k.toml")
    assert "co_organisers" in str(err.value) and "同时列为主办单位" in str(err.value)


def test_a_souvenir_for_every_player() -> None:
    # "参赛棋手均发给纪念品" (corpus text 17): 3 in 段位组 + 2 in 级位组 = 5 souvenirs, winners too
    reg = loads(KIDS.replace("tied_places = \"share\"\n", 'tied_places = "share"\nsouvenir = "纪念品"\n', 1), "k.toml")
    dan, kyu = ["d1", "d2", "d3"], ["k1", "k2"]
    r = results(reg, [player(p) for p in dan] + [player(p, rank="5级") for p in kyu],
                [table("dan", "all", dan), table("kyu", "all", kyu)], entrants={"dan": dan, "kyu": kyu})
    report = compute_prizes(r)
    assert (report.souvenir, report.souvenirs) == ("纪念品", 5)
    assert ("纪念品（每名参赛棋手）", "纪念品", "5人", None) in prize_summary(report).rows
    assert "参赛棋手均发给纪念品: 纪念品" in "\n".join(summarize(reg))


def _board1(rnd: int, a: str | None, b: str | None, pa: float) -> TeamMatch:
    board = BoardResult(1, a, b, pa, 1 - pa if b is not None and a is not None else 0)
    return TeamMatch(rnd, f"T{rnd}a", f"T{rnd}b", pa, 1 - pa, (board,))


def test_best_board_counts_only_boards_played() -> None:
    # 甲 wins board 1 in rounds 1–2 and in round 3 his opponent's team had nobody on it; 乙 wins
    # three games played. With forfeits counted both have 3 points in 3 games and share 1st;
    # counting only boards played, 甲 has 2 games (< min_games 3) and 乙 alone is best.
    matches = [_board1(1, "甲", "x1", 1), _board1(2, "甲", "x2", 1), _board1(3, "甲", None, 1),
               _board1(4, "乙", "y1", 1), _board1(5, "乙", "y2", 1), _board1(6, "乙", "y3", 1)]
    prize = BoardPrize(id="b1", name="最佳主将", board=1, min_games=3)
    assert [(r.player_id, r.place, r.games) for r in board_prize_rows(prize, matches, 1)] == [
        ("乙", 1, 3), ("甲", 1, 3)]
    played = prize.model_copy(update={"played_only": True})
    assert [(r.player_id, r.place, r.games) for r in board_prize_rows(played, matches, 1)] == [("乙", 1, 3)]
