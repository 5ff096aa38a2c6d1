"""Proof that a pairing found on the sparse graph is optimal over every allowed pair.

A pairing M (a perfect matching, the bye vertex included) is lexicographically optimal over a
set of pairs E exactly when no alternating cycle (pairs of M and pairs of E taken in turn)
lowers the cost vector: swapping along such a cycle is the only way to change a perfect
matching. Every alternating cycle x0 – M(x0) – x1 – M(x1) – … – x0 is a directed cycle in the
*exchange graph* D: an arc M(x) → y for every pair x–y of E, costing c(x, y) − c(x, M(x))
(the cost vector of the new pair minus the one it breaks). So if D has no cycle of negative
cost, M is optimal over E.

Costs are vectors ordered lexicographically (forbidden, second bye, score, team, in-group
order, colour, seat, lot). D has no negative cycle iff it has *potentials*: π(v) per level
with every arc's reduced cost c + π(tail) − π(head) lexicographically ≥ 0. They are found
level by level: Bellman–Ford (rustworkx) on level 1 over all arcs, then on level 2 over the
arcs whose level-1 reduced cost is 0 (only those can still decide a cycle's sign), and so on.
Level values are small integers, so the floating-point lengths are exact.

The potentials are computed on the sparse graph only; then every pair x–y outside it is
checked in bulk (numpy, ``PairTable``): if both its arcs M(x) → y and M(y) → x have
lexicographically non-negative reduced cost, adding it to D creates no negative cycle. The
pairs that fail are added to the sparse graph, the matching is solved again, and the check
repeats; the pairing is proven when no pair fails. Levels are proven as a prefix: if the
potentials of level k cannot be found (D's cycles are a relaxation: a cycle of D may pass a
player twice, which is not a real exchange; this has not been seen on Swiss fields), the
levels above k are still proven and the result says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import rustworkx as rx

from yisai.pairing.table import N_LEVELS, BoolArray, IntArray, PairTable
from yisai.pairing.weights import LEVELS

SCORE = LEVELS.index("score")


@dataclass(slots=True)
class Certificate:
    levels: int  # number of leading levels proven optimal over every checked pair
    violations: tuple[IntArray, IntArray]  # local index pairs that could improve a proven level


@dataclass(slots=True)
class Orientation:
    """Which exchange arcs may cross each odd boundary, and in which direction.

    At the score bound a pairing floats exactly one pair F_k across each odd boundary k, and so
    does every pairing it is compared with; an exchange cycle that changes F_k crosses k twice:
    once by breaking F_k and once by making the new float, in opposite directions. Traversed
    one way or the other, its break of F_k goes down (upper player first) or up. ``down[k]``
    keeps only one of the two (breaks of F_k in that direction, new floats in the other), which
    removes the "half floats" of the relaxation (breaking F_k both ways, once from each end)
    while every real cycle whose breaks follow the pattern is kept. Checking every pattern of
    the layout's odd boundaries (up to reversing the cycle) covers every real cycle."""

    float_side: IntArray  # per node: +1 upper player of a float, -1 lower player, 0 none
    float_bound: IntArray  # per node: the float's boundary (= the upper player's group)
    group: IntArray  # per node: its group in the layout
    down: BoolArray  # per boundary (indexed by the upper group)

    def arcs_ok(self, tails: IntArray, xs: IntArray, ys: IntArray) -> BoolArray:
        """Arcs tail → y breaking tail–x and making x–y that this pattern keeps."""
        side = self.float_side[tails]
        ok = (side == 0) | ((side == 1) == self.down[self.float_bound[tails]])
        gx, gy = self.group[xs], self.group[ys]
        cross = gx != gy
        ok &= ~cross | ((gx < gy) != self.down[np.minimum(gx, gy)])
        return np.asarray(ok)


