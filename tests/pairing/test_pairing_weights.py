"""Strict priorities: no amount of a lower level outweighs one unit of a higher one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from yisai.pairing.weights import (
    LEVELS,
    WEIGHT_LIMIT,
    level_bounds,
    lexicographic_totals,
    make_radix,
)

N = len(LEVELS)
MAXIMA = (1, 1, 16, 1, 63, 224, 31, 3)  # the largest cost each level can take here


def _vectors(pairs: int):
    vec = st.tuples(*(st.integers(0, m) for m in MAXIMA)).map(list)
    return st.lists(vec, min_size=pairs, max_size=pairs)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda p: st.tuples(st.just(p), _vectors(p), _vectors(p))))
def test_weight_order_is_lexicographic(case):
    pairs, m1, m2 = case
    universe = [*m1, *m2, list(MAXIMA), [0] * N]
    radix = make_radix(universe, pairs)
    w1 = sum(radix.weight(v) for v in m1)
    w2 = sum(radix.weight(v) for v in m2)
    t1, t2 = lexicographic_totals(m1), lexicographic_totals(m2)
    # more weight <=> lexicographically smaller cost totals (bye_twice: at most one pair)
    if sum(v[1] for v in m1) <= 1 and sum(v[1] for v in m2) <= 1:
        assert (w1 > w2) == (t1 < t2)
        assert (w1 == w2) == (t1 == t2)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, N - 2), st.integers(1, 50))
def test_one_unit_beats_everything_below(level, pairs):
    """A matching with one unit more at ``level`` and the worst case everywhere below is still
    worse than one with the best case below."""
    universe = [list(MAXIMA), [0] * N]
    radix = make_radix(universe, pairs)
    worse = [[0] * N for _ in range(pairs)]
    worse[0][level] = 1
    better = [[0] * N for _ in range(pairs)]
    for v in better:
        for i in range(level + 1, N):
            v[i] = MAXIMA[i] if LEVELS[i] != "bye_twice" else 0
    better[0][1] = 1 if level < 1 else better[0][1]
    assert sum(radix.weight(v) for v in better) > sum(radix.weight(v) for v in worse)


def test_no_level_is_capped_a_seat_100_apart_costs_more_than_31_apart():
    # 800 pairs (a 1,600-player segment) with seat distances up to 800: every level fits
    radix = make_radix([[1, 1, 16, 1, 800, 224, 800, 3], [0] * N], 800)
    assert radix.levels == N and radix.big < WEIGHT_LIMIT
    seat = LEVELS.index("seat")
    near, far = [0] * N, [0] * N
    near[seat], far[seat] = 31, 100
    assert radix.weight(near) > radix.weight(far)


def test_per_player_bound_is_half_the_sum_of_each_players_largest_cost():
    # pairs 0-1 (seat 10), 2-3 (seat 0), 0-2 (seat 4): players' largest seat 10, 10, 4, 0
    vectors = [[0, 0, 0, 0, 0, 0, 10, 0], [0] * N, [0, 0, 0, 0, 0, 0, 4, 0]]
    bounds = level_bounds(vectors, 2, [(0, 1), (2, 3), (0, 2)])
    assert bounds[LEVELS.index("seat")] == 12  # min(2 × 10, (10 + 10 + 4 + 0) / 2)


def test_levels_that_do_not_fit_are_left_out_never_approximated():
    radix = make_radix([[1, 1, 324, 1, 9999, 224, 5000, 3], [0] * N], 5000)
    assert radix.levels < N and radix.big < WEIGHT_LIMIT
    assert all(r == 0 for r in radix.radix[radix.levels:])
    assert all(r > 0 for r in radix.radix[:radix.levels])
