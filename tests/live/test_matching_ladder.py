"""Periods and pools from seed 000, seeded random matching in waves, the points ladder."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from tests.conftest import REGULATIONS
from yisai.formats.regulation_file import load
from yisai.game.board import BLACK, WHITE
from yisai.game.flow import EndReason, Outcome
from yisai.qualifier.ladder import LadderLine, deltas, table
from yisai.qualifier.matching import Matchmaker, Waiting, pair_wave, wave_random
from yisai.qualifier.periods import closed_reason, ladder_stage, open_period, pool_of, pools

REG = load(REGULATIONS / "2025-shanhai-cup.toml")
STAGE, LADDER = ladder_stage(REG)


# ----- periods ----------------------------------------------------------------------------
def test_the_first_day_opens_at_ten_in_beijing_time() -> None:
    assert open_period(STAGE, datetime(2025, 5, 6, 9, 59, 59)) is None  # 第1期首日 10 点开始
    p = open_period(STAGE, datetime(2025, 5, 6, 10, 0))
    assert p is not None and p.number == 1
    assert "2025-05-06 10:00" in closed_reason(STAGE, datetime(2025, 5, 6, 9, 0)).zh


def test_any_time_of_day_within_a_period_and_the_next_period_at_ten() -> None:
    p = open_period(STAGE, datetime(2025, 5, 25, 23, 59))  # last day of period 1, late at night
    assert p is not None and p.number == 1
    assert open_period(STAGE, datetime(2025, 5, 26, 3, 0)) is None  # period 2 starts at 10:00
    p6 = open_period(STAGE, datetime(2025, 9, 3, 12, 0))
    assert p6 is not None and p6.number == 6
    assert open_period(STAGE, datetime(2025, 9, 4, 0, 0)) is None
    assert closed_reason(STAGE, datetime(2025, 9, 4)).en == "every period of this stage is over"


def test_pools_open_and_youth() -> None:
    assert pool_of(LADDER, "open") == "open"
    assert pool_of(LADDER, "junior") == "youth" and pool_of(LADDER, "kids") == "youth"
    assert pools(STAGE, LADDER) == ["open", "youth"]


# ----- matching ---------------------------------------------------------------------------
def w(player: str, last: str | None = None) -> Waiting:
    return Waiting(player, 0.0, last)


def test_a_wave_pairs_everyone_it_can_and_is_replayable() -> None:
    waiting = [w(f"p{i:02}") for i in range(11)]
    first = pair_wave(waiting, wave_random(7, "open", 1))
    assert len(first) == 5
    seated = [p for m in first for p in (m.black, m.white)]
    assert len(set(seated)) == 10
    again = pair_wave(list(reversed(waiting)), wave_random(7, "open", 1))
    assert again == first  # same seed, pool and wave: same pairs and colours, whatever the order


def test_never_the_same_opponent_twice_in_a_row_when_anyone_else_waits() -> None:
    for wave in range(1, 200):
        pairs = pair_wave([w("a", "b"), w("b", "a"), w("c"), w("d")], wave_random(1, "open", wave))
        assert len(pairs) == 2  # always repaired into a-c/b-d or a-d/b-c
        assert all({m.black, m.white} != {"a", "b"} for m in pairs)
        three = pair_wave([w("a", "b"), w("b", "a"), w("c")], wave_random(1, "open", wave))
        assert len(three) == 1 and {three[0].black, three[0].white} != {"a", "b"}


def test_the_last_opponents_meet_again_when_nobody_else_is_waiting() -> None:
    pairs = pair_wave([w("a", "b"), w("b", "a")], wave_random(3, "youth", 1))
    assert len(pairs) == 1 and {pairs[0].black, pairs[0].white} == {"a", "b"}


def test_nigiri_gives_black_to_either_player() -> None:
    blacks = Counter(pair_wave([w("a"), w("b")], wave_random(5, "open", n))[0].black
                     for n in range(1, 401))
    # a fair coin over 400 waves: both sides get Black, far from all-or-nothing (p < 1e-9)
    assert 140 < blacks["a"] < 260 and blacks["a"] + blacks["b"] == 400


def test_matchmaker_pools_are_separate_and_it_remembers_last_opponents() -> None:
    mm = Matchmaker(seed=20250506)
    for p in ("o1", "o2"):
        assert mm.enqueue("open", p, 0.0)
    assert mm.enqueue("youth", "y1", 0.0)
    assert not mm.enqueue("youth", "o1", 0.0)  # already waiting
    rec = mm.run_wave("open", 3.0)
    assert len(rec.pairs) == 1 and mm.waiting("open") == 0
    assert mm.last_opponent == {}  # not until the games are stored
    mm.confirm(rec)
    youth = mm.run_wave("youth", 3.0)
    assert youth.pairs == () and mm.waiting("youth") == 1  # nobody to play in the youth pool
    assert mm.last_opponent == {"o1": "o2", "o2": "o1"}
    for p in ("o1", "o2", "o3"):
        mm.enqueue("open", p, 4.0)
    second = mm.run_wave("open", 6.0)
    assert {second.pairs[0].black, second.pairs[0].white} != {"o1", "o2"}
    mm.requeue(second, present={"o1", "o2", "o3"})  # storing failed: everyone waits again
    assert mm.waiting("open") == 3
    replay = pair_wave(second.waiting, wave_random(second.seed, "open", second.number))
    assert tuple(replay) == second.pairs


# ----- ladder -----------------------------------------------------------------------------
def test_win_plus_two_loss_minus_two() -> None:
    d = deltas(LADDER, Outcome(BLACK, EndReason.RESIGN, "B+R"))
    assert (d[BLACK].points, d[WHITE].points) == (2, -2)
    t = deltas(LADDER, Outcome(WHITE, EndReason.TIME, "W+T"))
    assert (t[BLACK].points, t[WHITE].points, t[WHITE].win) == (-2, 2, True)


def test_escape_minus_two_and_the_opponent_plus_two() -> None:
    d = deltas(LADDER, Outcome(WHITE, EndReason.ESCAPE, "W+F"), escaped=[BLACK])
    # Seed 000: "逃跑扣除2分，对手得2分" — points for the opponent, not a 胜局 (escape_win_counts
    # = false in the regulation file), so the wins tie-break does not count it.
    assert (d[BLACK].points, d[BLACK].escape, d[WHITE].points, d[WHITE].win) == (-2, True, 2, False)
    both = deltas(LADDER, Outcome(0, EndReason.ESCAPE, "Void", void=True), escaped=[BLACK, WHITE])
    assert (both[BLACK].points, both[WHITE].points) == (-2, -2)


def test_whether_an_escape_win_is_a_win_is_the_regulations_setting() -> None:
    """Two players on 4 points: A won two games over the board, B won one over the board and
    one by the opponent's escape. Not counted (the seed's text): A has 2 wins, B 1, A first;
    counted: both have 2 wins and share the place."""
    assert LADDER.escape_win_counts is False
    counting = LADDER.model_copy(update={"escape_win_counts": True})
    for ladder, b_wins, places in ((LADDER, 1, [1, 2]), (counting, 2, [1, 1])):
        a = LadderLine("a")
        for _ in range(2):
            a = a.add(deltas(ladder, Outcome(BLACK, EndReason.RESIGN, "B+R"))[BLACK])
        b = LadderLine("b").add(deltas(ladder, Outcome(BLACK, EndReason.RESIGN, "B+R"))[BLACK])
        b = b.add(deltas(ladder, Outcome(WHITE, EndReason.ESCAPE, "W+F"), [BLACK])[WHITE])
        assert (a.points, b.points, a.wins, b.wins) == (4, 4, 2, b_wins)
        result, _ = table(ladder, "open", [b, a])
        assert sorted((r.place, r.player_id) for r in result.rows) == list(zip(places, ["a", "b"], strict=True))


def test_table_ranks_by_points_then_wins_with_the_regulation_quota() -> None:
    a = LadderLine("a")
    for _ in range(3):
        a = a.add(deltas(LADDER, Outcome(BLACK, EndReason.SCORE, "B+1.5"))[BLACK])
    b = LadderLine("b").add(deltas(LADDER, Outcome(BLACK, EndReason.ESCAPE, "B+F"), [WHITE])[WHITE])
    assert (a.points, a.wins, a.games) == (6, 3, 3)
    assert (b.points, b.escapes, b.games) == (-2, 1, 1)
    result, lines = table(LADDER, "open", [a, b])
    assert result.quota == 38 and [r.player_id for r in result.rows] == ["a", "b"]
    assert result.qualified == ("a", "b")  # fewer players than the 38 places
    assert lines["b"].escapes == 1
