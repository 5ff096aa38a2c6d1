"""Later rounds, byes, director's controls, errors: small fields with hand-derived answers."""

from __future__ import annotations

import pytest

from tests.pairing.pairing_helpers import field, g
from yisai.pairing import Controls, Entrant, PairingError, pair_round
from yisai.record import Game, Result
from yisai.regulation.rules import PairingRules, Scoring


def _pairs(rp) -> set[frozenset[str]]:
    return {frozenset((b.black, b.white)) for b in rp.boards}


def _p(*pairs: tuple[int, int]) -> set[frozenset[str]]:
    return {frozenset((f"p{a:02d}", f"p{b:02d}")) for a, b in pairs}


def test_round2_pairs_within_score_groups():
    games = [g(1, "p01", "p03"), g(1, "p04", "p02", "W+")]  # p01, p02 win
    rp = pair_round(field(4), games, 2)
    assert _pairs(rp) == _p((1, 2), (3, 4))
    assert "同分组" in rp.boards[0].reasons[0]


def test_odd_group_floats_its_lowest_player_and_avoids_the_rematch():
    # Round 1 (slide): p01-p04, p02-p05, p03-p06; winners p01, p02, p06.
    games = [g(1, "p01", "p04"), g(1, "p02", "p05"), g(1, "p03", "p06", "W+")]
    rp = pair_round(field(6), games, 2)
    # The 2-point group {p01, p02, p06} is odd. Its lowest, p06, would meet the top of the
    # 0-point group, p03, but they already met; p06-p04 (cost 1) beats p02-p03 (cost 1 plus a
    # top-half pair p04-p05 below), so: p01-p02, p06-p04, p03-p05.
    assert _pairs(rp) == _p((1, 2), (6, 4), (3, 5))
    float_board = next(b for b in rp.boards if {b.black, b.white} == {"p06", "p04"})
    assert "p06 从2分组降至0分组" in float_board.reasons[0]
    assert "奇数" in float_board.reasons[0]


def test_bye_goes_to_the_lowest_placed_player_without_one():
    # 5 players, round 1: bye p05; p01-p03 and p02-p04 won by p01, p02.
    games = [g(1, "p01", "p03"), g(1, "p02", "p04"), g(1, "p05", None)]
    rp = pair_round(field(5), games, 2)
    assert [y.player for y in rp.byes] == ["p04"]
    assert _pairs(rp) == _p((1, 2), (5, 3))


def test_no_second_bye_when_another_player_can_take_it():
    games = [g(1, "p01", "p02"), g(1, "p03", "p04"), g(1, "p05", None)]
    rp = pair_round(field(5), games, 2, scoring=Scoring(bye=0))
    # 0-point group p02, p04, p05: p05 is lowest but had the bye, so p04 gets it.
    assert [y.player for y in rp.byes] == ["p04"]
    assert _pairs(rp) == _p((1, 3), (2, 5))
    assert rp.byes[0].points == 0


def test_three_players_who_all_met_cannot_be_paired():
    # 3 players, all met: p01-p02 r1 (bye p03), p01-p03 r2 (bye p02), p02-p03 r3 (bye p01).
    games = [g(1, "p01", "p02"), g(1, "p03", None), g(2, "p01", "p03"), g(2, "p02", None),
             g(3, "p02", "p03"), g(3, "p01", None)]
    with pytest.raises(PairingError) as err:
        pair_round(field(3), games, 4)
    assert "重复对局" in str(err.value)
    assert set(err.value.blocking) <= {"p01", "p02", "p03"} and err.value.blocking


def test_a_field_too_small_for_the_rounds_is_an_error_naming_players():
    games = []
    for r, pairs in enumerate([[("p01", "p02"), ("p03", "p04")], [("p01", "p03"), ("p02", "p04")],
                               [("p01", "p04"), ("p02", "p03")]], start=1):
        games += [g(r, a, b) for a, b in pairs]
    with pytest.raises(PairingError) as err:
        pair_round(field(4), games, 4)
    assert "第4轮无法在不重复对局的情况下完成编排" in str(err.value)
    assert len(err.value.blocking) >= 2


def test_missing_result_stops_the_next_round():
    games = [Game(1, "p01", "p03"), g(1, "p02", "p04")]
    with pytest.raises(PairingError, match="尚无结果"):
        pair_round(field(4), games, 2)


def test_team_avoidance_in_the_first_rounds_only():
    players = [Entrant(p.id, p.rank, p.rating, team=t) for p, t in zip(field(4), "XYXY", strict=True)]
    rules = PairingRules(avoid_same="team", avoid_rounds=1)
    # slide would be p01-p03 and p02-p04, both same-team; p01-p04, p02-p03 keep top v bottom.
    rp = pair_round(players, [], 1, rules=rules)
    assert _pairs(rp) == _p((1, 4), (2, 3))
    later = pair_round(players, [], 1, rules=PairingRules(avoid_same="team", avoid_rounds=0))
    assert _pairs(later) == _p((1, 3), (2, 4))


