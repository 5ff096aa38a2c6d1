"""The candidate graph, the maximum-weight matching over it, and the proof of optimality.

Players are laid out in score groups (highest first) and, inside a group, in placement order.
Edges join players of the same group and of neighbouring groups only (``reach`` groups apart);
in a very large group a player is joined only to the ``width`` players around his ideal
opponent. When that sparse graph has no complete pairing it is widened step by step up to the
complete graph of all non-rematch pairs.

Score certificate: with score cost (Δscore)², every pairing costs at least LB = Σ over
boundaries between score groups with an odd number of players above of (gap)². A pairing that
reaches LB with no forbidden pair and no second bye floats exactly one player across each odd
boundary and nobody further, so every optimal pairing over all allowed pairs uses only
same-group pairs and pairs across an odd boundary between neighbouring groups (the
*universe*). The same argument lets a large field be solved block by block, splitting at
boundaries with an even number of players above (nobody crosses them in such a pairing).

Full certificate (certify.py): the sparse optimum is then checked against every allowed pair
of the universe, on every level, with the exchange graph's potentials; pairs that could still
improve some level are added and the matching solved again, until none is left. The result
says how many levels (in priority order) are proven optimal over all allowed pairs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import rustworkx as rx

from yisai.pairing.assign import assign
from yisai.pairing.certify import (
    TILE,
    Orientation,
    Tiles,
    exchange_arcs,
    odd_set_score,
    potentials,
    shifted,
    violations,
)
from yisai.pairing.table import BoolArray, IntArray, PairTable
from yisai.pairing.weights import LEVELS, make_radix

BYE = "\x00bye"  # id of the virtual bye vertex (never a real player's id)
DEFAULT_WIDTH = 12
KIND_WIDTH = 3  # rank-neighbours of each colour kind joined to a player (kind_pairs)
SMALL_GROUP = 2 * DEFAULT_WIDTH + 8  # groups up to this size are joined completely
BLOCK_MIN = 1200  # pools above this size are solved block by block
SEGMENT_MAX = 2400  # blocks above this size are first solved in segments (10,000 players)
SEGMENT_TARGET = 1600
PROOF_MAX = 2400  # a segmented block whose proof stops short is matched whole up to this size
COMPLETE_LIMIT = 800  # above this, complete groups are tried only to find a complete pairing
FALLBACK_PAIRS = 1_500_000  # universe small enough to be matched whole if the proof stalls
CHECK_PAIRS = 60_000_000  # universe small enough to be checked (tile by tile, then pair by pair)
MAX_PATTERN_BOUNDARIES = 5  # up to 2^4 float-direction patterns are checked
CERTIFY_ROUNDS = 6  # checks of a segmented block's pairing over its whole universe
CANCELS = 16  # negative cycles of the graph applied to a segmented block's pairing
RESOLVE_MAX = 3200  # score groups matched again whole when a cycle is no real exchange
RESOLVE_PAIRS = 200_000  # ... over all their pairs (not only the graph's) up to this many
RESOLVE_WIDTH = 16  # ... over the pairs this close to the ideal partner (and the graph's)
RESOLVE_NEAR = (60,)  # places around a cycle's players first matched again
POLISH_BAND = 64  # the halves' assignment also considers every pair this close to the ideal
BAND = 64  # above CHECK_PAIRS: only pairs this close to the sparse graph's are checked
SLACK = 3  # first check: also add pairs whose lot-level reduced cost is below this (ties, near ties)
CHUNK = 1 << 20  # pairs checked per numpy batch
N_LEVELS = len(LEVELS)
_SCORE = LEVELS.index("score")
_FORBIDDEN = LEVELS.index("forbidden")
_BYE_TWICE = LEVELS.index("bye_twice")


@dataclass(frozen=True, slots=True)
class Node:
    """A player (or the bye vertex) placed in the score-group layout."""

    pid: str
    score: int
    group: int  # 0 = top score group; the bye vertex sits in a virtual group below the last
    pos: int  # position inside the group, 0 = best placed
    gsize: int
    idx: int = -1  # index in the whole round's layout (``PairTable`` rows)


@dataclass(slots=True)
class Layout:
    """All nodes of one matching problem, group by group."""

    groups: list[list[Node]]  # the bye vertex, if any, is alone in the last group

    @property
    def nodes(self) -> list[Node]:
        return [n for g in self.groups for n in g]

    def score_lower_bound(self) -> int:
        """LB of the score level: one (gap)² per boundary with an odd number of nodes above."""
        lb, above = 0, 0
        for upper, lower in zip(self.groups, self.groups[1:], strict=False):
            above += len(upper)
            if above % 2:
                lb += (upper[0].score - lower[0].score) ** 2
        return lb


@dataclass(slots=True)
class Solution:
    pairs: list[tuple[Node, Node]]
    vectors: list[list[int]]
    certified: bool  # every level proven optimal over all allowed pairs
    widenings: int
    edges: int
    blocks: int = 1
    unmatched: list[str] = field(default_factory=list)
    exact: bool = False  # same as certified (kept for the round's stats)
    levels: int = 0  # leading levels (LEVELS order) proven optimal over all allowed pairs
    score_ok: bool = False  # score level at its lower bound, no forbidden pair, no second bye
    checks: int = 0  # rounds of the certificate (1 = proven at the first check)
    added: int = 0  # pairs the certificate added to the sparse graph


def in_group_cost(u: Node, v: Node, adjacent: bool) -> tuple[int, int]:
    """(in_group, seat) costs of ``u``–``v`` (``u`` placed above ``v``).

    split: in_group is 1 unless one player is in the top half and the other in the bottom
    half; seat is the distance from the exact partner n/2 places down. adjacent: in_group is
    the number of players between them. A float: how far both are from the groups' boundary
    (the lowest of the upper group should meet the highest of the lower).
    """
    if u.group == v.group:
        gap = v.pos - u.pos
        if adjacent:
            return gap - 1, 0
        half = u.gsize // 2
        crosses = u.pos < half <= v.pos
        return (0 if crosses else 1), abs(gap - half)
    return (u.gsize - 1 - u.pos) + v.pos, 0


def _windowed(group_size: int, width: int | None) -> bool:
    """Is a group of this size joined only through a window (not completely)?"""
    return width is not None and group_size > max(SMALL_GROUP, 2 * width + 2)


def candidate_pairs(layout: Layout, width: int | None, reach: int | None,
                    adjacent: bool, kinds: IntArray | None = None
                    ) -> Iterator[tuple[Node, Node]]:
    """Candidate pairs (upper node first) of the sparse graph for this widening step.

    Works on positions inside the whole score group, so a layout may hold part of a group
    (a segment of a very large field, see ``segments``). ``kinds`` (per ``Node.idx``: the
    colour need, see ``colour_kinds``) adds, in a windowed group, each player's
    rank-neighbours of every kind in the other half (``kind_pairs``).
    """
    groups = layout.groups
    for gi, grp in enumerate(groups):
        gsize = grp[0].gsize
        if kinds is not None and not adjacent and _windowed(gsize, width):
            yield from kind_pairs(grp, kinds)
        if not _windowed(gsize, width):
            for i in range(len(grp)):
                for j in range(i + 1, len(grp)):
                    yield grp[i], grp[j]
        else:
            assert width is not None
            at = {n.pos: n for n in grp}
            half = gsize // 2
            for u in grp:
                i = u.pos
                if adjacent:
                    lo, hi = i + 1, i + 2 * width + 1
                else:
                    lo, hi = max(i + 1, i + half - width), i + half + width + 1
                near = [j for j in range(i + 1, i + 3) if j < lo]  # for odd leftovers
                for j in (*near, *range(lo, hi)):
                    v = at.get(j)
                    if v is not None:
                        yield u, v
        last = len(groups) if reach is None else min(len(groups), gi + reach + 1)
        for gj in range(gi + 1, last):
            other = groups[gj]
            w = width or 0
            ups = [n for n in grp if n.gsize - 1 - n.pos < w] if _windowed(gsize, width) else grp
            downs = [n for n in other if n.pos < w] if _windowed(other[0].gsize, width) else other
            for u in ups:
                for v in downs:
                    yield u, v


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
    that kind matches his rank inside his own kind (± ``reach``).

    The colour level wants complementary kinds paired, and the seat level then pairs them in
    order: the r-th Black-needing player of the top half meets about the r-th White-needing
    of the bottom half. When the kinds are unevenly spread that partner drifts far from the
    ideal seat (tens of places in a 1,000-player group), out of the seat window; these pairs
    put it in the graph from the start instead of letting the certificate add it."""
    half = grp[0].gsize // 2
    top = [n for n in grp if n.pos < half]
    bottom = [n for n in grp if n.pos >= half]
    for side, other in ((top, bottom), (bottom, top)):
        mine, theirs = by_kind(side, kinds), by_kind(other, kinds)
        for members in mine.values():
            m = len(members)
            for partners in theirs.values():
                k = len(partners)
                for r, u in enumerate(members):
                    t = (2 * r + 1) * k // (2 * m)
                    for v in partners[max(0, t - reach):t + reach + 1]:
                        yield (u, v) if u.pos < v.pos else (v, u)