def potentials(n: int, mate: IntArray, ei: IntArray, ej: IntArray, cv: IntArray,
               cm: IntArray, orient: Orientation | None = None) -> list[IntArray]:
    """Lexicographic potentials of the exchange graph of matching ``mate`` over pairs
    ``ei``–``ej`` (local indices, cost vectors ``cv``; ``cm[x]``: cost vector of x's pair).

    Returns one array per level, for as many leading levels as have potentials."""
    keep = mate[ei] != ej
    ei, ej, cv = ei[keep], ej[keep], cv[keep]
    tails = np.concatenate([mate[ei], mate[ej]])
    heads = np.concatenate([ej, ei])
    costs = np.concatenate([cv - cm[ei], cv - cm[ej]])
    if orient is not None:
        kept = orient.arcs_ok(tails, np.concatenate([ei, ej]), heads)
        tails, heads, costs = tails[kept], heads[kept], costs[kept]
    tight = np.ones(len(tails), dtype=bool)
    out: list[IntArray] = []
    source = n
    for level in range(N_LEVELS):
        at = np.nonzero(tight)[0]
        col = costs[at, level]
        if not len(at) or not col.any():
            pi = np.zeros(n, dtype=np.int64)
        else:
            graph: rx.PyDiGraph[None, float] = rx.PyDiGraph()
            graph.add_nodes_from([None] * (n + 1))
            graph.add_edges_from([(source, v, 0.0) for v in range(n)])
            graph.add_edges_from(list(zip(tails[at].tolist(), heads[at].tolist(),
                                          col.astype(float).tolist(), strict=True)))
            try:
                dist = rx.digraph_bellman_ford_shortest_path_lengths(graph, source, float)
            except rx.NegativeCycle:
                return out
            pi = np.zeros(n, dtype=np.int64)
            for v, d in dist.items():
                if v != source:
                    pi[v] = round(d)
        out.append(pi)
        reduced = costs[:, level] + pi[tails] - pi[heads]
        tight &= reduced == 0
    return out


def violations(table: PairTable, gid: IntArray, mate: IntArray, cm: IntArray,
               checks: list[tuple[list[IntArray], Orientation | None]],
               chunks: Iterable[tuple[IntArray, IntArray]],
               shift: IntArray | None = None) -> tuple[IntArray, IntArray]:
    """Pairs (local indices, ``i < j``) of ``chunks`` that are allowed and have an arc with
    lexicographically negative reduced cost on the proven levels ``pis`` (score level
    reduced by ``shift``, see ``odd_set_score``); one set of potentials per orientation
    pattern in ``checks``, each pair checked on the arcs its pattern keeps."""
    found_i: list[IntArray] = []
    found_j: list[IntArray] = []
    checks = [(pis, o) for pis, o in checks if pis]
    if not checks:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    stacked = [(np.stack(pis, axis=1), len(pis), o) for pis, o in checks]
    for i, j in chunks:
        if not len(i):
            continue
        ok = table.allowed(gid[i], gid[j])
        i, j = i[ok], j[ok]
        if not len(i):
            continue
        cv = table.vectors(gid[i], gid[j])
        if shift is not None:
            cv[:, SCORE] -= shift[j] - shift[i]
        bad = np.zeros(len(i), dtype=bool)
        for pi, k, orient in stacked:
            b1 = _negative(cv[:, :k] - cm[i, :k] + pi[mate[i]] - pi[j])
            b2 = _negative(cv[:, :k] - cm[j, :k] + pi[mate[j]] - pi[i])
            if orient is not None:
                b1 &= orient.arcs_ok(mate[i], i, j)
                b2 &= orient.arcs_ok(mate[j], j, i)
            bad |= b1 | b2
        if bad.any():
            found_i.append(i[bad])
            found_j.append(j[bad])
    if not found_i:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(found_i), np.concatenate(found_j)


def odd_set_score(group_sizes: list[int], group_scores: list[int]) -> IntArray:
    """Per node (layout order): Σ gap² over the odd boundaries above its group.

    Subtracting ``shift[j] - shift[i]`` from the score cost of pair i–j (i above j) is the
    odd-set dual of the matching LP: the set of players above an odd boundary must send at
    least one player across it, and the reduced cost (Δscore)² − Σ gap² over the odd
    boundaries the pair crosses is never negative ((Σ gaps)² ≥ Σ gaps²). It is 0 on every
    same-group pair and every float across one odd boundary; a pairing at the score bound
    crosses each odd boundary once, so the reduced score cost of any such pairing is 0 and
    the exchange graph no longer sees "half floats" around an odd group."""
    out: list[int] = []
    total, above = 0, 0
    for k, size in enumerate(group_sizes):
        out += [total] * size
        above += size
        if above % 2 and k + 1 < len(group_sizes):
            total += (group_scores[k] - group_scores[k + 1]) ** 2
    return np.array(out, dtype=np.int64)


def shifted(cv: IntArray, i: IntArray, j: IntArray, shift: IntArray) -> IntArray:
    out = cv.copy()
    out[:, SCORE] -= shift[j] - shift[i]
    return out


def _negative(reduced: IntArray) -> BoolArray:
    """Rows whose first non-zero entry is negative."""
    nz = reduced != 0
    first = nz.argmax(axis=1)
    lead = reduced[np.arange(len(reduced)), first]
    return np.asarray(nz.any(axis=1) & (lead < 0))
