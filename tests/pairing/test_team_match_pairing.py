"""团体赛编排: teams meet teams (Swiss by 场分 with no rematch, or the Berger tables), boards laid
out with the stated colour rule, board numbers running across the matches."""

from __future__ import annotations

from itertools import combinations

from yisai.pairing.berger import round_count
from yisai.pairing.team_match import (
    MatchRecord,
    PairedMatch,
    a_is_black,
    board_games,
    lay_boards,
    pair_teams_round_robin,
    pair_teams_swiss,
    round_robin_seats,
)
from yisai.regulation.team_match import TeamMatchFormat

TEAMS = ["T1", "T2", "T3", "T4", "T5", "T6"]


def fmt(system: str = "swiss", **kw: object) -> TeamMatchFormat:
    return TeamMatchFormat.model_validate({"kind": "team_match", "system": system, "rounds": 5,
                                           "boards": 3, "competition": "c", **kw})


def test_colours_alternate_by_board_and_by_round() -> None:
    # 规程: the first-named team takes Black on odd boards in odd rounds, even boards in even rounds.
    assert [a_is_black(1, b) for b in (1, 2, 3, 4)] == [True, False, True, False]
    assert [a_is_black(2, b) for b in (1, 2, 3, 4)] == [False, True, False, True]


def test_boards_are_numbered_across_matches_and_a_short_line_up_leaves_a_board_empty() -> None:
    second = PairedMatch(2, "T3", "T4", first_board=4)
    seats = lay_boards(second, ["a1", "a2", "a3"], ["b1", "b2"], 1, fmt())
    assert [(s.table, s.player_a, s.player_b) for s in seats] == [(4, "a1", "b1"), (5, "a2", "b2"), (6, "a3", None)]
    games = board_games(seats, 1)
    # board 3 has nobody from T4: no game; T4 forfeits it
    assert [(g.board, g.black, g.white) for g in games] == [(4, "a1", "b1"), (5, "b2", "a2")]


def test_swiss_round_one_pairs_upper_half_against_lower_half() -> None:
    matches, _ = pair_teams_swiss(TEAMS, [], 1, fmt(), seed=5)
    pairs = {frozenset((m.team_a, m.team_b)) for m in matches}
    assert pairs == {frozenset(p) for p in (("T1", "T4"), ("T2", "T5"), ("T3", "T6"))}
    assert [m.first_board for m in matches] == [1, 4, 7]


def test_swiss_by_match_points_never_pairs_a_rematch() -> None:
    history: list[MatchRecord] = []
    met: set[frozenset[str]] = set()
    for rnd in range(1, 6):
        order = sorted(TEAMS, key=lambda t: -sum(  # 场分 so far (higher first), then seeding
            2 if (m.team_a == t and m.outcome == "A") or (m.team_b == t and m.outcome == "B") else 0
            for m in history))
        matches, _ = pair_teams_swiss(TEAMS, history, rnd, fmt(), seed=11, order=order)
        for m in matches:
            assert m.team_b is not None
            pair = frozenset((m.team_a, m.team_b))
            assert pair not in met, (rnd, pair)
            met.add(pair)
            # the lower-numbered team wins every match
            history.append(MatchRecord(rnd, m.team_a, m.team_b, "A" if m.team_a < m.team_b else "B"))
        if rnd == 2:
            # after round 1 the winners T1 T2 T3 (2 场分) meet among themselves as far as possible
            winners = {"T1", "T2", "T3"}
            inside = [m for m in matches if {m.team_a, m.team_b} <= winners]
            assert len(inside) == 1
    assert len(met) == 15  # five rounds of three matches: every pair of six teams once


def test_odd_number_of_teams_gives_one_bye() -> None:
    matches, _ = pair_teams_swiss(TEAMS[:5], [], 1, fmt(), seed=3)
    assert sum(1 for m in matches if m.team_b is None) == 1
    bye = next(m for m in matches if m.team_b is None)
    assert bye.first_board == 0 and bye.team_a == "T5"  # the lowest seed


def test_round_robin_every_team_meets_every_other_once() -> None:
    f = fmt("round_robin", rounds=None)
    seats = round_robin_seats(TEAMS, f, seed=2026)
    assert sorted(seats) == sorted(TEAMS)
    assert round_robin_seats(TEAMS, f, seed=2026) == seats  # the draw is the seed's
    assert round_robin_seats(TEAMS, fmt("round_robin", seating="registered_order"), 1) == TEAMS
    met = [frozenset((m.team_a, m.team_b)) for r in range(1, round_count(6) + 1)
           for m in pair_teams_round_robin(seats, r, f)]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations(TEAMS, 2))))
