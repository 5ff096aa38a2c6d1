"""The pair cost of a Swiss round — the one definition of its eight levels (``weights.LEVELS``:
forbidden pair, second bye, score difference², same team, order in the group, colours, seat,
lot) — computed with numpy for many pairs at once, so the matching and the optimality
certificate can look at every allowed pair of a large score group (millions of pairs) in a
fraction of a second. ``swiss.Problem.cost(u, v)`` reads one pair from here.

Players are addressed by their node index in the round's layout (``Node.idx``: score groups
highest first, placement order inside a group, the bye vertex last), so for ``i < j`` player
``i`` is the upper one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from yisai.lot import mix_lots
from yisai.pairing.weights import LEVELS, pair_tie

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
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
    lot: IntArray  # the player's own lot of the round (yisai.lot.lot(seed, round, id))
    bye_lot: IntArray  # lot of this player taking the bye (mod LOT_RANGE)
    had_bye: IntArray
    bye: int  # index of the bye vertex, -1 if none
    adjacent: bool
    colour_balance: bool
    lot_range: int
    forbidden: IntArray  # sorted codes i * n + j (i < j) of the director's forbidden pairs
    met: IntArray  # sorted codes of pairs that already met (never allowed)
    bye_tie: IntArray | None = None  # tie value (weights.pair_tie) of this player taking the bye

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
        out = np.zeros((len(i), N_LEVELS), dtype=np.int64)
        if len(i) == 0:
            return out
        for level in range(N_LEVELS):
            col = self.level(level, i, j)
            if col is not None:
                out[:, level] = col
        return out

    def tie(self, i: IntArray, j: IntArray) -> IntArray:
        """The tie rule's value of pairs ``i[k] < j[k]`` (``weights.pair_tie``): below every
        level, it decides among pairings equal on all of them (``proof.settle_ties``)."""
        out = pair_tie(self.lot[i].astype(np.uint64), self.lot[j].astype(np.uint64)).astype(np.int64)
        if self.bye >= 0 and self.bye_tie is not None:
            at = np.nonzero(j == self.bye)[0]
            out[at] = self.bye_tie[i[at]]
        return out

    def level(self, level: int, i: IntArray, j: IntArray) -> IntArray | None:
        """One level's cost of pairs ``i[k] < j[k]`` (None: 0 for every pair), so a check can
        compute the lower levels only for the pairs the higher ones leave undecided."""
        if level == 0:
            if not len(self.forbidden):
                return None
            col = _member(self.codes(i, j), self.forbidden).astype(np.int64)
        elif level == 1:
            if self.bye < 0:
                return None
            col = np.zeros(len(i), dtype=np.int64)
        elif level == 2:
            ds = self.score[i] - self.score[j]
            col = ds * ds
        elif level == 3:
            ti, tj = self.team[i], self.team[j]
            col = ((ti >= 0) & (ti == tj)).astype(np.int64)
        elif level == 4:
            pi, pj, gi = self.pos[i], self.pos[j], self.gsize[i]
            if self.adjacent:
                in_group = pj - pi - 1
            else:
                half = gi // 2
                in_group = (~((pi < half) & (half <= pj))).astype(np.int64)
            col = np.where(self.group[i] == self.group[j], in_group, gi - 1 - pi + pj)
        elif level == 5:
            if not self.colour_balance:
                return None
            cb, cw = self.colour_black, self.colour_white
            col = np.minimum(cb[i] + cw[j], cb[j] + cw[i])
        elif level == 6:
            if self.adjacent:
                return None
            pi, pj = self.pos[i], self.pos[j]
            seat = np.abs(pj - pi - self.gsize[i] // 2)
            col = np.where(self.group[i] == self.group[j], seat, 0)
        else:
            col = mix_lots(self.lot[i].astype(np.uint64), self.lot[j].astype(np.uint64),
                           self.lot_range).astype(np.int64)
        if self.bye >= 0:
            at = np.nonzero(j == self.bye)[0]
            if len(at):
                u = i[at]
                col[at] = _bye_cost(self, level, u)
        return col


def _bye_cost(table: PairTable, level: int, u: IntArray) -> IntArray:
    """Level ``level`` of the pairs ``u``–bye vertex."""
    if level == 1:
        return (table.had_bye[u] > 0).astype(np.int64)
    if level == 2:
        db = table.score[u] - table.score[table.bye]
        return db * db
    if level == 4:
        return table.gsize[u] - 1 - table.pos[u]
    if level == 7:
        return table.bye_lot[u]
    return np.zeros(len(u), dtype=np.int64)


def _member(values: IntArray, sorted_set: IntArray) -> BoolArray:
    at = np.searchsorted(sorted_set, values)
    at = np.minimum(at, len(sorted_set) - 1)
    return np.asarray(sorted_set[at] == values)
