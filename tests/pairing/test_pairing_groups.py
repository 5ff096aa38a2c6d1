"""Groups A/B and the same-place final (seed 000's open final)."""

from __future__ import annotations

import pytest

from tests.pairing.pairing_helpers import field, g
from yisai.bench.simulate import simulate_swiss
from yisai.pairing import PairingError, final_places, pair_placement_final, split_groups
from yisai.record import Game, Result
from yisai.regulation.rules import PairingRules


def test_snake_split_gives_seeds_1_4_5_8_to_a():
    a, b = split_groups(field(8))
    assert a == ["p01", "p04", "p05", "p08"]
    assert b == ["p02", "p03", "p06", "p07"]


def test_lot_split_is_even_reproducible_and_varies_with_the_seed():
    a, b = split_groups(field(9), method="lot", seed=4)
    assert (len(a), len(b)) == (5, 4) and not set(a) & set(b)
    assert split_groups(field(9), method="lot", seed=4) == (a, b)
    assert len({tuple(split_groups(field(9), method="lot", seed=s)[0]) for s in range(6)}) > 1


def test_placement_final_pairs_equal_places_down_to_the_limit():
    ra = ["a1", "a2", "a3"]
    rb = ["b1", "b2", "b3"]
    rp = pair_placement_final(ra, rb, [], 10, limit=2)
    assert [{x.black, x.white} for x in rp.boards] == [{"a1", "b1"}, {"a2", "b2"}]
    assert rp.boards[0].reasons[0].startswith("同名次决赛: A组第1名对B组第1名, 决定第1、2名")
    assert set(rp.sit_outs) == {"a3", "b3"}


def test_placement_final_colours_balance_first():
    games = [g(1, "a1", "x"), g(2, "a1", "y"), g(1, "z", "b1"), g(2, "w", "b1")]
    rp = pair_placement_final(["a1"], ["b1"], games, 3)
    assert (rp.boards[0].black, rp.boards[0].white) == ("b1", "a1")


def test_final_places_winner_takes_the_odd_place_and_the_rest_interleave():
    ra, rb = ["a1", "a2", "a3", "a4"], ["b1", "b2", "b3"]
    final = [g(10, "a1", "b1", "W+"), g(10, "b2", "a2", "W+")]
    places = final_places(ra, rb, final, limit=2)
    assert [(p.place, p.player) for p in places] == [
        (1, "b1"), (2, "a1"), (3, "a2"), (4, "b2"), (5, "a3"), (6, "b3"), (7, "a4"),
    ]
    # with tie-breaks, B3 (better SOS) comes before A3 at the same group place
    sos = {"a3": (10.0,), "b3": (12.0,), "a4": (1.0,)}
    places = final_places(ra, rb, final, limit=2,
                          tiebreak=lambda p: sos.get(p, (0.0,)))
    assert [p.player for p in places][4:] == ["b3", "a3", "a4"]


def test_final_places_need_every_final_result():
    with pytest.raises(PairingError, match="缺少同名次决赛"):
        final_places(["a1"], ["b1"], [])


def test_two_groups_then_final_end_to_end():
    players = field(20)
    rules = PairingRules()
    a_ids, b_ids = split_groups(players, rules=rules)
    runs = {}
    for name, ids in (("A", a_ids), ("B", b_ids)):
        members = [p for p in players if p.id in ids]
        runs[name] = simulate_swiss(members, 5, rules=rules, seed=1)
    # a simple group ranking by score for the test (the standings engine does the real one)
    def ranking(run, ids):
        score = dict.fromkeys(ids, 0)
        for gm in run.games:
            for pid in (gm.black, gm.white):
                if pid is not None and gm.outcome_for(pid) == "W":
                    score[pid] += 2
        return sorted(ids, key=lambda p: -score[p])
    ra, rb = ranking(runs["A"], a_ids), ranking(runs["B"], b_ids)
    rp = pair_placement_final(ra, rb, runs["A"].games + runs["B"].games, 6, limit=4, rules=rules)
    assert len(rp.boards) == 4
    final = [b.game(6) for b in rp.boards]
    final = [Game(x.round, x.black, x.white, Result.BLACK_WINS) for x in final]
    places = final_places(ra, rb, final, limit=4)
    assert sorted(p.place for p in places) == list(range(1, 21))
    assert {p.player for p in places} == {p.id for p in players}


def test_final_places_say_why_in_the_words_of_the_final():
    """Each place says which game decided it (winner 2k−1, loser 2k) or, below the final, the
    stated rule: A3 is the first player below a final of places 1–4."""
    ra, rb = ["a1", "a2", "a3"], ["b1", "b2"]
    final = [g(10, "a1", "b1", "W+"), g(10, "b2", "a2", "W+")]  # White wins: b1, then a2
    assert [(p.place, p.player, p.reason) for p in final_places(ra, rb, final, limit=2)] == [
        (1, "b1", "同名次决赛 B组第1名胜A组第1名, 获第1名"),
        (2, "a1", "同名次决赛 A组第1名负于B组第1名, 获第2名"),
        (3, "a2", "同名次决赛 A组第2名胜B组第2名, 获第3名"),
        (4, "b2", "同名次决赛 B组第2名负于A组第2名, 获第4名"),
        (5, "a3", "同名次决赛只决定第1–4名; 以下按组内名次交错排列(同名次按组内小分, 再A组在前): A组第3名获第5名"),
    ]
    # a drawn final game: the group tie-breaks decide, and the words say so
    drawn = [g(10, "a1", "b1", "="), g(10, "b2", "a2", "W+")]
    first = final_places(ra, rb, drawn, limit=2, tiebreak=lambda p: {"a1": (1.0,), "b1": (2.0,)}.get(p, (0.0,)))[:2]
    assert [(p.player, p.reason) for p in first] == [
        ("b1", "同名次决赛 A组第1名与B组第1名未分胜负, 按组内小分(相同则A组在前)B组第1名获第1名"),
        ("a1", "同名次决赛 A组第1名与B组第1名未分胜负, 按组内小分(相同则A组在前)A组第1名获第2名")]