@dataclass(frozen=True, slots=True)
class Step:
    width: int | None
    reach: int | None


def widening_steps(pool_size: int, largest_group: int) -> list[Step]:
    """The sequence of ever wider graphs tried for a problem of this size."""
    steps: list[Step] = []
    if largest_group > SMALL_GROUP:
        steps += [Step(DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 2)]
    steps += [Step(None, 1), Step(None, 2), Step(None, 4), Step(None, None)]
    return steps


class _Graph:
    """Candidate pairs of one layout, as local node indices (``i < j``) with cost vectors."""

    def __init__(self, nodes: list[Node], table: PairTable) -> None:
        self.nodes = nodes
        self.table = table
        self.n = len(nodes)
        self.gid: IntArray = np.array([nd.idx for nd in nodes], dtype=np.int64)
        self.local = {nd.pid: k for k, nd in enumerate(nodes)}
        self.seen: set[int] = set()
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

    def add(self, i: IntArray, j: IntArray) -> int:
        """Add the allowed pairs among ``i``–``j`` not yet in the graph; returns how many."""
        if not len(i):
            return 0
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        keys = lo * self.n + hi
        keys, first = np.unique(keys, return_index=True)
        lo, hi = lo[first], hi[first]
        fresh = np.array([k not in self.seen for k in keys.tolist()], dtype=bool)
        lo, hi, keys = lo[fresh], hi[fresh], keys[fresh]
        ok = self.table.allowed(self.gid[lo], self.gid[hi])
        lo, hi, keys = lo[ok], hi[ok], keys[ok]
        if not len(lo):
            return 0
        self.seen.update(keys.tolist())
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


