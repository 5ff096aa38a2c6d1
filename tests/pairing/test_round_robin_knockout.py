"""Round-robin groups and knockout brackets, with expected values worked out by hand from the
rules (snake: A B C D D C B A …; bracket seeds 1 v 8, 4 v 5, 2 v 7, 3 v 6; cross A1–B2 …)."""

from __future__ import annotations

import pytest

from tests.pairing.pairing_helpers import field
from yisai.pairing import PairingError
from yisai.pairing.knockout import (
    KnockoutRound,
    Undecided,
    bracket_order,
    cross_slots,
    group_seeds,
    knockout_places,
    match_outcome,
    next_entries,
    pair_knockout_round,
    seeded_slots,
    semi_final_losers,
)
from yisai.pairing.round_robin import group_rounds, group_seats, pair_group_round, snake_groups
from yisai.record import Game, Result
from yisai.regulation.stages import KnockoutRules


def test_snake_into_four_groups_goes_there_and_back() -> None:
    # 18 seeds: A B C D | D C B A | A B C D | D C B A | A B
    groups = snake_groups(field(18), 4)
    assert groups == [
        ["p01", "p08", "p09", "p16", "p17"],
        ["p02", "p07", "p10", "p15", "p18"],
        ["p03", "p06", "p11", "p14"],
        ["p04", "p05", "p12", "p13"],
    ]


def test_lot_groups_are_even_and_reproducible() -> None:
    groups = snake_groups(field(10), 3, method="lot", seed=5)
    assert sorted(len(g) for g in groups) == [3, 3, 4]
    assert sorted(p for g in groups for p in g) == [f"p{i:02d}" for i in range(1, 11)]
    assert snake_groups(field(10), 3, method="lot", seed=5) == groups


def test_too_few_players_for_the_groups_is_refused() -> None:
    with pytest.raises(PairingError):
        snake_groups(field(7), 4)


def test_seats_by_seeding_keep_the_order_and_by_lot_are_a_permutation() -> None:
    members = ["p01", "p08", "p09", "p16"]
    assert group_seats(members, "seeding", 3, "A") == members
    drawn = group_seats(members, "lot", 3, "A")
    assert sorted(drawn) == sorted(members) and drawn == group_seats(members, "lot", 3, "A")


def test_group_round_follows_the_berger_table_with_the_bye() -> None:
    seats = ["s1", "s2", "s3", "s4", "s5"]
    # 5 seats use the 6-seat table; round 2 is 6-4, 5-3, 1-2: seat 4 rests, 5 v 3, 1 v 2.
    rp = pair_group_round(seats, 2, 2, bye_points=0, group="A")
    assert [(b.black, b.white) for b in rp.boards] == [("s5", "s3"), ("s1", "s2")]
    assert [(y.player, y.points) for y in rp.byes] == [("s4", 0)]
    assert group_rounds(5) == 5 and group_rounds(4) == 3
    with pytest.raises(PairingError):
        pair_group_round(seats[:4], 4, 4)


def test_bracket_order_is_the_standard_seed_placement() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_byes_go_to_the_top_seeds() -> None:
    # 6 players in an 8-slot bracket: seeds 7 and 8 do not exist, so seeds 1 and 2 rest.
    slots = seeded_slots(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert slots == ["s1", None, "s4", "s5", "s2", None, "s3", "s6"]
    rp, pairs = pair_knockout_round(slots, 1, seed=1)
    assert sorted(y.player for y in rp.byes) == ["s1", "s2"]
    assert [frozenset((b.black, b.white)) for b in rp.boards] == [frozenset(("s4", "s5")), frozenset(("s3", "s6"))]
    assert pairs[0] == ("s1", None)


def test_cross_bracket_from_four_groups() -> None:
    orders = [["a1", "a2"], ["b1", "b2"], ["c1", "c2"], ["d1", "d2"]]
    assert cross_slots(orders) == ["a1", "b2", "c1", "d2", "b1", "a2", "d1", "c2"]
    assert group_seeds(orders, 2) == ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]
    with pytest.raises(PairingError):
        cross_slots(orders[:3])


def _won(round_no: int, winner: str, loser: str, board: int = 1) -> Game:
    return Game(round_no, winner, loser, Result.BLACK_WINS, board=board)


RULES = KnockoutRules(third_place=True)


