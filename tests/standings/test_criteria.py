"""Chinese criteria on a 5-player, 3-round event computed by hand (see the table in each test).

R1: A(黑) beat B; C–D draw; E bye.      R2: C(白) beat A; B beat E by forfeit (E absent); D bye.
R3: A(白) beat D; E(白) beat C; B bye.
Defaults: win 2, draw 1, loss 0, bye 2, forfeit 2–0; byes and forfeits add nothing to 对手分.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from yisai.record import Game, Result
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules, Scoring
from yisai.standings import ALL_CRITERIA, StandingsPlayer, compute_table

PLAYERS = [StandingsPlayer(id=x, name=x) for x in "ABCDE"]
GAMES = [
    Game(1, "A", "B", Result.BLACK_WINS),
    Game(1, "C", "D", Result.DRAW),
    Game(1, "E", None, Result.BLACK_WINS, played=False),
    Game(2, "A", "C", Result.WHITE_WINS),
    Game(2, "B", "E", Result.BLACK_WINS, played=False),
    Game(2, "D", None, Result.BLACK_WINS, played=False),
    Game(3, "D", "A", Result.WHITE_WINS),
    Game(3, "C", "E", Result.WHITE_WINS),
    Game(3, "B", None, Result.BLACK_WINS, played=False),
]


def col(table, key):
    return {pid: table.value(pid, key) for pid in "ABCDE"}


@pytest.fixture
def table():
    return compute_table(PLAYERS, GAMES, 3, Scoring(), RankingRules(), list(ALL_CRITERIA))


def test_score_and_cumulative(table):
    # A: 2,0,2  B: 0,2(forfeit),2(bye)  C: 1,2,0  D: 1,2(bye),0  E: 2(bye),0,2
    assert col(table, "score") == {"A": 4, "B": 4, "C": 3, "D": 3, "E": 4}
    # running totals A 2,2,4  B 0,2,4  C 1,3,3  D 1,3,3  E 2,2,4
    assert col(table, "cumulative") == {"A": 8, "B": 6, "C": 7, "D": 7, "E": 8}


def test_sos_ignores_byes_and_forfeits_by_default(table):
    # A: B4+C3+D3; B: A4 only; C: D3+A4+E4; D: C3+A4; E: C3 only
    assert col(table, "sos") == {"A": 10, "B": 4, "C": 11, "D": 7, "E": 3}
    # contributions A[4,3,3] B[4,0,0] C[3,4,4] D[3,0,4] E[0,0,3]
    assert col(table, "sos_minus1") == {"A": 7, "B": 4, "C": 8, "D": 7, "E": 3}
    assert col(table, "sos_minus2") == {"A": 4, "B": 4, "C": 4, "D": 4, "E": 3}


def test_sos_cut_both_directions(table):
    assert col(table, "sos_cut") == {
        "A": (6, 3),
        "B": (0, 0),
        "C": (8, 4),
        "D": (4, 4),
        "E": (3, 3),
    }
    assert col(table, "sos_cut_from_last") == {
        "A": (7, 4),
        "B": (4, 4),
        "C": (7, 3),
        "D": (3, 3),
        "E": (0, 0),
    }


def test_sodos_counts_draws_pro_rata(table):
    # A beat B(4) and D(3); C drew D(3) and beat A(4); D drew C(3); E beat C(3); B's only win
    # was a forfeit, which does not count.
    assert col(table, "sodos") == {
        "A": 7,
        "B": 0,
        "C": Fraction(11, 2),
        "D": Fraction(3, 2),
        "E": 3,
    }


def test_wins_and_white_wins(table):
    assert col(table, "wins") == {"A": 2, "B": 1, "C": 1, "D": 0, "E": 1}
    assert col(table, "white_wins") == {"A": 1, "B": 0, "C": 1, "D": 0, "E": 1}


def test_second_order_sums(table):
    assert col(table, "sosos") == {"A": 22, "B": 10, "C": 20, "D": 21, "E": 11}
    assert col(table, "opp_cumulative") == {"A": 20, "B": 8, "C": 23, "D": 15, "E": 7}
    assert col(table, "total_score") == {"A": 14, "B": 8, "C": 14, "D": 10, "E": 7}


def test_forfeit_counted_when_regulation_says_so():
    t = compute_table(PLAYERS, GAMES, 3, Scoring(forfeit_counts_in_sos=True), RankingRules())
    assert t.value("B", "sos") == 8  # A 4 + E 4
    assert t.value("E", "sos") == 7  # B 4 + C 3


def test_total_score_formula_and_absent_points():
    rules = RankingRules(total_score={Criterion.SCORE: 2, Criterion.CUMULATIVE: 1})
    t = compute_table(
        PLAYERS,
        GAMES[:6],
        3,
        Scoring(absent=1),
        rules,
        [CriterionSpec(criterion=Criterion.TOTAL_SCORE)],
    )
    # Round 3 not played: everybody gets the 1 absent point. A: 2,0,1 = 3; running 2,2,3 = 7
    assert t.value("A", "score") == 3
    assert t.value("A", "total_score") == 2 * 3 + 7


def test_round_filter_uses_only_rounds_up_to_r():
    t = compute_table(PLAYERS, GAMES, 1, Scoring(), RankingRules())
    assert col(t, "score") == {"A": 2, "B": 0, "C": 1, "D": 1, "E": 2}


def test_broken_ledger_is_an_error():
    with pytest.raises(ValueError, match="两盘"):
        compute_table(PLAYERS, [*GAMES, Game(1, "A", "C", Result.DRAW)], 3)
    with pytest.raises(ValueError, match="不在选手名单"):
        compute_table(PLAYERS, [Game(1, "A", "Z", Result.DRAW)], 1)
