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

(A rematch is never an edge at all.) The integer cost of a pair is Σ cost_L · radix_L, where
radix_L exceeds the most the levels below L can add up to over a whole matching, so no amount
of a lower level outweighs one unit of a higher one. The matching maximises BIG − cost.

The bound is pairs × (largest cost of the level), so with 5,000 pairs every level costs about
13 bits plus its range. Should the total pass 2^100, the open-ended levels (in_group, seat) are
capped harder and the lot dropped (``CAP_PROFILES``); the order of levels never changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LEVELS: tuple[str, ...] = (
    "forbidden", "bye_twice", "score", "team", "in_group", "colour", "seat", "lot",
)
LOT_RANGE = 4
WEIGHT_LIMIT = 2**100
_NONE = 1 << 62
# Per-level caps tried in turn (None: no cap); a cost above a cap counts as the cap.
CAP_PROFILES: tuple[tuple[int | None, ...], ...] = (
    (None, None, None, None, 63, None, 31, None),
    (None, None, None, None, 15, None, 3, 0),
    (None, None, None, None, 3, None, 0, 0),
)


@dataclass(frozen=True, slots=True)
class Radix:
    """The multiplier of each level, highest level first, and the resulting cost bound."""

    radix: tuple[int, ...]
    big: int  # > the largest single-pair cost; weight = big - cost
    caps: tuple[int, ...]

    def cost(self, vector: Sequence[int]) -> int:
        return sum(min(c, cap) * r for c, cap, r in zip(vector, self.caps, self.radix, strict=True))

    def weights(self, vectors: Sequence[Sequence[int]]) -> list[int]:
        """``weight`` of many vectors at once (the hot loop of a 10,000-player round)."""
        terms = [(i, r, cap) for i, (r, cap) in enumerate(zip(self.radix, self.caps, strict=True))]
        big = self.big
        out = []
        for v in vectors:
            total = 0
            for i, r, cap in terms:
                c = v[i]
                if c:
                    total += (c if c < cap else cap) * r
            out.append(big - total)
        return out

    def weight(self, vector: Sequence[int]) -> int:
        return self.big - self.cost(vector)


def make_radix(vectors: Sequence[Sequence[int]], pairs: int) -> Radix:
    """Radices for cost ``vectors`` of the candidate pairs when a matching has ``pairs`` pairs.

    A level's contribution over a matching is at most ``pairs × max cost`` (only one pair can
    touch the bye vertex, so ``bye_twice`` is at most its max), hence radix_L =
    Π over lower levels of (bound + 1).
    """
    n_levels = len(LEVELS)
    raw = [max(col, default=0) for col in zip(*vectors, strict=True)] if vectors else [0] * n_levels
    big = 0
    for profile in CAP_PROFILES:
        caps = tuple(_NONE if c is None else c for c in profile)
        maxima = [min(m, c) for m, c in zip(raw, caps, strict=True)]
        radix = [1] * n_levels
        for i in range(n_levels - 2, -1, -1):
            below = i + 1
            mult = 1 if LEVELS[below] == "bye_twice" else pairs
            radix[i] = radix[below] * (mult * maxima[below] + 1)
        big = sum(m * r for m, r in zip(maxima, radix, strict=True)) + 1
        if big < WEIGHT_LIMIT:
            return Radix(tuple(radix), big, caps)
    raise OverflowError(f"pairing weights need {big.bit_length()} bits (limit 100)")


def lexicographic_totals(vectors: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Per-level sums of a matching's cost vectors: what the weights must order strictly."""
    return tuple(sum(v[i] for v in vectors) for i in range(len(LEVELS)))
