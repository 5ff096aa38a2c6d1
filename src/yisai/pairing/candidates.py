"""The candidate graph: which pairs are joined (same and neighbouring groups; in a very large group
only the ``width`` players around the ideal opponent, plus colour-kind neighbours), the
widening steps up to the complete graph, and ``CandidateGraph``, the pairs of one layout with
their cost vectors and the maximum-weight matching over them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import rustworkx as rx
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import min_weight_full_bipartite_matching

from yisai.pairing.layout import N_LEVELS, Layout, Node, Solution
from yisai.pairing.table import IntArray, PairTable
from yisai.pairing.weights import make_radix

ASSIGN_BAND = 64  # seats either side of the ideal partner the halves' assignment considers
ASSIGN_EXACT = 2**50  # its integer weights stay below this (exact in double precision)

DEFAULT_WIDTH = 12
KIND_WIDTH = 3  # rank-neighbours of each colour kind joined to a player (kind_pairs)
SMALL_GROUP = 2 * DEFAULT_WIDTH + 8  # groups up to this size are joined completely


def _windowed(group_size: int, width: int | None) -> bool:
    """Is a group of this size joined only through a window (not completely)?"""
    return width is not None and group_size > max(SMALL_GROUP, 2 * width + 2)


def candidate_pairs(layout: Layout, width: int | None, reach: int | None,
                    adjacent: bool, kinds: IntArray | None = None
                    ) -> Iterator[tuple[Node, Node]]:
    """Candidate pairs of the sparse graph for this widening step, as nodes (upper node
    first): ``candidate_arrays``."""
    nodes = layout.nodes
    a, b = candidate_arrays(layout, width, reach, adjacent, kinds)
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        yield nodes[x], nodes[y]


def candidate_arrays(layout: Layout, width: int | None, reach: int | None,
                     adjacent: bool, kinds: IntArray | None = None
                     ) -> tuple[IntArray, IntArray]:
    """Candidate pairs of the sparse graph for this widening step, as indices into
    ``layout.nodes`` (upper node first; a pair may come twice), built in numpy.

    Works on positions inside the whole score group, so a layout may hold part of a group
    (a segment of a very large field, see ``segments``). ``kinds`` (per ``Node.idx``: the
    colour need, see ``colour_kinds``) adds, in a windowed group, each player's
    rank-neighbours of every kind in the other half (``kind_pairs``).
    """
    groups = layout.groups
    starts = np.cumsum([0, *(len(g) for g in groups)])
    positions = [np.array([n.pos for n in g], dtype=np.int64) for g in groups]
    out_a: list[IntArray] = []
    out_b: list[IntArray] = []
    for gi, grp in enumerate(groups):
        s, m, pos = int(starts[gi]), len(grp), positions[gi]
        gsize = grp[0].gsize
        windowed = _windowed(gsize, width)
        if kinds is not None and not adjacent and windowed:
            a, b = _kind_arrays(grp, pos, kinds)
            out_a.append(s + a)
            out_b.append(s + b)
        if not windowed:
            a, b = np.triu_indices(m, 1)
            out_a.append(s + a.astype(np.int64))
            out_b.append(s + b.astype(np.int64))
        else:
            assert width is not None
            at = np.full(gsize + 1, -1, dtype=np.int64)  # position -> index in grp
            at[pos] = np.arange(m, dtype=np.int64)
            half = gsize // 2
            first, stop = (1, 2 * width + 1) if adjacent else (max(1, half - width),
                                                               half + width + 1)
            offsets = np.array([*(d for d in (1, 2) if d < first), *range(first, stop)],
                               dtype=np.int64)  # the 2 next for odd leftovers, the window
            j = np.minimum(pos[:, None] + offsets[None, :], gsize)
            v = at[j]
            u = np.broadcast_to(np.arange(m, dtype=np.int64)[:, None], v.shape)
            ok = v >= 0
            out_a.append(s + u[ok])
            out_b.append(s + v[ok])
        last = len(groups) if reach is None else min(len(groups), gi + reach + 1)
        for gj in range(gi + 1, last):
            w = width or 0
            ups = np.nonzero(gsize - 1 - pos < w)[0] if windowed else np.arange(m)
            below = positions[gj]
            downs = (np.nonzero(below < w)[0] if _windowed(groups[gj][0].gsize, width)
                     else np.arange(len(below)))
            out_a.append(s + np.repeat(ups, len(downs)).astype(np.int64))
            out_b.append(int(starts[gj]) + np.tile(downs, len(ups)).astype(np.int64))
    if not out_a:
        none = np.zeros(0, dtype=np.int64)
        return none, none
    return np.concatenate(out_a), np.concatenate(out_b)


def colour_kinds(table: PairTable) -> IntArray | None:
    """Per node, its colour need (the pair of colour costs): players of one kind are
    interchangeable on the colour level."""
    if not table.colour_balance:
        return None
    return np.asarray(table.colour_black * (int(table.colour_white.max(initial=0)) + 1)
                      + table.colour_white)


def by_kind(nodes: list[Node], kinds: IntArray) -> dict[int, list[Node]]:
    """The nodes of each colour kind, in their order."""
    out: dict[int, list[Node]] = {}
    for nd in nodes:
        out.setdefault(int(kinds[nd.idx]), []).append(nd)
    return out


def kind_pairs(grp: list[Node], kinds: IntArray, reach: int = KIND_WIDTH
               ) -> Iterator[tuple[Node, Node]]:
    """For each player, the players of each colour kind in the other half whose rank inside
    that kind matches his own (``_kind_arrays``), as nodes (upper node first)."""
    a, b = _kind_arrays(grp, np.array([n.pos for n in grp], dtype=np.int64), kinds, reach)
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        yield grp[x], grp[y]


def _kind_arrays(grp: list[Node], pos: IntArray, kinds: IntArray, reach: int = KIND_WIDTH
                 ) -> tuple[IntArray, IntArray]:
    """For each player, the players of each colour kind in the other half whose rank inside
    that kind matches his rank inside his own kind (± ``reach``), as indices into ``grp``
    (upper player first).

    The colour level wants complementary kinds paired, and the seat level then pairs them in
    order: the r-th Black-needing player of the top half meets about the r-th White-needing
    of the bottom half. When the kinds are unevenly spread that partner drifts far from the
    ideal seat (tens of places in a 1,000-player group), out of the seat window; these pairs
    put it in the graph from the start instead of letting the certificate add it."""
    half = grp[0].gsize // 2
    kind = kinds[np.array([n.idx for n in grp], dtype=np.int64)]
    top, bottom = np.nonzero(pos < half)[0], np.nonzero(pos >= half)[0]
    spread = np.arange(-reach, reach + 1, dtype=np.int64)
    out_a: list[IntArray] = []
    out_b: list[IntArray] = []
    for side, other in ((top, bottom), (bottom, top)):
        theirs = [other[kind[other] == k] for k in np.unique(kind[other]).tolist()]
        for k in np.unique(kind[side]).tolist():
            members = side[kind[side] == k]
            m = len(members)
            for partners in theirs:
                count = len(partners)
                t = (2 * np.arange(m, dtype=np.int64) + 1) * count // (2 * m)
                v = t[:, None] + spread[None, :]
                ok = (v >= 0) & (v < count)
                u = np.broadcast_to(members[:, None], v.shape)[ok]
                w = partners[v[ok]]
                out_a.append(np.where(pos[u] < pos[w], u, w))
                out_b.append(np.where(pos[u] < pos[w], w, u))
    if not out_a:
        none = np.zeros(0, dtype=np.int64)
        return none, none
    return np.concatenate(out_a), np.concatenate(out_b)


def assignment_pairs(layout: Layout, table: PairTable) -> tuple[IntArray, IntArray]:
    """In every windowed split group, the pairs of an exact assignment of its top half to its
    bottom half (scipy's LAPJVsp over the pairs within ASSIGN_BAND seats of the ideal
    partner, lexicographic cost as one integer weight below 2^50, levels left out from the
    lowest when they do not fit): the pairs the colour and seat levels want, where the
    window and the colour kinds' ranks miss them (the kinds are matched in order, so a
    partner drifts tens or hundreds of seats from the ideal one). Added to the first sparse
    graph, they let its matching pass the first check more often. Nothing is assumed of
    them: they are candidates like any other pair. Indices into ``layout.nodes``."""
    out_a: list[IntArray] = []
    out_b: list[IntArray] = []
    start = 0
    for grp in ([] if table.adjacent else layout.groups):
        start += len(grp)
        s = start - len(grp)
        gsize = grp[0].gsize
        if not _windowed(gsize, DEFAULT_WIDTH) or len(grp) != gsize:
            continue
        half = gsize // 2
        top = np.array([n.idx for n in grp[:half]], dtype=np.int64)
        bottom = np.array([n.idx for n in grp[half:]], dtype=np.int64)
        d = np.arange(-ASSIGN_BAND, ASSIGN_BAND + 1, dtype=np.int64)
        r = np.repeat(np.arange(len(top), dtype=np.int64), len(d))
        c = r + np.tile(d, len(top))
        inside = (c >= 0) & (c < len(bottom))
        r, c = r[inside], c[inside]
        ok = table.allowed(top[r], bottom[c])
        r, c = r[ok], c[ok]
        if not len(r):
            continue
        cv = table.vectors(top[r], bottom[c])
        try:
            radix = make_radix(cv, len(top), np.stack([r, len(top) + c], axis=1),
                               limit=ASSIGN_EXACT)
        except OverflowError:
            continue
        cost = cv @ np.array(radix.radix, dtype=np.int64)
        matrix = csr_matrix(((cost + 1).astype(np.float64), (r, c)),
                            shape=(len(top), len(bottom)))
        try:
            rows, cols = min_weight_full_bipartite_matching(matrix)
        except ValueError:  # no assignment of every top-half player within the band
            continue
        out_a.append(s + rows.astype(np.int64))
        out_b.append(s + half + cols.astype(np.int64))
    if not out_a:
        none = np.zeros(0, dtype=np.int64)
        return none, none
    return np.concatenate(out_a), np.concatenate(out_b)


@dataclass(frozen=True, slots=True)
class Step:
    width: int | None
    reach: int | None


def widening_steps(largest_group: int) -> list[Step]:
    """The sequence of ever wider graphs tried for a problem of this size."""
    steps: list[Step] = []
    if largest_group > SMALL_GROUP:
        steps += [Step(DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 2)]
    steps += [Step(None, 1), Step(None, 2), Step(None, 4), Step(None, None)]
    return steps


class CandidateGraph:
    """Candidate pairs of one layout, as local node indices (``i < j``) with cost vectors."""

    def __init__(self, nodes: list[Node], table: PairTable) -> None:
        self.nodes = nodes
        self.table = table
        self.n = len(nodes)
        self.gid: IntArray = np.array([nd.idx for nd in nodes], dtype=np.int64)
        self.local = {nd.pid: k for k, nd in enumerate(nodes)}
        self.seen: IntArray = np.zeros(0, dtype=np.int64)  # sorted keys i * n + j of the pairs
        self._i: list[IntArray] = []
        self._j: list[IntArray] = []
        self._v: list[IntArray] = []
        self._cache: tuple[IntArray, IntArray, IntArray] | None = None

    def add_nodes(self, pairs: Iterator[tuple[Node, Node]]) -> None:
        li, lj = [], []
        local = self.local
        for u, v in pairs:
            li.append(local[u.pid])
            lj.append(local[v.pid])
        self.add(np.array(li, dtype=np.int64), np.array(lj, dtype=np.int64))

    def add_layout(self, layout: Layout, pairs: tuple[IntArray, IntArray]) -> int:
        """Add pairs given as indices into ``layout.nodes`` (``candidate_arrays``), whose
        nodes are this graph's in any order."""
        nodes = layout.nodes
        if nodes is self.nodes or [n.pid for n in nodes] == [n.pid for n in self.nodes]:
            return self.add(*pairs)
        where = np.array([self.local[n.pid] for n in nodes], dtype=np.int64)
        return self.add(where[pairs[0]], where[pairs[1]])

    def add(self, i: IntArray, j: IntArray) -> int:
        """Add the allowed pairs among ``i``–``j`` not yet in the graph; returns how many."""
        if not len(i):
            return 0
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        keys = lo * self.n + hi
        keys, first = np.unique(keys, return_index=True)
        lo, hi = lo[first], hi[first]
        if len(self.seen):
            at = np.minimum(np.searchsorted(self.seen, keys), len(self.seen) - 1)
            fresh = self.seen[at] != keys
            lo, hi, keys = lo[fresh], hi[fresh], keys[fresh]
        ok = self.table.allowed(self.gid[lo], self.gid[hi])
        lo, hi, keys = lo[ok], hi[ok], keys[ok]
        if not len(lo):
            return 0
        self.seen = np.insert(self.seen, np.searchsorted(self.seen, keys), keys)  # both sorted
        self._i.append(lo)
        self._j.append(hi)
        self._v.append(self.table.vectors(self.gid[lo], self.gid[hi]))
        self._cache = None
        return len(lo)

    def arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        if self._cache is None:
            if self._i:
                self._cache = (np.concatenate(self._i), np.concatenate(self._j),
                               np.concatenate(self._v))
            else:
                z = np.zeros(0, dtype=np.int64)
                self._cache = (z, z, np.zeros((0, N_LEVELS), dtype=np.int64))
        return self._cache

    @property
    def edges(self) -> int:
        return len(self.seen)

    def match(self) -> tuple[IntArray, int]:
        """Maximum-cardinality, lexicographically best matching: (mate or -1, levels in the
        weight)."""
        ei, ej, cv = self.arrays()
        radix = make_radix(cv, max(self.n // 2, 1), np.stack([ei, ej], axis=1))
        weights = radix.weights(cv)
        graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=False)
        graph.add_nodes_from([None] * self.n)
        graph.add_edges_from(list(zip(ei.tolist(), ej.tolist(), range(len(ei)), strict=True)))
        chosen = rx.max_weight_matching(graph, max_cardinality=True,
                                        weight_fn=weights.__getitem__)
        mate = np.full(self.n, -1, dtype=np.int64)
        for a, b in chosen:
            mate[a], mate[b] = b, a
        return mate, radix.levels

    def pair_vectors(self, mate: IntArray) -> IntArray:
        """Cost vector of each node's own pair (rows of unmatched nodes are 0)."""
        out = np.zeros((self.n, N_LEVELS), dtype=np.int64)
        has = np.nonzero(mate >= 0)[0]
        if len(has):
            lo, hi = np.minimum(has, mate[has]), np.maximum(has, mate[has])
            out[has] = self.table.vectors(self.gid[lo], self.gid[hi])
        return out

    def solution(self, mate: IntArray, widenings: int, levels: int, score_ok: bool,
                 checks: int = 0, added: int = 0) -> Solution:
        pairs: list[tuple[Node, Node]] = []
        idx: list[tuple[int, int]] = []
        for a in range(self.n):
            b = int(mate[a])
            if b > a:
                pairs.append((self.nodes[a], self.nodes[b]))
                idx.append((a, b))
        vecs = self.table.vectors(self.gid[[a for a, _ in idx]], self.gid[[b for _, b in idx]])
        unmatched = [self.nodes[k].pid for k in range(self.n) if mate[k] < 0]
        full = levels == N_LEVELS and not unmatched
        return Solution(pairs, vecs.tolist(), full, widenings, self.edges, unmatched=unmatched,
                        exact=full, levels=levels if not unmatched else 0, score_ok=score_ok,
                        checks=checks, added=added)


__all__ = ["ASSIGN_BAND", "DEFAULT_WIDTH", "KIND_WIDTH", "SMALL_GROUP", "CandidateGraph", "Step", "assignment_pairs", "by_kind", "candidate_arrays", "candidate_pairs", "colour_kinds", "kind_pairs", "widening_steps"]
