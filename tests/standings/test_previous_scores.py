"""依次比较上轮积分 (text 17: "还不能区分则依次比较上轮积分, 高者列前"): the score after the previous
round decides, then the score after the round before, and so on back to round 1. Six players, four
rounds, computed by hand (win 2, draw 1, loss 0):

R1: A–B B wins; C–D C wins; E–F E wins.
R2: A–C A wins; B–E draw;   D–F D wins.
R3: A–D A wins; B–F F wins; C–E C wins.
R4: F–A F wins; B–C draw;   D–E E wins.

Running scores after R1, R2, R3, R4:
A 0,2,4,4   B 2,3,3,4   C 2,2,4,5   D 0,2,2,2   E 2,3,3,5   F 0,0,2,4   (sum 24 = 12 games × 2)
"""

from __future__ import annotations

from yisai.record import Game, Result
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules
from yisai.standings import StandingsPlayer, compute_table, rank

PLAYERS = [StandingsPlayer(id=x, name=x) for x in "ABCDEF"]
GAMES = [
    Game(1, "A", "B", Result.WHITE_WINS), Game(1, "C", "D", Result.BLACK_WINS), Game(1, "E", "F", Result.BLACK_WINS),
    Game(2, "A", "C", Result.BLACK_WINS), Game(2, "B", "E", Result.DRAW), Game(2, "D", "F", Result.BLACK_WINS),
    Game(3, "A", "D", Result.BLACK_WINS), Game(3, "B", "F", Result.WHITE_WINS), Game(3, "C", "E", Result.BLACK_WINS),
    Game(4, "F", "A", Result.BLACK_WINS), Game(4, "B", "C", Result.DRAW), Game(4, "D", "E", Result.WHITE_WINS),
]
SPECS = [CriterionSpec(criterion=Criterion.PREVIOUS_SCORES), CriterionSpec(criterion=Criterion.CUMULATIVE)]


def test_the_column_is_the_running_score_from_the_previous_round_back_to_round_1():
    t = compute_table(PLAYERS, GAMES, 4, specs=SPECS)
    # (after R3, after R2, after R1), read off the running scores above
    assert {p: t.value(p, "previous_scores") for p in "ABCDEF"} == {
        "A": (4, 2, 0), "B": (3, 3, 2), "C": (4, 2, 2), "D": (2, 2, 0), "E": (3, 3, 2), "F": (2, 0, 0),
    }


def test_ties_on_score_are_broken_by_the_previous_rounds_in_turn():
    t = compute_table(PLAYERS, GAMES, 4, specs=SPECS)
    st = rank(t, RankingRules(criteria=["score", "previous_scores"]))
    # score 5: C (4 after R3) above E (3); score 4: A (4 after R3) above B (3) above F (2); D 2.
    assert [r.player.id for r in st.rows] == ["C", "E", "A", "B", "F", "D"]
    assert [r.place for r in st.rows] == [1, 2, 3, 4, 5, 6]
    # 累进分 would order A and B the other way: A 0+2+4+4 = 10, B 2+3+3+4 = 12.
    assert (t.value("A", "cumulative"), t.value("B", "cumulative")) == (10, 12)


def test_an_equal_previous_round_falls_to_the_round_before():
    # After round 3 only (R1–R3): A 4 (running 0,2,4), C 4 (2,2,4): both 2 after R2, so R1 decides: C 2 > A 0.
    t = compute_table(PLAYERS, GAMES, 3, specs=SPECS)
    assert (t.value("A", "previous_scores"), t.value("C", "previous_scores")) == ((2, 0), (2, 2))
    st = rank(t, RankingRules(criteria=["score", "previous_scores"]))
    ids = [r.player.id for r in st.rows]
    assert ids.index("C") < ids.index("A")


def test_the_regulation_names_it_in_chinese():
    rr = RankingRules(criteria=["积分", "对手分", "上轮积分"])
    assert rr.criteria[2].criterion is Criterion.PREVIOUS_SCORES
