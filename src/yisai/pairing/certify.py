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
level by level: Bellman–Ford (numpy rounds, rustworkx for long chains) on level 1 over all
arcs, then on level 2 over the arcs whose level-1 reduced cost is 0 (only those can still
decide a cycle's sign), and so on.
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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import rustworkx as rx

from yisai.pairing.table import N_LEVELS, BoolArray, IntArray, PairTable
from yisai.pairing.weights import LEVELS

SCORE = LEVELS.index("score")
COLOUR = LEVELS.index("colour")
KIND_TILES = 16  # colour kinds up to this many: the tiles' colour bound goes kind by kind
_FAR = 1 << 40  # "no player of this kind in the block"


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
    one way or the other, its break of F_k goes down (upper player first) or up. On a
    ``fixed`` boundary, ``down[k]`` keeps only one of the two (breaks of F_k in that
    direction, new floats in the other), which removes the "half floats" of the relaxation
    (breaking F_k both ways, once from each end) while every real cycle whose breaks follow
    the pattern is kept; a boundary not fixed keeps every arc (a superset). Checking every
    pattern of the fixed boundaries (up to reversing the cycle) covers every real cycle."""

    float_side: IntArray  # per node: +1 upper player of a float, -1 lower player, 0 none
    float_bound: IntArray  # per node: the float's boundary (= the upper player's group)
    group: IntArray  # per node: its group in the layout
    down: BoolArray  # per boundary (indexed by the upper group)
    fixed: BoolArray  # per boundary: is its direction restricted by this pattern

    def arcs_ok(self, tails: IntArray, xs: IntArray, ys: IntArray) -> BoolArray:
        """Arcs tail → y breaking tail–x and making x–y that this pattern keeps."""
        side = self.float_side[tails]
        at = self.float_bound[tails]
        ok = (side == 0) | ~self.fixed[at] | ((side == 1) == self.down[at])
        gx, gy = self.group[xs], self.group[ys]
        cross = gx != gy
        low = np.minimum(gx, gy)
        ok &= ~cross | ~self.fixed[low] | ((gx < gy) != self.down[low])
        return np.asarray(ok)

    def half_floats(self, cycle: list[int], mate: IntArray) -> set[int]:
        """Boundaries whose float ``cycle`` (nodes of an exchange cycle) breaks from both ends."""
        on = set(cycle)
        return {int(self.float_bound[v]) for v in on
                if self.float_side[v] == 1 and int(mate[v]) in on}


@dataclass(slots=True)
class Arcs:
    """The exchange graph's arcs: tail M(x) → head y for every pair x–y, per level its cost
    c(x, y) − c(x, M(x)) (one contiguous array per level)."""

    tails: IntArray
    heads: IntArray
    xs: IntArray  # the player x who takes the head
    cols: list[IntArray]


def exchange_arcs(mate: IntArray, ei: IntArray, ej: IntArray, cv: IntArray, cm: IntArray
                  ) -> Arcs:
    """The arcs of the exchange graph of ``mate`` over the pairs ``ei``–``ej`` (once for every
    float-direction pattern of a check)."""
    keep = np.nonzero(mate[ei] != ej)[0]
    ei, ej = ei[keep], ej[keep]
    tails = np.concatenate([mate[ei], mate[ej]])
    heads = np.concatenate([ej, ei])
    cols = []
    for level in range(N_LEVELS):  # column by column: no arcs × levels intermediate
        col = cv[keep, level]
        cols.append(np.concatenate([col - cm[ei, level], col - cm[ej, level]]))
    return Arcs(tails, heads, np.concatenate([ei, ej]), cols)


def potentials(n: int, mate: IntArray, ei: IntArray, ej: IntArray, cv: IntArray,
               cm: IntArray, orient: Orientation | None = None,
               cycle: list[int] | None = None, known: list[IntArray] | None = None,
               arcs: Arcs | None = None) -> list[IntArray]:
    """Lexicographic potentials of the exchange graph of matching ``mate`` over pairs
    ``ei``–``ej`` (local indices, cost vectors ``cv``; ``cm[x]``: cost vector of x's pair).

    Returns one array per level, for as many leading levels as have potentials; when a level
    has none and ``cycle`` is given, a negative cycle of that level's tight arcs is put in it
    (its nodes), so the caller can see which floats it breaks from both ends. ``known``:
    potentials of the leading levels already found for this matching on fewer pairs, kept
    when the pairs added since are tight on those levels (they change no distance there).
    ``arcs``: ``exchange_arcs`` of the same arguments, computed once for several patterns."""
    if arcs is None:
        arcs = exchange_arcs(mate, ei, ej, cv, cm)
    tails, heads, cols = arcs.tails, arcs.heads, arcs.cols
    if orient is not None:
        kept = orient.arcs_ok(tails, arcs.xs, heads)
        tails, heads, cols = tails[kept], heads[kept], [c[kept] for c in cols]
    tight = np.ones(len(tails), dtype=bool)
    out: list[IntArray] = []
    source = n
    for level in range(N_LEVELS):
        if known is not None and level < len(known):
            pi = known[level]
            out.append(pi)
            tight &= cols[level] + pi[tails] - pi[heads] == 0
            continue
        at = np.nonzero(tight)[0]
        col = cols[level][at]
        if not len(at) or (col >= 0).all():  # no negative arc: 0 is a potential
            pi = np.zeros(n, dtype=np.int64)
        else:
            found = _shortest(n, tails[at], heads[at], col)
            if found is None:
                graph: rx.PyDiGraph[None, float] = rx.PyDiGraph()
                graph.add_nodes_from([None] * (n + 1))
                graph.add_edges_from([(source, v, 0.0) for v in range(n)])
                graph.add_edges_from(list(zip(tails[at].tolist(), heads[at].tolist(),
                                              col.astype(float).tolist(), strict=True)))
                try:
                    dist = rx.digraph_bellman_ford_shortest_path_lengths(graph, source, float)
                except rx.NegativeCycle:
                    if cycle is not None:
                        cycle += [v for v in rx.find_negative_cycle(graph, float)
                                  if v != source]
                    return out
                found = np.zeros(n, dtype=np.int64)
                for v, d in dist.items():
                    if v != source:
                        found[v] = round(d)
            pi = found
        out.append(pi)
        if pi.any():
            tight[at] &= col + pi[tails[at]] - pi[heads[at]] == 0
        else:
            tight[at] &= col == 0
    return out


SHORTEST_WORK = 32  # arcs the vectorised Bellman-Ford relaxes, per arc, before rustworkx does
CYCLE_EVERY = 4  # rounds between two looks for a cycle among the improving arcs


def _shortest(n: int, tails: IntArray, heads: IntArray, costs: IntArray) -> IntArray | None:
    """Shortest distances from a virtual source joined to every node at cost 0 (so every
    distance is at most 0), by Bellman-Ford rounds in numpy: each round relaxes only the arcs
    leaving the nodes the round before improved. Most levels settle in a few rounds; None
    once it has relaxed SHORTEST_WORK times as many arcs as there are (long chains of
    negative arcs), or as soon as the arcs that last improved each node close a cycle —
    such a cycle is always negative — for rustworkx's Bellman-Ford to decide (and find the
    cycle). Building rustworkx's graph costs tens of relaxations per arc, so the numpy
    rounds go on until then."""
    order = np.argsort(tails, kind="stable")
    t, h, c = tails[order], heads[order], costs[order]
    start = np.searchsorted(t, np.arange(n + 1, dtype=np.int64))
    dist = np.zeros(n, dtype=np.int64)
    parent = np.full(n + 1, n, dtype=np.int64)  # n: the source (its own parent)
    active = np.unique(t[c < 0])
    budget = SHORTEST_WORK * len(t)
    rounds = 0
    mark = np.zeros(n, dtype=bool)
    while len(active):
        lo, hi = start[active], start[active + 1]
        count = hi - lo
        budget -= int(count.sum())
        if budget < 0:
            return None
        at = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
        tail = t[at]
        cand = dist[tail] + c[at]
        head = h[at]
        better = cand < dist[head]
        head, cand, tail = head[better], cand[better], tail[better]
        np.minimum.at(dist, head, cand)
        won = cand == dist[head]
        parent[head[won]] = tail[won]
        mark[head] = True  # the improved nodes, in order (a sort of ``head`` costs more)
        active = np.flatnonzero(mark)
        mark[active] = False
        rounds += 1
        if rounds % CYCLE_EVERY == 0 and _parent_cycle(parent):
            return None
    return dist


def _parent_cycle(parent: IntArray) -> bool:
    """Do the parent pointers (the source, the last entry, its own parent) close a cycle?
    Pointer doubling: after 2^k >= len steps every node sits on the cycle it ends in."""
    at = parent
    for _ in range(len(parent).bit_length()):
        at = at[at]
    return bool((at != len(parent) - 1).any())


def violations(table: PairTable, gid: IntArray, mate: IntArray, cm: IntArray,
               checks: list[tuple[list[IntArray], Orientation | None]],
               chunks: Iterable[tuple[IntArray, IntArray]] | Tiles,
               shift: IntArray | None = None, slack: int = 0,
               first_level: list[int] | None = None,
               strict: list[BoolArray] | None = None,
               both: list[BoolArray] | None = None) -> tuple[IntArray, IntArray]:
    """Pairs (local indices, ``i < j``) of ``chunks`` (or of the unsafe ``Tiles``) that are allowed and have an arc with
    lexicographically negative reduced cost on the proven levels ``pis`` (score level
    reduced by ``shift``, see ``odd_set_score``); one set of potentials per orientation
    pattern in ``checks``, each pair checked on the arcs its pattern keeps.

    Level by level: a pair's arc is decided at the first level where its reduced cost is
    not 0, so each lower level is computed only for the pairs (and patterns) still undecided,
    and the rematch test only for the pairs found negative. ``first_level`` (if given)
    receives, per batch with a violation, the first level (in priority order) at which one of
    its pairs has a negative reduced cost (below ``slack`` on the lot level): the levels above
    the smallest of these are still proven. ``strict`` (if given) receives, per batch, which
    of its pairs fail without the slack (a negative reduced cost, not a near tie), ``both``
    which fail on both their arcs (under one pattern)."""
    checks = [(pis, o) for pis, o in checks if pis]
    none = np.zeros(0, dtype=np.int64)
    if not checks:
        return none, none
    n = len(mate)
    depth = [len(pis) for pis, _ in checks]
    top = max(depth)
    # per level: A[x] = π(M(x)) − c(x, M(x)) for the arc tail M(x) (x keeps the new pair),
    # B[y] = −π(y) for its head; an arc's reduced cost is c(x, y) + A[x] + B[y]
    a_side: list[IntArray | None] = []
    b_side: list[IntArray | None] = []
    for level in range(top):
        pa = np.zeros((len(checks), n), dtype=np.int64)
        pb = np.zeros((len(checks), n), dtype=np.int64)
        for p, (pis, _) in enumerate(checks):
            if level < len(pis):
                pa[p] = pis[level][mate] - cm[:, level]
                pb[p] = -pis[level]
        flat = not pa.any() and not pb.any()  # no potential on this level: None
        a_side.append(None if flat else pa)
        b_side.append(None if flat else pb)
    live = np.array(depth, dtype=np.int64)
    if isinstance(chunks, Tiles):
        coarse = chunks.unsafe(table, gid, a_side, b_side, live, slack)
        if not coarse.any():
            return none, none
        fine = chunks.refine(coarse, FINE_TILE)
        chunks = fine.pairs(fine.unsafe(table, gid, a_side, b_side, live, slack))
    found_i: list[IntArray] = []
    found_j: list[IntArray] = []
    step = max(1 << 15, (1 << 21) // (2 * len(checks)))  # bounds the 2P × step work arrays
    for ci, cj in chunks:
        for s in range(0, len(ci), step):
            bad_i, bad_j = _chunk_violations(table, gid, mate, ci[s:s + step], cj[s:s + step],
                                             checks, a_side, b_side, live, shift, slack,
                                             first_level, strict, both)
            if len(bad_i):
                found_i.append(bad_i)
                found_j.append(bad_j)
    if not found_i:
        return none, none
    return np.concatenate(found_i), np.concatenate(found_j)


TILE = 64  # players per side of a tile of the universe (Tiles)
FINE_TILE = 16  # ... of the sub-tiles the tiles not proven whole are cut into


@dataclass(slots=True)
class Tiles:
    """The universe as rectangles of pairs, so whole rectangles can be proven at once.

    The universe's pairs are cut into tiles of at most TILE × TILE players (``rows`` × ``cols``
    of local index ranges; a tile on the diagonal of a group keeps only i < j). For a tile, a
    lower bound of each level's cost over its pairs (in-group order, colour and seat follow
    from the players' positions and colour costs) plus the smallest potential terms of its
    rows and columns bounds every reduced cost in it; a tile whose bound is lexicographically
    non-negative (no negative level before the first positive one) holds no violation and is
    never enumerated. Only the tiles near a player's ideal partner, or holding a player whose
    own pair could still be bettered, are checked pair by pair — a few per cent of the tens of
    millions of pairs of a 10,000-player block."""

    starts: IntArray  # per block of players: first local index
    ends: IntArray  # one past the last
    rows: IntArray  # per tile: its row block
    cols: IntArray  # per tile: its column block (same group and >= row, or the next group)

    def unsafe(self, table: PairTable, gid: IntArray, a_side: list[IntArray | None],
               b_side: list[IntArray | None], live: IntArray, slack: int = 0) -> BoolArray:
        """Tiles whose bound is not provably non-negative for some pattern and arc."""
        st, en = self.starts, self.ends
        first, last = gid[st], gid[en - 1]
        lo_pos, hi_pos = table.pos[first], table.pos[last]
        grp, size = table.group[first], table.gsize[first]
        r, c = self.rows, self.cols
        same = grp[r] == grp[c]
        unsafe = np.zeros(len(r), dtype=bool)
        if table.bye >= 0:
            has = (gid[st] <= table.bye) & (table.bye <= gid[en - 1])
            unsafe |= has[r] | has[c]
        bounds: list[IntArray | None] = [None] * len(a_side)
        gap_lo = np.maximum(lo_pos[c] - hi_pos[r], 1)
        gap_hi = hi_pos[c] - lo_pos[r]
        if len(a_side) > 4:
            if table.adjacent:
                inner = np.maximum(gap_lo - 1, 0)
            else:
                half = size[r] // 2
                crosses = (hi_pos[r] < half) & (half <= lo_pos[c])
                apart = (lo_pos[r] >= half) | (hi_pos[c] < half)
                inner = np.where(crosses, 0, np.where(apart, 1, 0))
            floated = size[r] - 1 - hi_pos[r] + lo_pos[c]
            bounds[4] = np.where(same, inner, floated)
        if len(a_side) > 5 and table.colour_balance:
            cb = np.minimum.reduceat(table.colour_black[gid], st)
            cw = np.minimum.reduceat(table.colour_white[gid], st)
            bounds[5] = np.minimum(cb[r] + cw[c], cb[c] + cw[r])
        if len(a_side) > 6 and not table.adjacent:
            half = size[r] // 2
            seat = np.maximum(np.maximum(gap_lo - half, half - gap_hi), 0)
            bounds[6] = np.where(same, seat, 0)
        patterns = len(live)
        undecided = np.ones((2 * patterns, len(r)), dtype=bool)  # no positive level yet
        for level in range(len(a_side)):
            dead = live <= level
            undecided[np.concatenate([dead, dead])] = False
            pa, pb = a_side[level], b_side[level]
            lb = bounds[level]
            if pa is None or pb is None:
                if lb is None:
                    continue
                low = np.broadcast_to(lb, undecided.shape)
            else:
                kinds = (self._colour_low(table, gid, pa, pb)
                         if level == COLOUR and table.colour_balance else None)
                if kinds is not None:
                    low = kinds
                else:
                    ma = _block_min(pa, st)
                    mb = _block_min(pb, st)
                    low = np.concatenate([ma[:, r] + mb[:, c], ma[:, c] + mb[:, r]])
                    if lb is not None:
                        low = low + lb
            unsafe |= (undecided & (low < (slack if level == N_LEVELS - 1 else 0))).any(axis=0)
            undecided &= low <= 0
        return unsafe

    def _colour_low(self, table: PairTable, gid: IntArray, pa: IntArray, pb: IntArray
                    ) -> IntArray | None:
        """The colour level's bound per pattern and arc, kind by kind: a pair's colour cost
        depends only on its players' colour kinds (their pair of colour costs), so the least
        potential terms are taken per kind and combined with the exact cost of each pair of
        kinds (the plain bound pairs the smallest potential of one kind with the smallest
        colour cost of another). None with more than KIND_TILES kinds."""
        cb, cw = table.colour_black[gid], table.colour_white[gid]
        codes, kind = np.unique(cb * (int(cw.max(initial=0)) + 1) + cw, return_inverse=True)
        k = len(codes)
        if k > KIND_TILES:
            return None
        first = np.unique(kind, return_index=True)[1]
        kb, kw = cb[first], cw[first]
        cost = np.minimum(kb[:, None] + kw[None, :], kb[None, :] + kw[:, None])
        blocks = len(self.starts)
        block_of = np.repeat(np.arange(blocks), self.ends - self.starts)
        r, c = self.rows, self.cols
        out = []
        for side in (0, 1):
            for p in range(len(pa)):
                ma = np.full((blocks, k), _FAR, dtype=np.int64)
                mb = np.full((blocks, k), _FAR, dtype=np.int64)
                np.minimum.at(ma, (block_of, kind), pa[p])
                np.minimum.at(mb, (block_of, kind), pb[p])
                x, y = (ma[r], mb[c]) if side == 0 else (ma[c], mb[r])
                both = x[:, :, None] + cost[None, :, :] + y[:, None, :]
                out.append(both.reshape(len(r), -1).min(axis=1))
        return np.stack(out)

    def refine(self, which: BoolArray, size: int) -> Tiles:
        """The tiles ``which`` cut into sub-tiles of at most ``size`` players a side (every
        block is cut, so the sub-blocks still cover the universe's players in order): a bound
        over a smaller tile is tighter, so fewer pairs are left to check one by one."""
        per = -(-(self.ends - self.starts) // size)  # sub-blocks of each block
        first = np.concatenate([[0], np.cumsum(per)])
        owner = np.repeat(np.arange(len(per), dtype=np.int64), per)
        starts = self.starts[owner] + (np.arange(first[-1], dtype=np.int64) - first[owner]) * size
        ends = np.minimum(starts + size, self.ends[owner])
        rows, cols = self.rows[which], self.cols[which]
        pc = per[cols]
        count = per[rows] * pc
        tile = np.repeat(np.arange(len(rows), dtype=np.int64), count)
        k = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(np.cumsum(count) - count,
                                                                      count)
        sub_rows = first[rows][tile] + k // pc[tile]
        sub_cols = first[cols][tile] + k % pc[tile]
        keep = (rows[tile] != cols[tile]) | (sub_rows <= sub_cols)  # diagonal: i < j only
        return Tiles(starts, ends, sub_rows[keep], sub_cols[keep])

    def pairs(self, which: BoolArray) -> Iterator[tuple[IntArray, IntArray]]:
        """The pairs of the tiles ``which`` (i < j), in numpy batches of about 2^18 pairs
        (tile after tile, row by row inside a tile)."""
        rows, cols = self.rows[which], self.cols[which]
        size = self.ends - self.starts
        width = size[cols]
        count = size[rows] * width
        total = np.cumsum(count)
        cut = 0
        while cut < len(rows):
            done = int(total[cut - 1]) if cut else 0
            stop = min(int(np.searchsorted(total, done + (1 << 18))) + 1, len(rows))
            c = count[cut:stop]
            tile = np.repeat(np.arange(cut, stop, dtype=np.int64), c)
            k = np.arange(int(c.sum()), dtype=np.int64) - np.repeat(np.cumsum(c) - c, c)
            i = self.starts[rows[tile]] + k // width[tile]
            j = self.starts[cols[tile]] + k % width[tile]
            keep = (rows[tile] != cols[tile]) | (i < j)
            yield i[keep], j[keep]
            cut = stop


def _block_min(values: IntArray, starts: IntArray) -> IntArray:
    """Per row of ``values`` (patterns × nodes), the minimum over each block of nodes."""
    return np.asarray(np.minimum.reduceat(values, starts, axis=1))


def _chunk_violations(table: PairTable, gid: IntArray, mate: IntArray, i: IntArray,
                      j: IntArray, checks: list[tuple[list[IntArray], Orientation | None]],
                      a_side: list[IntArray | None], b_side: list[IntArray | None],
                      live: IntArray, shift: IntArray | None, slack: int = 0,
                      first_level: list[int] | None = None,
                      strict: list[BoolArray] | None = None,
                      both: list[BoolArray] | None = None) -> tuple[IntArray, IntArray]:
    patterns = len(checks)
    # rows 0..P-1: arc M(i) → j (i takes j); rows P..2P-1: arc M(j) → i (j takes i)
    undecided = np.ones((2 * patterns, len(i)), dtype=bool)
    # an arc is found negative at one level at most (its reduced cost is then not 0): only
    # the pairs with a negative arc are kept, per level, instead of chunk-sized bookkeeping
    found_at: list[IntArray] = []  # positions in the chunk
    found_neg: list[BoolArray] = []  # rows × those pairs: the arcs negative at this level
    found_hard: list[BoolArray] = []  # ... negative without the slack (when ``strict``)
    found_level: list[int] = []
    at = np.arange(len(i), dtype=np.int64)
    ii, jj, gi, gj = i, j, gid[i], gid[j]  # the undecided pairs (local, then table indices)
    for level in range(len(a_side)):
        dead = live <= level  # patterns whose potentials stop above this level
        if dead.any():
            undecided[np.concatenate([dead, dead])] = False
        keep = undecided.any(axis=0)
        if not keep.all():
            at, undecided = at[keep], undecided[:, keep]
            ii, jj, gi, gj = ii[keep], jj[keep], gi[keep], gj[keep]
        if not len(at):
            break
        col = table.level(level, gi, gj)
        if level == SCORE and shift is not None:
            moved = shift[jj] - shift[ii]
            col = -moved if col is None else col - moved
        pa, pb = a_side[level], b_side[level]
        if pa is None or pb is None:
            if col is None:
                continue  # 0 for every pair and pattern: nothing decided here
            red = np.broadcast_to(col, undecided.shape)
        else:
            red = np.concatenate([pa[:, ii] + pb[:, jj], pa[:, jj] + pb[:, ii]])
            if col is not None:
                red += col
        neg = undecided & (red < (slack if level == N_LEVELS - 1 else 0))
        cols = np.nonzero(neg.any(axis=0))[0]
        if len(cols):
            found_at.append(at[cols])
            found_neg.append(neg[:, cols])
            found_level.append(level)
            if strict is not None:
                found_hard.append(neg[:, cols] & (red[:, cols] < 0))
        undecided &= red == 0
    if not found_at:
        none = np.zeros(0, dtype=np.int64)
        return none, none
    pos = np.concatenate(found_at)
    bad = np.concatenate(found_neg, axis=1)
    level_of = np.repeat(np.array(found_level, dtype=np.int64), [len(a) for a in found_at])
    hard = np.concatenate(found_hard, axis=1) if strict is not None else None
    pi, pj = i[pos], j[pos]
    for p, (_, orient) in enumerate(checks):
        if orient is not None:
            keep_a, keep_b = orient.arcs_ok(mate[pi], pi, pj), orient.arcs_ok(mate[pj], pj, pi)
            bad[p] &= keep_a
            bad[patterns + p] &= keep_b
            if hard is not None:
                hard[p] &= keep_a
                hard[patterns + p] &= keep_b
    hit = bad.any(axis=0)
    hit &= table.allowed(gid[pi], gid[pj])
    if not hit.any():
        none = np.zeros(0, dtype=np.int64)
        return none, none
    if first_level is not None:
        first_level.append(int(level_of[hit].min()))
    # a pair negative at several levels (on different arcs) is one violation, in chunk order
    out, inverse = np.unique(pos[hit], return_inverse=True)
    if strict is not None and hard is not None:
        fails = np.zeros(len(out), dtype=bool)
        np.logical_or.at(fails, inverse, hard[:, hit].any(axis=0))
        strict.append(fails)
    if both is not None:
        two = np.zeros(len(out), dtype=bool)
        for p in range(patterns):
            ahead = np.zeros(len(out), dtype=bool)
            back = np.zeros(len(out), dtype=bool)
            np.logical_or.at(ahead, inverse, bad[p, hit])
            np.logical_or.at(back, inverse, bad[patterns + p, hit])
            two |= ahead & back
        both.append(two)
    return i[out], j[out]


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
