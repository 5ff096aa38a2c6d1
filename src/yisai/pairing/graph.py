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

The parts: ``layout`` (nodes, groups, solutions), ``candidates`` (the sparse graph and its
matching), ``universe`` (the pairs the certificate ranges over), ``proof`` (the proof over them)
and this module, which solves a round: block by block, segment by segment, polished and
certified.

Full certificate (certify.py): the sparse optimum is then checked against every allowed pair
of the universe, on every level, with the exchange graph's potentials; pairs that could still
improve some level are added and the matching solved again, until none is left. The result
says how many levels (in priority order) are proven optimal over all allowed pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from yisai.pairing import candidates
from yisai.pairing.assign import assign
from yisai.pairing.candidates import (
    CandidateGraph,
    Step,
    assignment_pairs,
    by_kind,
    candidate_arrays,
    colour_kinds,
    widening_steps,
)
from yisai.pairing.certify import (
    Orientation,
    exchange_arcs,
    odd_set_score,
    potentials,
    shifted,
    violations,
)
from yisai.pairing.layout import (
    BYE,
    N_LEVELS,
    SCORE_LEVEL,
    Layout,
    Node,
    Solution,
    group_ranges,
    reaches_score_bound,
)
from yisai.pairing.proof import (
    CHECK_PAIRS,
    SLACK,
    cancel_cycle,
    floats_of,
    patterned_potentials,
    prove_optimal,
    take_better,
)
from yisai.pairing.table import IntArray, PairTable
from yisai.pairing.universe import pairs_within, universe_size, universe_tiles

BLOCK_MIN = 1200  # pools above this size are solved block by block
SEGMENT_MAX = 2400  # blocks above this size are first solved in segments (10,000 players)
SEGMENT_TARGET = 1600
PROOF_MAX = 2400  # a segmented block whose proof stops short is matched whole up to this size
COMPLETE_LIMIT = 800  # above this, complete groups are tried only to find a complete pairing
CERTIFY_ROUNDS = 6  # checks of a segmented block's pairing over its whole universe
CANCELS = 16  # negative cycles of the graph applied to a segmented block's pairing
RESOLVE_MAX = 3200  # score groups matched again whole when a cycle is no real exchange
RESOLVE_PAIRS = 200_000  # ... over all their pairs (not only the graph's) up to this many
RESOLVE_WIDTH = 16  # ... over the pairs this close to the ideal partner (and the graph's)
RESOLVE_NEAR = (60,)  # places around a cycle's players first matched again
POLISH_BAND = 64  # the halves' assignment also considers every pair this close to the ideal


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
    graph = CandidateGraph(nodes, table)
    if steps is None and (quick := ideal_pairing(layout, table)) is not None:
        return quick
    largest = max((len(g) for g in layout.groups), default=0)
    steps = list(steps) if steps is not None else widening_steps(largest)
    mate = np.full(len(nodes), -1, dtype=np.int64)
    weight_levels = N_LEVELS
    k = 0
    for k, step in enumerate(steps):
        if step.width is None and len(nodes) > COMPLETE_LIMIT and k and (mate >= 0).all():
            break
        graph.add_layout(layout, candidate_arrays(layout, step.width, step.reach,
                                                  table.adjacent, colour_kinds(table)))
        if prove and not k and step.width is not None:
            graph.add_layout(layout, assignment_pairs(layout, table))
        mate, weight_levels = graph.match()
        if (mate >= 0).all():
            break
    if not (mate >= 0).all() or not prove:
        cm = graph.pair_vectors(mate)
        ok = reaches_score_bound(layout, cm, bool((mate >= 0).all()))
        return graph.solution(mate, k, 0, ok)
    return prove_optimal(layout, graph, mate, weight_levels, k)


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
    graph = CandidateGraph(block.nodes, table)
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
    graph.add_layout(block, candidate_arrays(block, candidates.DEFAULT_WIDTH, 1,
                                             table.adjacent, colour_kinds(table)))
    levels, checks, added = _certify_block(block, graph, mate)
    if levels < N_LEVELS and size <= PROOF_MAX:  # small enough to be grown and matched whole
        sol = prove_optimal(block, graph, mate, N_LEVELS, widenings)
        sol.checks += checks
        sol.added += added
        return sol
    cm = graph.pair_vectors(mate)
    return graph.solution(mate, widenings, levels, reaches_score_bound(block, cm, True), checks, added)


Solved = dict[int, tuple[tuple[IntArray, ...], tuple[IntArray, IntArray] | None]]


def _polish(block: Layout, graph: CandidateGraph, mate: IntArray,
            solved: Solved | None = None) -> None:
    """Re-solve, in every score group, the pairs of ``mate`` that cross the halves as one exact
    assignment (``assign.assign``) of those top-half players to those bottom-half players,
    over the graph's pairs between them and every pair within POLISH_BAND seats of the ideal
    partner. Everything else (floats, same-half pairs) keeps its pairs; the new pairs cost no
    more on any level (the old ones are among the candidates), and the segment cuts no longer
    bind the colour, seat and lot levels inside the halves. ``solved`` (per group: the last
    assignment problem and its answer) spares solving the very same problem again — a group
    an exchange did not touch, with no pair added since, after an exchange elsewhere."""
    if graph.table.adjacent:
        return
    inside = np.zeros(graph.n, dtype=bool)
    for (s, e), grp in zip(group_ranges(block), block.groups, strict=True):
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
        problem = (rows, cols, pi, pj)
        last = solved.get(s) if solved is not None else None
        if last is not None and all(np.array_equal(x, y) for x, y in zip(last[0], problem,
                                                                          strict=True)):
            found = last[1]  # the same problem: assign is deterministic
        else:
            cv = graph.table.vectors(graph.gid[pi], graph.gid[pj])
            found = assign(len(rows), len(cols), row_of[pi], col_of[pj], cv)
            if solved is not None:
                solved[s] = (problem, found)
        if found is None:
            continue
        a, b = rows[found[0]], cols[found[1]]
        table, gid = graph.table, graph.gid
        old = tuple(table.vectors(gid[rows], gid[mate[rows]]).sum(axis=0).tolist())
        if tuple(table.vectors(gid[a], gid[b]).sum(axis=0).tolist()) > old:
            continue  # worse on a level left out of the weight: keep the old pairs
        mate[a], mate[b] = b, a
        graph.add(a, b)  # the band's other pairs stay out: the certificate adds what it needs