def _score_ok(layout: Layout, vectors: IntArray, complete: bool) -> bool:
    if not complete:
        return False
    clean = not vectors[:, _FORBIDDEN].any() and not vectors[:, _BYE_TWICE].any()
    return clean and int(vectors[:, _SCORE].sum()) // 2 == layout.score_lower_bound()


def _ranges(layout: Layout) -> list[tuple[int, int]]:
    out, start = [], 0
    for grp in layout.groups:
        out.append((start, start + len(grp)))
        start += len(grp)
    return out


def universe(layout: Layout, score_ok: bool) -> Iterator[tuple[IntArray, IntArray]]:
    """Every pair (local indices, in numpy batches) an optimal pairing might use: with the
    score certificate, same-group pairs and pairs across odd boundaries between neighbouring
    groups; otherwise every pair of the layout."""
    ranges = _ranges(layout)
    if not score_ok:
        total = ranges[-1][1] if ranges else 0
        yield from _within(0, total)
        return
    above = 0
    for k, (s, e) in enumerate(ranges):
        yield from _within(s, e)
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            yield from _across(s, e, *ranges[k + 1])


def universe_tiles(layout: Layout, size: int = TILE) -> Tiles:
    """The universe at the score bound (same-group pairs, pairs across an odd boundary
    between neighbouring groups) as tiles of at most TILE players a side (certify.Tiles)."""
    ranges = _ranges(layout)
    starts: list[int] = []
    rows: list[IntArray] = []
    cols: list[IntArray] = []
    first: list[int] = []
    for s, e in ranges:
        first.append(len(starts))
        starts += list(range(s, e, size))
    first.append(len(starts))
    ends = [*starts[1:], ranges[-1][1]] if starts else []
    for k in range(len(ranges)):  # every group ends a block: fix the ends at group bounds
        if first[k + 1] > first[k]:
            ends[first[k + 1] - 1] = ranges[k][1]
    above = 0
    for k, (s, e) in enumerate(ranges):
        own = np.arange(first[k], first[k + 1], dtype=np.int64)
        r, c = np.triu_indices(len(own))
        rows.append(own[r])
        cols.append(own[c])
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            nxt = np.arange(first[k + 1], first[k + 2], dtype=np.int64)
            rows.append(np.repeat(own, len(nxt)))
            cols.append(np.tile(nxt, len(own)))
    none = np.zeros(0, dtype=np.int64)
    return Tiles(np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64),
                 np.concatenate(rows) if rows else none, np.concatenate(cols) if cols else none)


def universe_size(layout: Layout, score_ok: bool) -> int:
    ranges = _ranges(layout)
    if not score_ok:
        n = ranges[-1][1] if ranges else 0
        return n * (n - 1) // 2
    size, above = 0, 0
    for k, (s, e) in enumerate(ranges):
        size += (e - s) * (e - s - 1) // 2
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            size += (e - s) * (ranges[k + 1][1] - ranges[k + 1][0])
    return size


