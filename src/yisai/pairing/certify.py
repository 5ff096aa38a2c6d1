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


def potentials(n: int, mate: IntArray, ei: IntArray, ej: IntArray, cv: IntArray,
               cm: IntArray) -> list[IntArray]:
    """Lexicographic potentials of the exchange graph of matching ``mate`` over pairs
    ``ei``–``ej`` (local indices, cost vectors ``cv``; ``cm[x]``: cost vector of x's pair).

    Returns one array per level, for as many leading levels as have potentials."""
    keep = mate[ei] != ej
    ei, ej, cv = ei[keep], ej[keep], cv[keep]
    tails = np.concatenate([mate[ei], mate[ej]])
    heads = np.concatenate([ej, ei])
    costs = np.concatenate([cv - cm[ei], cv - cm[ej]])
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
               pis: list[IntArray], chunks: Iterable[tuple[IntArray, IntArray]],
               shift: IntArray | None = None) -> tuple[IntArray, IntArray]:
    """Pairs (local indices, ``i < j``) of ``chunks`` that are allowed and have an arc with
    lexicographically negative reduced cost on the proven levels ``pis`` (score level
    reduced by ``shift``, see ``odd_set_score``)."""
    k = len(pis)
    found_i: list[IntArray] = []
    found_j: list[IntArray] = []
    if k == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    pi = np.stack(pis, axis=1)  # n × k
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
        cv = cv[:, :k]
        bad = _negative(cv - cm[i, :k] + pi[mate[i]] - pi[j])
        bad |= _negative(cv - cm[j, :k] + pi[mate[j]] - pi[i])
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
