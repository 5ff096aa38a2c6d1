"""Round 1: seeding by rank, rating, lot; slide / fold / split_lot / random; colours by lot."""

from __future__ import annotations

from tests.pairing.pairing_helpers import field
from yisai.pairing import Entrant, pair_round, seeding_order
from yisai.regulation.rules import PairingRules
from yisai.vocabulary.rank import Rank


def _pairs(rp) -> set[frozenset[str]]:
    return {frozenset((b.black, b.white)) for b in rp.boards}


def _p(*pairs: tuple[int, int]) -> set[frozenset[str]]:
    return {frozenset((f"p{a:02d}", f"p{b:02d}")) for a, b in pairs}


def test_slide_pairs_one_against_n_over_2_plus_1():
    rp = pair_round(field(8), [], 1)
    assert _pairs(rp) == _p((1, 5), (2, 6), (3, 7), (4, 8))
    assert rp.byes == ()


def test_fold_pairs_one_against_n():
    rp = pair_round(field(8), [], 1, rules=PairingRules(round1_method="fold"))
    assert _pairs(rp) == _p((1, 8), (2, 7), (3, 6), (4, 5))


def test_split_lot_pairs_top_half_with_bottom_half():
    top = {f"p{i:02d}" for i in range(1, 6)}
    seen = set()
    for seed in range(6):
        rp = pair_round(field(10), [], 1, rules=PairingRules(round1_method="split_lot"), seed=seed)
        for b in rp.boards:
            assert len({b.black, b.white} & top) == 1
        seen.add(frozenset(_pairs(rp)))
    assert len(seen) > 1  # the lot really draws


def test_random_is_a_full_pairing_and_reproducible():
    rules = PairingRules(round1_method="random")
    a = pair_round(field(10), [], 1, rules=rules, seed=5)
    b = pair_round(field(10), [], 1, rules=rules, seed=5)
    assert a == b
    assert len(a.boards) == 5
    assert len({p for x in _pairs(a) for p in x}) == 10
    assert len({frozenset(_pairs(pair_round(field(10), [], 1, rules=rules, seed=s)))
                for s in range(5)}) > 1


def test_odd_field_gives_the_bye_to_the_lowest_seed():
    rp = pair_round(field(9), [], 1)
    assert [y.player for y in rp.byes] == ["p09"]
    assert rp.byes[0].points == 2
    assert _pairs(rp) == _p((1, 5), (2, 6), (3, 7), (4, 8))


def test_seeding_rank_then_rating_then_lot():
    players = [
        Entrant("a", Rank.parse("3段"), 2000),
        Entrant("b", Rank.parse("5段"), 1500),
        Entrant("c", Rank.parse("3段"), 2100),
        Entrant("d", Rank.parse("3段"), 2100),
        Entrant("e", Rank.parse("1级"), 2600),
    ]
    order = seeding_order(players, PairingRules(), seed=1)
    assert order[0] == "b"  # highest rank
    assert set(order[1:3]) == {"c", "d"} and order[3] == "a"  # then rating; c/d by lot
    assert order[4] == "e"  # a kyu player is last whatever his rating
    by_lot = {tuple(seeding_order(players, PairingRules(), seed=s)[1:3]) for s in range(10)}
    assert by_lot == {("c", "d"), ("d", "c")}
    rating_first = seeding_order(players, PairingRules(round1_seeding=["rating", "rank"]), seed=1)
    assert rating_first[0] == "e"


def test_colours_by_lot_vary_with_the_seed():
    blacks = set()
    for seed in range(8):
        rp = pair_round(field(8), [], 1, seed=seed)
        assert all(b.colour_reason == "黑白由抽签决定" for b in rp.boards)
        blacks.add(rp.boards[0].black)
    assert blacks == {"p01", "p05"}


def test_round1_boards_follow_seeding():
    rp = pair_round(field(8), [], 1)
    assert [min(b.black, b.white) for b in rp.boards] == ["p01", "p02", "p03", "p04"]
    assert [b.board for b in rp.boards] == [1, 2, 3, 4]
