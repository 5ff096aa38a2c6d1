"""Tied board prizes follow the regulation's one rule for tied places (``prizes.tied_places``)."""

from __future__ import annotations

from pathlib import Path

from yisai.awards.inputs import EventResults
from yisai.awards.prizes import _board_prize
from yisai.regulation.loader import loads
from yisai.regulation.team_match import BoardPrize
from yisai.standings.teams import BoardPrizeRow

LEAGUE = (Path(__file__).resolve().parents[2] / "regulations" / "examples" / "team-league.toml").read_text("utf-8")

# three players tied for the one 最佳二台 (7 games, 6 board points each)
ROWS = [BoardPrizeRow(place=1, player_id=p, team_id=t, points=6, games=7, percentage=6 / 7)
        for p, t in (("a", "t1"), ("b", "t2"), ("c", "t3"))]


def _paid(text: str, prize: BoardPrize) -> list[int]:
    results = EventResults(regulation=loads(text, "league.toml"), players={}, rankings=())
    return [line.amount for line in _board_prize(prize, ROWS, results).lines]


def test_tied_board_prize_shares_the_money_when_the_regulation_says_share() -> None:
    one = BoardPrize(id="b2", name="最佳二台", board=2, places=1, amount=1000, min_games=3)
    # one place worth 1000 split three ways in whole yuan: 333 each, 1 yuan left over
    assert _paid(LEAGUE, one) == [333, 333, 333]
    two = BoardPrize(id="b2", name="最佳二台", board=2, places=2, amount=1000, min_games=3)
    # two places (2000) among three tied for 1st: 666 each, 2 yuan left over
    assert _paid(LEAGUE, two) == [666, 666, 666]


def test_tied_board_prize_pays_each_in_full_by_default() -> None:
    each_full = LEAGUE.replace('tied_places = "share"\n', "")
    one = BoardPrize(id="b2", name="最佳二台", board=2, places=1, amount=1000, min_games=3)
    assert _paid(each_full, one) == [1000, 1000, 1000]