def test_team_avoidance_never_beats_the_score_groups():
    players = [Entrant(p.id, p.rank, p.rating, team=t) for p, t in zip(field(4), "XXYY", strict=True)]
    games = [g(1, "p01", "p03"), g(1, "p02", "p04")]  # p01, p02 (team X) lead alone
    rp = pair_round(players, games, 2, rules=PairingRules(avoid_same="team", avoid_rounds=9))
    assert _pairs(rp) == _p((1, 2), (3, 4))
    assert any("同队(X)未能回避" in r for b in rp.boards for r in b.reasons)


def test_fixed_pair_forbidden_pair_requested_bye_and_sit_out():
    controls = Controls(fixed_pairs=(("p02", "p01"),), forbidden_pairs=(("p03", "p07"),),
                        requested_byes=("p10",), sit_outs=("p09",))
    rp = pair_round(field(10), [], 1, controls=controls)
    fixed = next(b for b in rp.boards if b.fixed)
    assert (fixed.black, fixed.white) == ("p02", "p01")
    # pool p03..p08 in seeding order: slide p03-p06, p04-p07, p05-p08 is allowed.
    assert _pairs(rp) == _p((2, 1), (3, 6), (4, 7), (5, 8))
    assert [(y.player, y.requested, y.points) for y in rp.byes] == [("p10", True, 2)]
    assert rp.sit_outs == ("p09",)


def test_forbidden_pair_is_paired_around():
    rp = pair_round(field(8), [], 1, controls=Controls(forbidden_pairs=(("p01", "p05"),)))
    # Cheapest top-v-bottom pairing without p01-p05: swap the partners of p01 and p02.
    assert _pairs(rp) == _p((1, 6), (2, 5), (3, 7), (4, 8))


def test_absent_players_are_not_paired_and_odd_pool_gets_one_bye():
    rp = pair_round(field(8), [], 1, absent=("p08",))
    assert [y.player for y in rp.byes] == ["p07"]
    assert _pairs(rp) == _p((1, 4), (2, 5), (3, 6))
    assert rp.sit_outs == ("p08",)


def test_director_errors_are_reported():
    with pytest.raises(PairingError, match="未知棋手"):
        pair_round(field(4), [], 1, controls=Controls(sit_outs=("nobody",)))
    with pytest.raises(PairingError, match="两次"):
        pair_round(field(4), [], 1, controls=Controls(fixed_pairs=(("p01", "p02"),),
                                                       requested_byes=("p01",)))
    with pytest.raises(PairingError, match="重复对局"):
        pair_round(field(4), [g(1, "p01", "p02"), g(1, "p03", "p04")], 2,
                   controls=Controls(fixed_pairs=(("p02", "p01"),)))


def test_same_seed_same_pairing_and_boards_by_score():
    games = [g(1, "p01", "p05"), g(1, "p06", "p02", "W+"), g(1, "p03", "p07"), g(1, "p08", "p04")]
    a = pair_round(field(8), games, 2, seed=3)
    b = pair_round(field(8), list(reversed(games)), 2, seed=3)
    assert a == b
    tops = [max(x.black_score, x.white_score) for x in a.boards]
    assert tops == sorted(tops, reverse=True)
    assert [x.board for x in a.boards] == [1, 2, 3, 4]


def test_colours_balance_then_alternate():
    # p01 had Black twice, p02 White twice: p02 must take Black now.
    games = [g(1, "p01", "p03"), g(1, "p04", "p02", "W+"), g(2, "p01", "p04"),
             g(2, "p03", "p02", "W+")]
    rp = pair_round(field(4), games, 3)
    top = rp.boards[0]
    assert {top.black, top.white} == {"p01", "p02"}
    assert (top.black, top.white) == ("p02", "p01")
    assert "黑白平衡" in top.colour_reason


def test_forfeits_score_but_still_count_as_met():
    games = [Game(1, "p01", "p03", Result.BLACK_WINS, played=False), g(1, "p02", "p04")]
    rp = pair_round(field(4), games, 2)
    assert _pairs(rp) == _p((1, 2), (3, 4))
    assert rp.boards[0].black_score == 2 == rp.boards[0].white_score


def test_late_entrant_joins_with_absent_points():
    games = [g(1, "p01", "p03"), g(1, "p02", "p04")]
    rp = pair_round(field(5), games, 2)  # p05 entered late: 0 points, joins the 0 group
    assert [y.player for y in rp.byes] == ["p05"]
    rp2 = pair_round(field(5), games, 2, scoring=Scoring(absent=2))
    assert {"p05"} & {p for b in rp2.boards for p in (b.black, b.white)}


def test_placement_order_inside_a_group_follows_the_given_standings():
    games = [g(1, "p01", "p05"), g(1, "p02", "p06"), g(1, "p03", "p07"), g(1, "p04", "p08")]
    order = ["p04", "p03", "p02", "p01", "p08", "p07", "p06", "p05"]
    rp = pair_round(field(8), games, 2, order=order)
    assert _pairs(rp) == _p((4, 2), (3, 1), (8, 6), (7, 5))


def test_explanations_are_in_chinese_and_cover_every_board():
    rp = pair_round(field(7), [], 1)
    text = rp.explain()
    assert text[0].startswith("第一轮")
    assert sum(1 for line in text if line.startswith("第") and "台" in line) == 3
    assert any(line.startswith("轮空 p07") for line in text)