def test_a_whole_bracket_with_a_third_place_match() -> None:
    seeds = {f"s{i}": i for i in range(1, 9)}
    qf_pairs = (("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6"))
    qf = KnockoutRound(qf_pairs, (_won(1, "s1", "s8"), _won(1, "s5", "s4", 2), _won(1, "s2", "s7", 3),
                                  _won(1, "s6", "s3", 4)))
    assert next_entries(qf, RULES, seeds) == ["s1", "s5", "s2", "s6"]
    _sf_pairing, sf_pairs = pair_knockout_round(["s1", "s5", "s2", "s6"], 2)
    assert sf_pairs == (("s1", "s5"), ("s2", "s6"))
    sf = KnockoutRound(sf_pairs, (_won(2, "s5", "s1"), _won(2, "s2", "s6", 2)))
    third = semi_final_losers(sf, RULES, seeds)
    assert third == ("s1", "s6")
    final_pairing, final_pairs = pair_knockout_round(next_entries(sf, RULES, seeds), 3, third=third)
    assert [frozenset((b.black, b.white)) for b in final_pairing.boards] == [
        frozenset(("s5", "s2")), frozenset(("s1", "s6"))]
    final = KnockoutRound(final_pairs, (_won(3, "s2", "s5"), _won(3, "s6", "s1", 2)), third)
    places = knockout_places([qf, sf, final], RULES, seeds)
    assert [(p, who) for p, who, _ in places] == [
        (1, "s2"), (2, "s5"), (3, "s6"), (4, "s1"), (5, "s8"), (5, "s4"), (5, "s7"), (5, "s3")]


def test_without_third_place_match_both_semi_final_losers_are_third() -> None:
    rules = KnockoutRules(third_place=False)
    sf = KnockoutRound((("a", "b"), ("c", "d")), (_won(1, "a", "b"), _won(1, "d", "c", 2)))
    final = KnockoutRound((("a", "d"),), (_won(2, "d", "a"),))
    places = knockout_places([sf, final], rules, {})
    assert [(p, who) for p, who, _ in places] == [(1, "d"), (2, "a"), (3, "b"), (3, "c")]


def test_a_missing_result_or_a_replay_stops_the_next_round() -> None:
    seeds = {"a": 1, "b": 2}
    with pytest.raises(Undecided):
        match_outcome(("a", "b"), [Game(1, "a", "b")], RULES, seeds)
    drawn = [Game(1, "b", "a", Result.DRAW)]
    with pytest.raises(Undecided) as info:
        match_outcome(("a", "b"), drawn, KnockoutRules(on_draw="replay"), seeds)
    assert "重赛" in str(info.value) and set(info.value.blocking) == {"a", "b"}


def test_drawn_and_both_lost_games_follow_the_stated_rule() -> None:
    seeds = {"a": 1, "b": 2}
    drawn = [Game(1, "b", "a", Result.DRAW)]  # b has Black
    assert match_outcome(("a", "b"), drawn, KnockoutRules(on_draw="black_wins"), seeds).winner == "b"
    assert match_outcome(("a", "b"), drawn, KnockoutRules(on_draw="white_wins"), seeds).winner == "a"
    assert match_outcome(("a", "b"), drawn, KnockoutRules(on_draw="higher_seed"), seeds).winner == "a"
    both = [Game(1, "b", "a", Result.BOTH_LOSE, played=False)]
    out = match_outcome(("a", "b"), both, KnockoutRules(on_both_lose="both_out"), seeds)
    assert out.winner is None and set(out.losers) == {"a", "b"}
    assert match_outcome(("a", "b"), both, KnockoutRules(on_both_lose="higher_seed"), seeds).winner == "a"
    with pytest.raises(Undecided):
        match_outcome(("a", "b"), both, KnockoutRules(on_both_lose="replay"), seeds)


def test_both_out_gives_the_next_opponent_a_walkover() -> None:
    seeds = {"a": 1, "b": 4, "c": 2, "d": 3}
    sf = KnockoutRound((("a", "b"), ("c", "d")),
                       (Game(1, "a", "b", Result.BOTH_LOSE, played=False), _won(1, "c", "d", 2)))
    rules = KnockoutRules(third_place=True, on_both_lose="both_out")
    entries = next_entries(sf, rules, seeds)
    assert entries == [None, "c"]
    # No third-place match: one semi-final had no single loser.
    assert semi_final_losers(sf, rules, seeds) is None
    final_pairing, final_pairs = pair_knockout_round(entries, 2)
    assert final_pairing.boards == () and [y.player for y in final_pairing.byes] == ["c"]
    places = knockout_places([sf, KnockoutRound(final_pairs, final_pairing.games())], rules, seeds)
    assert [(p, who) for p, who, _ in places] == [(1, "c"), (3, "a"), (3, "b"), (3, "d")]