def _within(s: int, e: int) -> Iterator[tuple[IntArray, IntArray]]:
    r = s
    while r < e - 1:
        rows = max(1, CHUNK // max(e - r - 1, 1))
        r1 = min(e - 1, r + rows)
        starts = np.arange(r, r1, dtype=np.int64)
        counts = e - 1 - starts
        i = np.repeat(starts, counts)
        offsets = np.arange(len(i), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        yield i, i + 1 + offsets
        r = r1


def _across(s: int, e: int, s2: int, e2: int) -> Iterator[tuple[IntArray, IntArray]]:
    width = e2 - s2
    rows = max(1, CHUNK // max(width, 1))
    for r in range(s, e, rows):
        r1 = min(e, r + rows)
        yield (np.repeat(np.arange(r, r1, dtype=np.int64), width),
               np.tile(np.arange(s2, e2, dtype=np.int64), r1 - r))


def band(layout: Layout, adjacent: bool) -> Iterator[tuple[IntArray, IntArray]]:
    """The pairs near each player's ideal partner (BAND seats either way; neighbours; floats
    near the boundary): what is checked when the whole universe is too large to check."""
    ranges = _ranges(layout)
    for k, (s, e) in enumerate(ranges):
        g = e - s
        half = g // 2
        offsets = set(range(1, min(g, 2 * BAND + 2))) if adjacent else {
            d for d in (*range(1, 3), *range(half - BAND, half + BAND + 1)) if 0 < d < g}
        for d in sorted(offsets):
            i = np.arange(s, e - d, dtype=np.int64)
            yield i, i + d
        if k + 1 < len(ranges):
            s2, e2 = ranges[k + 1]
            yield from _across(max(s, e - BAND), e, s2, min(e2, s2 + BAND))


@dataclass(slots=True)
class Floats:
    """The floats of a complete pairing: per node its side (+1 upper player, -1 lower) and
    boundary, and the layout group of every node."""

    side: IntArray
    bound: IntArray
    group: IntArray
    boundaries: int

    def pattern(self, fixed: Sequence[int], bits: int) -> Orientation:
        """The orientation that fixes ``fixed`` (the first downwards, the others by ``bits``)."""
        down = np.ones(max(self.boundaries, 1), dtype=bool)
        pinned = np.zeros(max(self.boundaries, 1), dtype=bool)
        pinned[list(fixed)] = True
        for t, k in enumerate(fixed[1:]):
            down[k] = not (bits >> t) & 1
        return Orientation(self.side, self.bound, self.group, down, pinned)

    def patterns(self, fixed: Sequence[int]) -> list[Orientation | None]:
        """Every direction pattern of the ``fixed`` boundaries, up to reversal (None: no
        boundary fixed, every arc kept)."""
        if not fixed:
            return [None]
        return [self.pattern(fixed, bits) for bits in range(2 ** (len(fixed) - 1))]


def _floats(layout: Layout, mate: IntArray) -> Floats:
    ranges = _ranges(layout)
    n = ranges[-1][1] if ranges else 0
    group = np.zeros(n, dtype=np.int64)
    for k, (s, e) in enumerate(ranges):
        group[s:e] = k
    side = np.zeros(n, dtype=np.int64)
    bound = np.zeros(n, dtype=np.int64)
    own = np.arange(n, dtype=np.int64)
    up = np.nonzero((mate > own) & (group[np.maximum(mate, 0)] != group))[0]
    side[up], side[mate[up]] = 1, -1
    bound[up] = bound[mate[up]] = group[up]
    return Floats(side, bound, group, len(ranges))


def _patterned_potentials(floats: Floats, fixed: list[int], n: int, mate: IntArray,
                          ei: IntArray, ej: IntArray, cv: IntArray, cm: IntArray, levels: int,
                          cycle_out: list[int] | None = None
                          ) -> list[tuple[list[IntArray], Orientation | None]]:
    """Potentials for every direction pattern of the fixed boundaries, fixing more of them
    (``fixed`` grows in place) while a pattern's negative cycle breaks a float of a boundary
    not yet fixed from both ends — a half float, no real exchange. Boundaries whose floats
    never cause one stay free (every arc kept), so most rounds need one or two patterns
    whatever their number of odd boundaries. ``cycle_out`` receives the negative cycle met
    by the first pattern without potentials on every level (if any).

    The levels that have potentials with every arc kept need no pattern: potentials valid
    on all arcs are valid on any subset, so each pattern starts from those (``known``) and
    computes only the levels from the first one with a negative cycle down."""
    arcs = exchange_arcs(mate, ei, ej, cv, cm)
    base: list[IntArray] | None = None
    while True:
        tests: list[tuple[list[IntArray], Orientation | None]] = []
        grow: set[int] = set()
        for orient in floats.patterns(fixed):
            cycle: list[int] = []
            pis = potentials(n, mate, ei, ej, cv, cm, orient,
                             cycle if not grow else None, known=base, arcs=arcs)[:levels]
            if orient is None:
                base = pis
            tests.append((pis, orient))
            if len(pis) < levels and cycle and not grow:
                probe = orient or floats.pattern([], 0)
                grow = probe.half_floats(cycle, mate) - set(fixed)
                if cycle_out is not None and not cycle_out:
                    cycle_out += cycle
        if not grow or len(fixed) + len(grow) > MAX_PATTERN_BOUNDARIES:
            return tests
        if cycle_out is not None:
            cycle_out.clear()
        fixed += sorted(grow)


def _prove(layout: Layout, graph: _Graph, mate: IntArray, weight_levels: int,
           widenings: int) -> Solution:
    """Check the complete matching ``mate`` against the universe; add the pairs that could
    improve a level and solve again until none is left (see certify.py). A universe above
    CHECK_PAIRS is only checked near the sparse graph (``band``): improvements found there are
    still taken, but only the score certificate is claimed."""
    checks = added = 0
    shift = odd_set_score([len(g) for g in layout.groups], [g[0].score for g in layout.groups])
    fixed: list[int] = []  # boundaries whose float direction the patterns fix (grows)
    while True:
        cm = graph.pair_vectors(mate)
        ok = _score_ok(layout, cm, True)
        full = universe_size(layout, ok) <= CHECK_PAIRS
        ei, ej, cv = graph.arrays()
        if ok:  # levels above the score's are proven by the bound; below, reduced score cost
            own = np.arange(graph.n, dtype=np.int64)
            cm = shifted(cm, np.minimum(own, mate), np.maximum(own, mate), shift)
            cv = shifted(cv, ei, ej, shift)
            tests = _patterned_potentials(_floats(layout, mate), fixed, graph.n, mate, ei, ej,
                                          cv, cm, weight_levels)
        else:
            tests = [(potentials(graph.n, mate, ei, ej, cv, cm)[:weight_levels], None)]
        checks += 1
        chunks = ((universe_tiles(layout) if ok else universe(layout, ok)) if full
                  else band(layout, graph.table.adjacent))
        vi, vj = violations(graph.table, graph.gid, mate, cm, tests, chunks,
                            shift if ok else None, SLACK if checks == 1 else 0)
        new = graph.add(vi, vj) if len(vi) else 0
        if new:
            added += new
            mate, weight_levels = graph.match()
            continue
        # (a failing pair already in the graph would contradict its potentials: claim no
        # level below the score's then, rather than loop)
        found = min(len(pis) for pis, _ in tests) if not len(vi) else 0
        proven = max(found, _SCORE + 1) if ok else found
        levels = proven if full else (_SCORE + 1 if ok else 0)
        if full and levels < N_LEVELS and weight_levels == N_LEVELS:
            size = universe_size(layout, ok)
            if size + graph.edges <= FALLBACK_PAIRS:  # match the whole universe instead
                for i, j in universe(layout, ok):
                    added += graph.add(i, j)
                mate, weight_levels = graph.match()
                cm = graph.pair_vectors(mate)
                ok = _score_ok(layout, cm, True)
                if universe_size(layout, ok) <= size:
                    return graph.solution(mate, widenings, weight_levels, ok, checks, added)
                continue
        return graph.solution(mate, widenings, levels, ok, checks, added)


def ideal_pairing(layout: Layout, table: PairTable) -> Solution | None:
    """The textbook pairing when it costs nothing above the lot: every group even, 1 v n/2+1
    (or neighbours), no rematch. It is then the only pairing with zero cost on every level
    above the lot (seat 0 means the exact partner; adjacent: in-group 0 means 1–2, 3–4, …), so
    no other pairing ties with it down to the seat and the lot has nothing to decide: it is
    the optimum on every level, with no matching and no check."""
    pairs: list[tuple[Node, Node]] = []
    for grp in layout.groups:
        g = len(grp)
        if g % 2 or grp[0].pid == BYE or g != grp[0].gsize:
            return None
        half = g // 2
        pairs += [(grp[2 * i], grp[2 * i + 1]) for i in range(half)] if table.adjacent else [
            (grp[i], grp[i + half]) for i in range(half)
        ]
    if not pairs:
        return None
    i = np.array([u.idx for u, _ in pairs], dtype=np.int64)
    j = np.array([v.idx for _, v in pairs], dtype=np.int64)
    if not table.allowed(i, j).all():
        return None
    vecs = table.vectors(i, j)
    if vecs[:, :-1].any():
        return None
    return Solution(pairs, vecs.tolist(), True, 0, len(pairs), exact=True,
                    levels=N_LEVELS, score_ok=True)


def solve_layout(layout: Layout, table: PairTable, steps: Sequence[Step] | None = None,
                 prove: bool = True) -> Solution:
    """Best pairing of one layout: widen until complete, then prove (and grow) it."""
    nodes = layout.nodes
    graph = _Graph(nodes, table)
    if steps is None and (quick := ideal_pairing(layout, table)) is not None:
        return quick
    largest = max((len(g) for g in layout.groups), default=0)
    steps = list(steps) if steps is not None else widening_steps(len(nodes), largest)
    mate = np.full(len(nodes), -1, dtype=np.int64)
    weight_levels = N_LEVELS
    k = 0
    for k, step in enumerate(steps):
        if step.width is None and len(nodes) > COMPLETE_LIMIT and k and (mate >= 0).all():
            break
        graph.add_nodes(candidate_pairs(layout, step.width, step.reach, table.adjacent,
                                        colour_kinds(table)))
        mate, weight_levels = graph.match()
        if (mate >= 0).all():
            break
    if not (mate >= 0).all() or not prove:
        cm = graph.pair_vectors(mate)
        ok = _score_ok(layout, cm, bool((mate >= 0).all()))
        return graph.solution(mate, k, 0, ok)
    return _prove(layout, graph, mate, weight_levels, k)


def split_blocks(layout: Layout) -> list[Layout]:
    """Cut the layout at every boundary with an even number of nodes above it."""
    blocks: list[Layout] = []
    current: list[list[Node]] = []
    above = 0
    for grp in layout.groups:
        current.append(grp)
        above += len(grp)
        if above % 2 == 0:
            blocks.append(Layout(current))
            current = []
    if current:
        blocks.append(Layout(current))
    return blocks


def _partner_order(grp: list[Node], table: PairTable | None) -> list[Node]:
    """A group in partner order: each top-half player next to a bottom-half partner. Without
    colour balance the partner is the ideal one (1, n/2+1, 2, n/2+2, …); with it, players
    are first paired kind by kind (colour kinds, cheapest pair of kinds first, in rank order
    inside each kind), so a segment holds a colour-balanced half of its own and the colour
    level loses nothing at the segment cuts that this pre-pairing would not."""
    half = len(grp) // 2
    top, bottom = grp[:half], grp[half:]
    kinds = colour_kinds(table) if table is not None else None
    if kinds is None or not top:
        return [n for pair in zip(top, bottom, strict=False) for n in pair] + bottom[len(top):]
    assert table is not None
    mine, theirs = by_kind(top, kinds), by_kind(bottom, kinds)
    cb, cw = table.colour_black, table.colour_white

    def cost(a: Node, b: Node) -> int:
        return int(min(cb[a.idx] + cw[b.idx], cb[b.idx] + cw[a.idx]))

    options = sorted((cost(m[0], t[0]), km, kt) for km, m in mine.items()
                     for kt, t in theirs.items())
    taken: list[tuple[Node, Node]] = []
    for _, km, kt in options:
        m, t = mine[km], theirs[kt]
        k = min(len(m), len(t))
        taken += zip(m[:k], t[:k], strict=True)
        mine[km], theirs[kt] = m[k:], t[k:]
    taken.sort(key=lambda pr: pr[0].pos)
    rest = sorted((n for t in theirs.values() for n in t), key=lambda n: n.pos)
    return [n for pair in taken for n in pair] + rest


def segments(layout: Layout, size: int, table: PairTable | None = None) -> list[Layout]:
    """Cut a very large block into segments of about ``size`` nodes that are solved apart.

    Nodes are put in "partner order": inside each group the top and bottom halves are
    interleaved (1, n/2+1, 2, n/2+2, …; neighbours as they are for ``adjacent``), so a player's
    ideal opponent, and the boundary players who float, sit next to him; cuts fall only where
    an even number of nodes lies above. This bounds the cost of a 10,000-player round; the
    cuts are undone afterwards (``_certify_block``: halves' assignment, proof over the block).
    """
    order: list[Node] = []
    for grp in layout.groups:
        order += _partner_order(grp, table)
    parts: list[list[Node]] = []
    current: list[Node] = []
    for k, node in enumerate(order):
        current.append(node)
        if len(current) >= size and (k + 1) % 2 == 0 and len(order) - k - 1 >= size // 2:
            parts.append(current)
            current = []
    if current:
        parts.append(current)
    out = []
    for part in parts:
        by_group: dict[int, list[Node]] = {}
        for n in part:
            by_group.setdefault(n.group, []).append(n)
        out.append(Layout([sorted(by_group[gi], key=lambda n: n.pos) for gi in sorted(by_group)]))
    return out


def _combine(parts: list[Solution], levels: int, score_ok: bool) -> Solution:
    full = levels == N_LEVELS
    return Solution(
        pairs=[pr for p in parts for pr in p.pairs],
        vectors=[v for p in parts for v in p.vectors],
        certified=full,
        widenings=max((p.widenings for p in parts), default=0),
        edges=sum(p.edges for p in parts),
        blocks=sum(p.blocks for p in parts),
        unmatched=[u for p in parts for u in p.unmatched],
        exact=full,
        levels=levels,
        score_ok=score_ok,
        checks=max((p.checks for p in parts), default=0),
        added=sum(p.added for p in parts),
    )


def _solve_block(block: Layout, table: PairTable, segmented: bool = True) -> Solution:
    """One block; a block above SEGMENT_MAX nodes is first solved segment by segment (a
    segment that cannot be completed is merged with the next one), then polished and proven
    over its whole universe (``_certify_block``)."""
    size = sum(len(g) for g in block.groups)
    if size <= SEGMENT_MAX or not segmented:
        return solve_layout(block, table)
    pending = segments(block, SEGMENT_TARGET, table)
    graph = _Graph(block.nodes, table)
    mate = np.full(graph.n, -1, dtype=np.int64)
    widenings = 0
    while pending:
        seg = pending.pop(0)
        sol = solve_layout(seg, table, prove=False)
        if sol.unmatched and pending:
            pending.insert(0, _merge(seg, pending.pop(0)))
            continue
        if sol.unmatched:  # last segment: solve the block whole
            return solve_layout(block, table)
        widenings = max(widenings, sol.widenings)
        local = graph.local
        for u, v in sol.pairs:
            mate[local[u.pid]], mate[local[v.pid]] = local[v.pid], local[u.pid]
        graph.add(np.array([local[u.pid] for u, _ in sol.pairs], dtype=np.int64),
                  np.array([local[v.pid] for _, v in sol.pairs], dtype=np.int64))
    # the sparse graph of the whole block: windows, floats at every boundary, colour kinds
    graph.add_nodes(candidate_pairs(block, DEFAULT_WIDTH, 1, table.adjacent,
                                    colour_kinds(table)))
    levels, checks, added = _certify_block(block, graph, mate)
    if levels < N_LEVELS and size <= PROOF_MAX:  # small enough to be grown and matched whole
        sol = _prove(block, graph, mate, N_LEVELS, widenings)
        sol.checks += checks
        sol.added += added
        return sol
    cm = graph.pair_vectors(mate)
    return graph.solution(mate, widenings, levels, _score_ok(block, cm, True), checks, added)


def _crosses_halves(block: Layout, gid: IntArray, table: PairTable, i: IntArray,
                    j: IntArray) -> BoolArray:
    """Pairs inside one score group with one player in each half (what ``_polish`` re-solves)."""
    gi, gj = gid[i], gid[j]
    half = table.gsize[gi] // 2
    return np.asarray((table.group[gi] == table.group[gj])
                      & ((table.pos[gi] < half) != (table.pos[gj] < half)))


def _polish(block: Layout, graph: _Graph, mate: IntArray) -> None:
    """Re-solve, in every score group, the pairs of ``mate`` that cross the halves as one exact
    assignment (``assign.assign``) of those top-half players to those bottom-half players,
    over the graph's pairs between them and every pair within POLISH_BAND seats of the ideal
    partner. Everything else (floats, same-half pairs) keeps its pairs; the new pairs cost no
    more on any level (the old ones are among the candidates), and the segment cuts no longer
    bind the colour, seat and lot levels inside the halves."""
    if graph.table.adjacent:
        return
    inside = np.zeros(graph.n, dtype=bool)
    for (s, e), grp in zip(_ranges(block), block.groups, strict=True):
        half = grp[0].gsize // 2
        top = np.arange(s, s + half, dtype=np.int64)
        mates = mate[top]
        crossing = (mates >= s + half) & (mates < e)
        rows, cols = top[crossing], np.sort(mates[crossing])
        if len(rows) < 2:
            continue
        inside[:] = False
        inside[cols] = True
        d = np.arange(-POLISH_BAND, POLISH_BAND + 1, dtype=np.int64)
        bi = np.repeat(rows, len(d))
        bj = bi + half + np.tile(d, len(rows))
        near = (bj >= s + half) & (bj < e)
        bi, bj = bi[near], bj[near]
        near = inside[bj]
        bi, bj = bi[near], bj[near]
        ei, ej, _ = graph.arrays()
        row_of = np.full(graph.n, -1, dtype=np.int64)
        col_of = np.full(graph.n, -1, dtype=np.int64)
        row_of[rows] = np.arange(len(rows), dtype=np.int64)
        col_of[cols] = np.arange(len(cols), dtype=np.int64)
        sel = (row_of[ei] >= 0) & (col_of[ej] >= 0)
        pi = np.concatenate([ei[sel], bi])
        pj = np.concatenate([ej[sel], bj])
        _, first = np.unique(pi * graph.n + pj, return_index=True)
        pi, pj = pi[first], pj[first]
        ok = graph.table.allowed(graph.gid[pi], graph.gid[pj])
        pi, pj = pi[ok], pj[ok]
        cv = graph.table.vectors(graph.gid[pi], graph.gid[pj])
        found = assign(len(rows), len(cols), row_of[pi], col_of[pj], cv)
        if found is None:
            continue
        a, b = rows[found[0]], cols[found[1]]
        table, gid = graph.table, graph.gid
        old = tuple(table.vectors(gid[rows], gid[mate[rows]]).sum(axis=0).tolist())
        if tuple(table.vectors(gid[a], gid[b]).sum(axis=0).tolist()) > old:
            continue  # worse on a level left out of the weight: keep the old pairs
        mate[a], mate[b] = b, a
        graph.add(a, b)  # the band's other pairs stay out: the certificate adds what it needs


def _certify_block(block: Layout, graph: _Graph, mate: IntArray) -> tuple[int, int, int]:
    """Polish the joined segments' pairing and prove it over the whole block's universe
    (potentials on the block's graph, then every universe pair tile by tile, as ``_prove``).

    Pairs that fail the check are added to the graph and the same pairing is checked again,
    with the potentials of the levels above the first failing one kept (the added pairs are
    tight there, so those levels' distances do not change) and only the lower levels
    computed again. When the potentials meet a negative cycle of the graph, the pairing is
    not yet the graph's optimum: the cycle is an exchange that lowers that level and keeps
    every level above, so it is applied (``_cancel``; a cycle that passes a player twice is
    no real exchange, and the score groups it touches are matched again instead,
    ``_resolve``) and the halves polished again. At most CERTIFY_ROUNDS checks and CANCELS
    exchanges. Returns (levels proven, checks, pairs added):
    all eight when a check finds nothing; else the levels above the first one at which a
    failing pair or cycle could still improve the pairing (at least the score level when the
    pairing is at the score bound, none when it is not)."""
    table = graph.table
    shift = odd_set_score([len(g) for g in block.groups], [g[0].score for g in block.groups])
    fixed: list[int] = []
    checks = added = cancels = 0
    keep: list[tuple[list[IntArray], Orientation | None]] | None = None
    _polish(block, graph, mate)
    while True:
        cm = graph.pair_vectors(mate)
        if not _score_ok(block, cm, True):
            return 0, checks, added
        if universe_size(block, True) > CHECK_PAIRS:
            return _SCORE + 1, checks, added
        ei, ej, cv = graph.arrays()
        own = np.arange(graph.n, dtype=np.int64)
        cm = shifted(cm, np.minimum(own, mate), np.maximum(own, mate), shift)
        cv = shifted(cv, ei, ej, shift)
        cycle: list[int] = []
        if keep is not None:
            tests = []
            arcs = exchange_arcs(mate, ei, ej, cv, cm)
            for pis, orient in keep:
                tests.append((potentials(graph.n, mate, ei, ej, cv, cm, orient,
                                         cycle if not cycle else None, known=pis, arcs=arcs),
                              orient))
        else:
            tests = _patterned_potentials(_floats(block, mate), fixed, graph.n, mate, ei, ej,
                                          cv, cm, N_LEVELS, cycle)
        found = min(len(pis) for pis, _ in tests)
        if found < N_LEVELS and cancels < CANCELS and (
                _cancel(graph, mate, cycle) or _resolve(block, graph, mate, cycle)):
            cancels += 1
            keep = None
            _polish(block, graph, mate)
            continue
        checks += 1
        first: list[int] = []
        vi, vj = violations(table, graph.gid, mate, cm, tests, universe_tiles(block), shift,
                            SLACK if checks == 1 else 0, first)
        proven = min([found, *first])
        if proven == N_LEVELS:
            return N_LEVELS, checks, added
        new = graph.add(vi, vj) if len(vi) else 0
        added += new
        if found < N_LEVELS or checks >= CERTIFY_ROUNDS or not new:
            return max(proven, _SCORE + 1), checks, added
        keep = [(pis[:proven], orient) for pis, orient in tests]


def _resolve(block: Layout, graph: _Graph, mate: IntArray, cycle: list[int]) -> bool:
    """When a negative cycle is no real exchange (it passes a player twice: an odd cycle of
    the non-bipartite matching), match a set of players again as one exact matching, trying
    in turn: the players within RESOLVE_NEAR places of the cycle's players and partners; each
    score group it touches alone (its floats kept); those groups together. A set is tried
    only if it holds at most RESOLVE_MAX players; players paired outside it keep their pairs.
    Returns whether the pairing improved (the first set that improves it is taken)."""
    if not cycle:
        return False
    table, gid = graph.table, graph.gid
    core = np.array(cycle, dtype=np.int64)
    core = np.unique(np.concatenate([core, mate[core]]))
    group = table.group[gid]
    ranges = _ranges(block)
    sets = []
    for reach in RESOLVE_NEAR:
        near = np.zeros(graph.n, dtype=bool)
        for k in core.tolist():
            s, e = ranges[int(group[k]) - int(group[0])]
            near[max(s, k - reach):min(e, k + reach + 1)] = True
        sets.append(near)
    touched = np.unique(group[core]).tolist()
    sets += [group == g for g in touched]  # each score group alone (floats kept)
    if len(touched) > 1:
        sets.append(np.isin(group, touched))
    for inside in sets:
        inside = inside & (mate >= 0) & inside[np.maximum(mate, 0)]
        members = np.nonzero(inside)[0]
        if len(members) > RESOLVE_MAX:
            continue
        if _rematch(block, graph, mate, members):
            return True
    return False


def _rematch(block: Layout, graph: _Graph, mate: IntArray, members: IntArray) -> bool:
    """One exact matching of ``members`` (closed under ``mate``) over the graph's pairs among
    them and those within RESOLVE_WIDTH places of the ideal partner (``candidate_pairs``), or
    over all their pairs when those are at most RESOLVE_PAIRS; kept if it is better."""
    sub = _Graph([graph.nodes[k] for k in members.tolist()], graph.table)
    where = np.full(graph.n, -1, dtype=np.int64)
    where[members] = np.arange(len(members), dtype=np.int64)
    if len(members) * (len(members) - 1) // 2 <= RESOLVE_PAIRS:  # every pair among them
        for i, j in _within(0, len(members)):
            sub.add(i, j)
    else:  # the pairs near each player's ideal partner
        by_group: dict[int, list[Node]] = {}
        for k in members.tolist():
            by_group.setdefault(graph.nodes[k].group, []).append(graph.nodes[k])
        part = Layout([by_group[g] for g in sorted(by_group)])
        sub.add_nodes(candidate_pairs(part, RESOLVE_WIDTH, 1, graph.table.adjacent,
                                      colour_kinds(graph.table)))
    ei, ej, _ = graph.arrays()
    both = (where[ei] >= 0) & (where[ej] >= 0)
    sub.add(where[ei[both]], where[ej[both]])
    sub_mate, _ = sub.match()
    if (sub_mate < 0).any():
        return False
    trial = mate.copy()
    trial[members] = members[sub_mate]
    return _take(graph, mate, trial)


def _take(graph: _Graph, mate: IntArray, trial: IntArray) -> bool:
    """Replace ``mate`` by ``trial`` if its cost vector is lexicographically lower."""
    before = graph.pair_vectors(mate).sum(axis=0)
    after = graph.pair_vectors(trial).sum(axis=0)
    if tuple(after.tolist()) >= tuple(before.tolist()):
        return False
    mate[:] = trial
    return True


def _cancel(graph: _Graph, mate: IntArray, cycle: list[int]) -> bool:
    """Apply the exchange of a negative cycle of the exchange graph (nodes in arc order; an
    arc t → h stands for the new pair M(t)–h breaking t–M(t)) if it is a real one — every
    player in it once — and it lowers the pairing's cost vector; returns whether it did."""
    nodes = cycle[:-1] if len(cycle) > 1 and cycle[0] == cycle[-1] else list(cycle)
    if len(nodes) < 2:
        return False
    tails = np.array(nodes, dtype=np.int64)
    partners = mate[tails]
    involved = np.concatenate([tails, partners])
    if len(np.unique(involved)) != len(involved) or (partners < 0).any():
        return False  # a player twice: no real exchange (a half float, an odd cycle)
    heads = np.roll(tails, -1)
    trial = mate.copy()
    trial[partners], trial[heads] = heads, partners
    return _take(graph, mate, trial)


def _merge(a: Layout, b: Layout) -> Layout:
    by_group: dict[int, list[Node]] = {}
    for n in (*a.nodes, *b.nodes):
        by_group.setdefault(n.group, []).append(n)
    return Layout([sorted(by_group[gi], key=lambda n: n.pos) for gi in sorted(by_group)])


def solve(layout: Layout, table: PairTable, segmented: bool = True) -> Solution:
    """Solve a whole pool: as one matching up to BLOCK_MIN players; above, block by block
    (blocks are independent when every block reaches its score bound) and very large blocks
    segment by segment first (``segmented=False``: whole, for comparison); every part is
    proven (or grown until proven) on all levels."""
    total = sum(len(g) for g in layout.groups)
    if total <= BLOCK_MIN or ideal_pairing(layout, table) is not None:
        return solve_layout(layout, table)
    blocks = split_blocks(layout)
    if len(blocks) == 1:
        return _solve_block(layout, table, segmented)
    parts = [_solve_block(b, table, segmented) for b in blocks]
    if all(not p.unmatched and p.score_ok for p in parts):
        return _combine(parts, min(p.levels for p in parts), True)
    return solve_layout(layout, table)


def complete_matching(layout: Layout, table: PairTable) -> tuple[Solution, int]:
    """The reference: one maximum-weight matching over every allowed pair of the layout (no
    window, block, segment or certificate), and how many levels its weights hold (all, unless
    2^100 forced some out). Memory grows with n²: for checks and benchmarks only."""
    graph = _Graph(layout.nodes, table)
    for i, j in _within(0, graph.n):
        graph.add(i, j)
    mate, levels = graph.match()
    cm = graph.pair_vectors(mate)
    ok = _score_ok(layout, cm, bool((mate >= 0).all()))
    return graph.solution(mate, 0, levels, ok), levels
