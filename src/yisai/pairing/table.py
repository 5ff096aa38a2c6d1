"""The cost of every pair at once: the same eight-level cost as ``swiss.prepare_round``'s
``cost(u, v)``, computed with numpy for many pairs, so the optimality certificate can look at
every allowed pair of a large score group (millions of pairs) in a fraction of a second.

Players are addressed by their node index in the round's layout (``Node.idx``: score groups
highest first, placement order inside a group, the bye vertex last), so for ``i < j`` player
``i`` is the upper one, exactly as ``cost(u, v)`` expects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from yisai.pairing.weights import LEVELS

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # lot.mix_lots's multiplier
N_LEVELS = len(LEVELS)


@dataclass(slots=True)
class PairTable:
    """Per-node attributes of one round and the pair sets that are not per-node."""

    score: IntArray
    group: IntArray
    pos: IntArray
    gsize: IntArray
    team: IntArray  # -1: no value or no avoidance this round
    colour_black: IntArray  # colour cost if this player takes Black
    colour_white: IntArray
    lot: IntArray  # the player's own lot of the round (lot.lot(seed, round, id))
    bye_lot: IntArray  # lot of this player taking the bye (mod LOT_RANGE)
    had_bye: IntArray
    bye: int  # index of the bye vertex, -1 if none
    adjacent: bool
    colour_balance: bool
    lot_range: int
    forbidden: IntArray  # sorted codes i * n + j (i < j) of the director's forbidden pairs
    met: IntArray  # sorted codes of pairs that already met (never allowed)

    @property
    def n(self) -> int:
        return len(self.score)

    def codes(self, i: IntArray, j: IntArray) -> IntArray:
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        return lo * self.n + hi

    def allowed(self, i: IntArray, j: IntArray) -> BoolArray:
        """No rematch (pairs with the bye vertex are always allowed)."""
        if len(self.met) == 0:
            return np.ones(len(i), dtype=bool)
        return ~_member(self.codes(i, j), self.met)

    def vectors(self, i: IntArray, j: IntArray) -> IntArray:
        """Cost vectors (k × 8) of pairs ``i[k] < j[k]``."""
        k = len(i)
        out = np.zeros((k, N_LEVELS), dtype=np.int64)
        if k == 0:
            return out
        if len(self.forbidden):
            out[:, 0] = _member(self.codes(i, j), self.forbidden)
        ds = self.score[i] - self.score[j]
        out[:, 2] = ds * ds
        ti, tj = self.team[i], self.team[j]
        out[:, 3] = (ti >= 0) & (ti == tj)
        same = self.group[i] == self.group[j]
        gap = self.pos[j] - self.pos[i]
        if self.adjacent:
            in_group = gap - 1
            seat = np.zeros(k, dtype=np.int64)
        else:
            half = self.gsize[i] // 2
            crosses = (self.pos[i] < half) & (half <= self.pos[j])
            in_group = (~crosses).astype(np.int64)
            seat = np.abs(gap - half)
        floated = self.gsize[i] - 1 - self.pos[i] + self.pos[j]
        out[:, 4] = np.where(same, in_group, floated)
        out[:, 6] = np.where(same, seat, 0)
        if self.colour_balance:
            cb, cw = self.colour_black, self.colour_white
            out[:, 5] = np.minimum(cb[i] + cw[j], cb[j] + cw[i])
        mixed = (self.lot[i] ^ self.lot[j]).astype(np.uint64) * _GOLDEN  # wraps mod 2^64
        out[:, 7] = ((mixed >> np.uint64(32)) % np.uint64(self.lot_range)).astype(np.int64)
        if self.bye >= 0:
            at = np.nonzero(j == self.bye)[0]
            if len(at):
                u = i[at]
                out[at] = 0
                out[at, 1] = self.had_bye[u] > 0
                db = self.score[u] - self.score[self.bye]
                out[at, 2] = db * db
                out[at, 4] = self.gsize[u] - 1 - self.pos[u]
                out[at, 7] = self.bye_lot[u]
        return out


def _member(values: IntArray, sorted_set: IntArray) -> BoolArray:
    at = np.searchsorted(sorted_set, values)
    at = np.minimum(at, len(sorted_set) - 1)
    return np.asarray(sorted_set[at] == values)
