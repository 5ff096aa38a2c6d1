"""积分 of one round: one table (``Scoring.points``) read by pairing, standings and h9.

The expected values are written from the rules, not from the code: the default scoring is the
regulations' "胜一局得2分，和1分，负0分" with a bye worth a win (轮空得2分) and a forfeit a 2–0
result (DESIGN.md, "Rules and their defaults"). A second scoring gives every field its own value,
so reading one field for another fails."""

from __future__ import annotations

import pytest

from yisai.pairing.history import build_histories
from yisai.record import Game, Result
from yisai.regulation.rules import Scoring
from yisai.standings.ledger import build_ledger

DEFAULT = Scoring()
DISTINCT = Scoring(win=3, draw=2, loss=1, bye=4, forfeit_win=5, forfeit_loss=-1, both_forfeit=-2, absent=7)

# (result, played) → (Black's points, White's points), per scoring, from the rules above
GAMES: dict[tuple[Result, bool], tuple[tuple[int, int], tuple[int, int]]] = {
    (Result.BLACK_WINS, True): ((2, 0), (3, 1)),
    (Result.WHITE_WINS, True): ((0, 2), (1, 3)),
    (Result.DRAW, True): ((1, 1), (2, 2)),
    (Result.BOTH_LOSE, True): ((0, 0), (1, 1)),  # both judged lost over the board: a loss each
    (Result.BOTH_WIN, True): ((2, 2), (3, 3)),
    (Result.UNKNOWN, True): ((0, 0), (0, 0)),  # not entered yet: nothing
    (Result.BLACK_WINS, False): ((2, 0), (5, -1)),  # White forfeited (弃权)
    (Result.WHITE_WINS, False): ((0, 2), (-1, 5)),
    (Result.DRAW, False): ((1, 1), (2, 2)),  # a drawn forfeit (referee's decision) scores as a draw
    (Result.BOTH_LOSE, False): ((0, 0), (-2, -2)),  # 双方弃权
    (Result.BOTH_WIN, False): ((2, 2), (5, 5)),
    (Result.UNKNOWN, False): ((0, 0), (0, 0)),
}
# a bye (轮空) as given, and one the referee marked lost (the player never came)
BYES = {Result.BLACK_WINS: (2, 4), Result.UNKNOWN: (2, 4), Result.BOTH_LOSE: (0, 1)}


@pytest.mark.parametrize(("result", "played"), list(GAMES))
@pytest.mark.parametrize("which", [0, 1])
def test_every_result_and_played_flag(result: Result, played: bool, which: int) -> None:
    scoring = (DEFAULT, DISTINCT)[which]
    game = Game(1, "b", "w", result, played, board=1)
    expected = GAMES[(result, played)][which]
    assert (scoring.game_points(game, "b"), scoring.game_points(game, "w")) == expected
    # pairing's score groups and the standings' cards read the same table
    hist = build_histories(["b", "w"], [game], 2, scoring) if result != Result.UNKNOWN or not played else None
    if hist is not None:
        assert (hist["b"].score, hist["w"].score) == expected
    ledger = build_ledger(["b", "w"], [game], 1, scoring)
    assert (ledger.points[0][0], ledger.points[1][0]) == expected


@pytest.mark.parametrize("result", list(BYES))
@pytest.mark.parametrize("which", [0, 1])
def test_byes_and_absent_rounds(result: Result, which: int) -> None:
    scoring = (DEFAULT, DISTINCT)[which]
    bye = Game(1, "b", None, result, played=False)
    expected = BYES[result][which]
    assert scoring.game_points(bye, "b") == expected
    assert build_histories(["b"], [bye], 2, scoring)["b"].score == expected
    assert build_ledger(["b"], [bye], 1, scoring).points[0][0] == expected
    # a round with neither game nor bye (withdrawn, absent): the ``absent`` points, 0 by default
    assert build_ledger(["b", "x"], [bye], 1, scoring).points[1][0] == (0, 7)[which]
    assert scoring.points("absent", "") == (0, 7)[which]
