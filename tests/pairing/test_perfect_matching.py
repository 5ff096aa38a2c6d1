"""The C perfect matching behind the OpenGotha-compatible pairing, against independent references:
every perfect pairing enumerated (small fields) and rustworkx's maximum-weight matching (larger
ones), on weights shaped like OpenGotha's (a few huge levels plus small terms), with many ties,
negative, and near the ends of Java's long range."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import rustworkx as rx

from yisai.pairing._perfect_matching import perfect_matching

I64 = npt.NDArray[np.int64]


def _symmetric(upper: I64) -> I64:
    m = np.triu(upper, 1)
    return (m + m.T).astype(np.int64)


def _total(weights: I64, mates: list[int]) -> int:
    return sum(int(weights[v, m]) for v, m in enumerate(mates) if v < m)


def _brute_force(weights: I64) -> int:
    def walk(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first = rest[0]
        return max(int(weights[first, rest[k]]) + walk(rest[1:k] + rest[k + 1:])
                   for k in range(1, len(rest)))

    return walk(tuple(range(len(weights))))


def _rustworkx(weights: I64) -> int:
    n = len(weights)
    g: rx.PyGraph[None, int] = rx.PyGraph()
    g.add_nodes_from([None] * n)
    g.extend_from_weighted_edge_list(
        [(i, j, int(weights[i, j])) for i in range(n) for j in range(i + 1, n)])
    mates = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
    assert len(mates) == n // 2
    return sum(int(weights[a, b]) for a, b in mates)


def _weights(rng: np.random.Generator, n: int, kind: str) -> I64:
    if kind == "ties":
        return _symmetric(rng.integers(0, 4, (n, n)))
    if kind == "levels":  # OpenGotha-like: a score-gap level, a duplicate-game level, small terms
        return _symmetric(rng.integers(0, 3, (n, n)) * 10**11 + rng.integers(0, 2, (n, n))
                          * 5 * 10**14 + rng.integers(0, 1000, (n, n)))
    if kind == "negative":
        return _symmetric(rng.integers(-10**15, 10**15, (n, n)))
    return _symmetric(rng.integers(-2**61, 2**61, (n, n)))  # "long": sums near 2^62


def _check_perfect(mates: list[int]) -> None:
    assert all(0 <= m < len(mates) and m != v and mates[m] == v for v, m in enumerate(mates))


@pytest.mark.parametrize("kind", ["ties", "levels", "negative", "long"])
def test_small_fields_reach_the_maximum_of_every_perfect_pairing(kind: str) -> None:
    rng = np.random.default_rng(7)
    for _ in range(150):
        n = 2 * int(rng.integers(1, 6))  # 2..10 vertices: at most 945 pairings
        w = _weights(rng, n, kind)
        mates = perfect_matching(w)
        _check_perfect(mates)
        assert _total(w, mates) == _brute_force(w)


@pytest.mark.parametrize("kind", ["ties", "levels", "negative", "long"])
def test_larger_fields_reach_rustworkxs_maximum(kind: str) -> None:
    rng = np.random.default_rng(11)
    for _ in range(40):
        n = 2 * int(rng.integers(6, 40))
        w = _weights(rng, n, kind)
        mates = perfect_matching(w)
        _check_perfect(mates)
        assert _total(w, mates) == _rustworkx(w)


def test_one_unit_is_told_apart_at_javas_long_magnitudes() -> None:
    """OpenGotha's weights are Java longs; two pairings one unit apart near 2^62 must differ."""
    for base in (2**53, 2**62):
        w = np.zeros((4, 4), np.int64)
        for a, b, x in ((0, 1, base + 1), (2, 3, base), (0, 2, base), (1, 3, base),
                        (0, 3, -base), (1, 2, -base)):
            w[a, b] = w[b, a] = x
        assert perfect_matching(w) == [1, 0, 3, 2]


def test_the_matrix_alone_decides_among_equal_maxima() -> None:
    rng = np.random.default_rng(3)
    w = _symmetric(rng.integers(0, 2, (60, 60)))
    first = perfect_matching(w)
    assert all(perfect_matching(w.copy()) == first for _ in range(5))


def test_bad_matrices_are_refused_not_crashed() -> None:
    assert perfect_matching(np.zeros((0, 0), np.int64)) == []
    with pytest.raises(ValueError, match="even number"):
        perfect_matching(np.zeros((3, 3), np.int64))
    with pytest.raises(ValueError, match="at most 2048"):
        perfect_matching(np.zeros((2050, 2050), np.int64))
    with pytest.raises(TypeError, match="square"):
        perfect_matching(np.zeros((2, 4), np.int64))
    with pytest.raises(TypeError, match="int64"):
        perfect_matching(np.zeros((4, 4), np.float64))
    with pytest.raises(ValueError, match="contiguous"):
        perfect_matching(np.zeros((4, 4), np.int64)[:, ::-1])
    lopsided = np.zeros((4, 4), np.int64)
    lopsided[0, 1] = 1
    with pytest.raises(ValueError, match="symmetric"):
        perfect_matching(lopsided)
