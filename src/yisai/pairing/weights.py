"""Strict priorities as one integer weight per candidate pair.

Each candidate pair has a cost on every priority level (highest first):

    forbidden  1 if the director forbade this pair
    bye_twice  1 if this is the bye vertex and the player already had a bye
    score      (score difference)², so several one-step floats beat one long float
    team       1 if same team/province/... inside the avoidance rounds
    in_group   in-group order: 1 if not top half v bottom half (split), the distance between
               the two (adjacent), or for a float how far both are from the groups' boundary
    colour     colour cost of the better orientation (colours.py)
    seat       distance from the exact split partner (1 v n/2+1) inside the halves
    lot        a seeded lot in [0, 4)

Below the lot, the tie rule (``pair_tie``; ``proof.settle_ties``) decides among pairings equal
on all eight levels: it is not part of these weights (rustworkx's matching is much slower when
weights are distinct), but a second matching over those pairings only.

(A rematch is never an edge at all.) The integer cost of a pair is Σ cost_L · radix_L, where
radix_L exceeds the most the levels below L can add up to over a whole matching, so no amount
of a lower level outweighs one unit of a higher one. The matching maximises BIG − cost.

No level is capped: a level's bound is the smaller of ``pairs × its largest cost`` and half
the sum, over the players, of the largest cost of a pair touching each player (every pair's
cost is at most the mean of its two players' largest). On the sparse graph every level needs
a few bits; should the total still pass 2^100, the lowest levels are left out of the weight
(``Radix.levels`` says how many are in it) and the result reports only the levels above as
proven — the order of the levels never changes and no level is ever approximated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yisai.lot import L, mixed_lots

Vectors = Sequence[Sequence[int]] | npt.NDArray[Any]
Ends = Sequence[tuple[int, int]] | npt.NDArray[Any]

LEVELS: tuple[str, ...] = (
    "forbidden", "bye_twice", "score", "team", "in_group", "colour", "seat", "lot",
)
LOT_RANGE = 4
TIE_BITS = 32  # the tie rule's per-pair value (docs/pairing.md, "并列最优")
WEIGHT_LIMIT = 2**100
_BYE_TWICE = 1


@dataclass(frozen=True, slots=True)
class Radix:
    """The multiplier of each level, highest level first, and the resulting cost bound."""

    radix: tuple[int, ...]  # 0 for a level left out of the weight
    big: int  # > the largest single-pair cost; weight = big - cost
    levels: int = len(LEVELS)  # leading levels in the weight (all, unless 2^100 forced out some)

    def cost(self, vector: Sequence[int]) -> int:
        return sum(int(c) * r for c, r in zip(vector, self.radix, strict=True))

    def weights(self, vectors: Vectors) -> list[int]:
        """``weight`` of many vectors at once (a numpy array or lists)."""
        arr = np.asarray(vectors, dtype=np.int64).reshape(-1, len(LEVELS))
        if not len(arr):
            return []
        radix = np.array(self.radix, dtype=object)
        costs = arr.astype(object).dot(radix)
        big = self.big
        return [big - int(c) for c in costs]

    def weight(self, vector: Sequence[int]) -> int:
        return self.big - self.cost(vector)


def level_bounds(vectors: Vectors, pairs: int, ends: Ends | None = None) -> list[int]:
    """The most each level can add up to over one matching of ``pairs`` pairs.

    ``ends``: the two players of each vector; with them, a level's bound is also at most half
    the sum over players of the largest cost of a pair touching the player.
    """
    arr = np.asarray(vectors, dtype=np.int64).reshape(-1, len(LEVELS))
    if not len(arr):
        return [0] * len(LEVELS)
    raw = arr.max(axis=0)
    bounds = [int(m) * (1 if i == _BYE_TWICE else pairs) for i, m in enumerate(raw)]
    if ends is not None and len(ends):
        e = np.asarray(ends, dtype=np.int64).reshape(-1, 2)
        size = int(e.max()) + 1
        for i in range(len(LEVELS)):
            if i == _BYE_TWICE or not raw[i]:
                continue
            top = np.zeros(size, dtype=np.int64)
            np.maximum.at(top, e[:, 0], arr[:, i])
            np.maximum.at(top, e[:, 1], arr[:, i])
            bounds[i] = min(bounds[i], (int(top.sum()) + 1) // 2)
    return bounds


def make_radix(vectors: Vectors, pairs: int, ends: Ends | None = None,
               limit: int = WEIGHT_LIMIT) -> Radix:
    """Radices for cost ``vectors`` of the candidate pairs when a matching has ``pairs`` pairs:
    radix_L = Π over lower levels of (bound + 1), bounds from ``level_bounds``; the weights
    stay below ``limit`` (levels are left out from the lowest up until they do)."""
    n_levels = len(LEVELS)
    arr = np.asarray(vectors, dtype=np.int64).reshape(-1, n_levels)
    raw = [int(m) for m in arr.max(axis=0)] if len(arr) else [0] * n_levels
    bounds = level_bounds(arr, pairs, ends)
    for levels in range(n_levels, 0, -1):
        radix = [0] * n_levels
        radix[levels - 1] = 1
        for i in range(levels - 2, -1, -1):
            radix[i] = radix[i + 1] * (bounds[i + 1] + 1)
        big = sum(m * r for m, r in zip(raw, radix, strict=True)) + 1
        if big < limit:
            return Radix(tuple(radix), big, levels)
    raise OverflowError(f"pairing weights need more than 100 bits at the top level ({raw})")


def pair_tie(lot_a: L, lot_b: L) -> L:
    """The tie value of a pair from the players' own lots of the round (``yisai.lot.lot``):
    the top TIE_BITS bits of ``mixed_lots`` (whose lot, ``mix_lots``, takes bits 32-33), so
    another seeded draw of the unordered pair, the same in every solver (ints or uint64 arrays)."""
    return mixed_lots(lot_a, lot_b) >> (64 - TIE_BITS)


def lexicographic_totals(vectors: Vectors) -> tuple[int, ...]:
    """Per-level sums of a matching's cost vectors: what the weights must order strictly."""
    return tuple(sum(int(v[i]) for v in vectors) for i in range(len(LEVELS)))