def _certify_block(block: Layout, graph: CandidateGraph, mate: IntArray) -> tuple[int, int, int]:
    """Polish the joined segments' pairing and prove it over the whole block's universe
    (potentials on the block's graph, then every universe pair tile by tile, as ``prove_optimal``).

    Pairs that fail the check are added to the graph and the same pairing is checked again,
    with the potentials of the levels above the first failing one kept (the added pairs are
    tight there, so those levels' distances do not change) and only the lower levels
    computed again. When the potentials meet a negative cycle of the graph, the pairing is
    not yet the graph's optimum: the cycle is an exchange that lowers that level and keeps
    every level above, so it is applied (``cancel_cycle``; a cycle that passes a player twice is
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
    solved: Solved = {}
    _polish(block, graph, mate, solved)
    while True:
        cm = graph.pair_vectors(mate)
        if not reaches_score_bound(block, cm, True):
            return 0, checks, added
        if universe_size(block, True) > CHECK_PAIRS:
            return SCORE_LEVEL + 1, checks, added
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
            tests = patterned_potentials(floats_of(block, mate), fixed, graph.n, mate, ei, ej,
                                          cv, cm, N_LEVELS, cycle)
        found = min(len(pis) for pis, _ in tests)
        if found < N_LEVELS and cancels < CANCELS and (
                cancel_cycle(graph, mate, cycle) or _resolve(block, graph, mate, cycle)):
            cancels += 1
            keep = None
            _polish(block, graph, mate, solved)
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
            return max(proven, SCORE_LEVEL + 1), checks, added
        keep = [(pis[:proven], orient) for pis, orient in tests]


def _resolve(block: Layout, graph: CandidateGraph, mate: IntArray, cycle: list[int]) -> bool:
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
    ranges = group_ranges(block)
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


def _rematch(block: Layout, graph: CandidateGraph, mate: IntArray, members: IntArray) -> bool:
    """One exact matching of ``members`` (closed under ``mate``) over the graph's pairs among
    them and those within RESOLVE_WIDTH places of the ideal partner (``candidate_pairs``), or
    over all their pairs when those are at most RESOLVE_PAIRS; kept if it is better."""
    sub = CandidateGraph([graph.nodes[k] for k in members.tolist()], graph.table)
    where = np.full(graph.n, -1, dtype=np.int64)
    where[members] = np.arange(len(members), dtype=np.int64)
    if len(members) * (len(members) - 1) // 2 <= RESOLVE_PAIRS:  # every pair among them
        for i, j in pairs_within(0, len(members)):
            sub.add(i, j)
    else:  # the pairs near each player's ideal partner
        by_group: dict[int, list[Node]] = {}
        for k in members.tolist():
            by_group.setdefault(graph.nodes[k].group, []).append(graph.nodes[k])
        part = Layout([by_group[g] for g in sorted(by_group)])
        sub.add_layout(part, candidate_arrays(part, RESOLVE_WIDTH, 1, graph.table.adjacent,
                                              colour_kinds(graph.table)))
    ei, ej, _ = graph.arrays()
    both = (where[ei] >= 0) & (where[ej] >= 0)
    sub.add(where[ei[both]], where[ej[both]])
    sub_mate, _ = sub.match()
    if (sub_mate < 0).any():
        return False
    trial = mate.copy()
    trial[members] = members[sub_mate]
    return take_better(graph, mate, trial)


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


def complete_matching(layout: Layout, table: PairTable, settle: bool = False,
                      matched: Callable[[], object] | None = None) -> tuple[Solution, int]:
    """The reference: one maximum-weight matching over every allowed pair of the layout (no
    window, block, segment or certificate), and how many levels its weights hold (all, unless
    2^100 forced some out). ``settle``: then the tie rule among its equal optima (the proof
    over the complete graph finds nothing to add, and ``proof.settle_ties`` runs as in the
    engine), so the pairing itself can be compared. ``matched`` is called once the matching
    is done (the benchmark times the matching alone). Memory grows with n²: for checks and
    benchmarks only."""
    graph = CandidateGraph(layout.nodes, table)
    for i, j in pairs_within(0, graph.n):
        graph.add(i, j)
    mate, levels = graph.match()
    if matched is not None:
        matched()
    if settle and levels == N_LEVELS and (mate >= 0).all():
        return prove_optimal(layout, graph, mate, levels, 0), levels
    cm = graph.pair_vectors(mate)
    ok = reaches_score_bound(layout, cm, bool((mate >= 0).all()))
    return graph.solution(mate, 0, levels, ok), levels


__all__ = ["BYE", "Layout", "Node", "Solution", "complete_matching", "ideal_pairing", "solve", "solve_layout"]
