"""Strict priorities as one integer weight per candidate pair.

Each candidate pair has a cost on every priority level (highest first):

    forbidden  1 if the director forbade this pair
    bye_twice  1 if this is the bye vertex and the player already had a bye
    score      (score difference)², so several one-step floats beat one long float
    team       1 if same team/province/... inside the avoidance rounds
    in_group   deviation from the in-group order (top half v bottom half, or adjacent)
    colour     colour cost of the better orientation (colours.py)
    lot        a seeded lot in [0, 16)

(A rematch is never an edge at all.) The integer cost of a pair is Σ cost_L · radix_L, where
radix_L exceeds the most the levels below L can add up to over a whole matching, so no amount
of a lower level outweighs one unit of a higher one. The matching maximises BIG − cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LEVELS: tuple[str, ...] = ("forbidden", "bye_twice", "score", "team", "in_group", "colour", "lot")
LOT_RANGE = 16
IN_GROUP_CAP = 1023
WEIGHT_LIMIT = 2**100


@dataclass(frozen=True, slots=True)
class Radix:
    """The multiplier of each level, highest level first, and the resulting cost bound."""

    radix: tuple[int, ...]
    big: int  # > the largest single-pair cost; weight = big - cost

    def cost(self, vector: Sequence[int]) -> int:
        return sum(c * r for c, r in zip(vector, self.radix, strict=True))

    def weight(self, vector: Sequence[int]) -> int:
        return self.big - self.cost(vector)


def make_radix(vectors: Sequence[Sequence[int]], pairs: int) -> Radix:
    """Radices for cost ``vectors`` of the candidate pairs when a matching has ``pairs`` pairs.

    A level's contribution over a matching is at most ``pairs × max cost`` (only one pair can
    touch the bye vertex, so ``bye_twice`` is at most its max), hence radix_L =
    Π over lower levels of (bound + 1).
    """
    n_levels = len(LEVELS)
    maxima = [0] * n_levels
    for v in vectors:
        for i in range(n_levels):
            if v[i] > maxima[i]:
                maxima[i] = v[i]
    radix = [1] * n_levels
    for i in range(n_levels - 2, -1, -1):
        below = i + 1
        mult = 1 if LEVELS[below] == "bye_twice" else pairs
        radix[i] = radix[below] * (mult * maxima[below] + 1)
    big = sum(m * r for m, r in zip(maxima, radix, strict=True)) + 1
    if big >= WEIGHT_LIMIT:
        raise OverflowError(f"pairing weights need {big.bit_length()} bits (limit 100)")
    return Radix(tuple(radix), big)


def lexicographic_totals(vectors: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Per-level sums of a matching's cost vectors: what the weights must order strictly."""
    return tuple(sum(v[i] for v in vectors) for i in range(len(LEVELS)))
