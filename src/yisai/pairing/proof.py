"""The proof of optimality of a sparse matching over its whole universe, level by level, with the
exchange graph's potentials (``yisai.pairing.certify``): the float paths across score boundaries,
the potentials of each float pattern, ``prove_optimal``, which adds the pairs that could still
improve some level and brings the pairing to the grown graph's optimum until none is left, and
``settle_ties``, the tie rule among equal optima (docs/pairing.md, "并列最优")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import rustworkx as rx
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from yisai.pairing.candidates import CandidateGraph
from yisai.pairing.certify import (
    Orientation,
    exchange_arcs,
    odd_set_score,
    potentials,
    shifted,
    violations,
)
from yisai.pairing.layout import (
    N_LEVELS,
    SCORE_LEVEL,
    Layout,
    Solution,
    group_ranges,
    reaches_score_bound,
)
from yisai.pairing.table import BoolArray, IntArray
from yisai.pairing.universe import band, universe, universe_size, universe_tiles
from yisai.pairing.weights import TIE_BITS, WEIGHT_LIMIT, make_radix

FALLBACK_PAIRS = 1_500_000  # universe small enough to be matched whole if the proof stalls
CHECK_PAIRS = 60_000_000  # universe small enough to be checked (tile by tile, then pair by pair)
MAX_PATTERN_BOUNDARIES = 5  # up to 2^4 float-direction patterns are checked
PRUNE_ROUNDS = 64  # settle_ties: rounds that take out the players who keep their pairs
CANCELS = 8  # negative cycles applied as exchanges before the pairing is matched again
KEEP_CHECKS = 3  # checks in a row that keep the pairing and only add the failing pairs
LOCAL_REACH = 8  # local re-match: places around each player of a failing pair (and partner)
LOCAL_SHARE = 0.5  # ... tried only when it holds at most this share of the block
SLACK = 3  # first check: also add pairs whose lot-level reduced cost is below this (ties, near ties)


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


def floats_of(layout: Layout, mate: IntArray) -> Floats:
    ranges = group_ranges(layout)
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


def patterned_potentials(floats: Floats, fixed: list[int], n: int, mate: IntArray,
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


def prove_optimal(layout: Layout, graph: CandidateGraph, mate: IntArray, weight_levels: int,
           widenings: int) -> Solution:
    """Check the complete matching ``mate`` against the universe; add the pairs that could
    improve a level and check the same pairing again on the grown graph (it is usually still
    the optimum: the check only lacked potentials); a negative cycle of the grown graph is
    applied as an exchange, else the players near the failing pairs or the whole graph are
    matched again (see certify.py). A proven block's equal optima are then settled by the tie
    rule (``settle_ties``), so the path taken does not show in the result. A universe above
    CHECK_PAIRS is only checked near the sparse graph (``band``): improvements found there are
    still taken, but only the score certificate is claimed."""
    checks = added = 0
    shift = odd_set_score([len(g) for g in layout.groups], [g[0].score for g in layout.groups])
    fixed: list[int] = []  # boundaries whose float direction the patterns fix (grows)
    # after a failing check: "kept" (the failing pairs added, the pairing kept: it may still
    # be the grown graph's optimum, the check only needed better potentials), "local" (the
    # players near them matched again); None: mate is a matching of the whole graph
    state: str | None = None
    kept = 0  # checks in a row that kept the pairing
    failing = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    cancels = 0
    keep: list[tuple[list[IntArray], Orientation | None]] | None = None
    carried: tuple[Floats, list[tuple[list[IntArray], Orientation | None]]] | None = None
    while True:
        cycle: list[int] = []
        cm = graph.pair_vectors(mate)
        ok = reaches_score_bound(layout, cm, True)
        full = universe_size(layout, ok) <= CHECK_PAIRS
        ei, ej, cv = graph.arrays()
        if ok:  # levels above the score's are proven by the bound; below, reduced score cost
            own = np.arange(graph.n, dtype=np.int64)
            cm = shifted(cm, np.minimum(own, mate), np.maximum(own, mate), shift)
            cv = shifted(cv, ei, ej, shift)
            floats = floats_of(layout, mate)
            if keep is None and carried is not None:  # an exchange was applied: its levels above
                keep = still_valid(mate, ei, ej, cv, cm, floats, *carried)  # may still hold
            carried = None
            if keep is not None:  # same pairing, more pairs: keep the levels they cannot change
                arcs = exchange_arcs(mate, ei, ej, cv, cm)
                tests = [(potentials(graph.n, mate, ei, ej, cv, cm, orient,
                                     cycle if not cycle else None, known=pis,
                                     arcs=arcs)[:weight_levels], orient)
                         for pis, orient in keep]
            else:
                tests = patterned_potentials(floats, fixed, graph.n, mate, ei, ej, cv, cm,
                                              weight_levels, cycle)
        else:
            tests = [(potentials(graph.n, mate, ei, ej, cv, cm)[:weight_levels], None)]
        keep = None
        if state is not None and min(len(pis) for pis, _ in tests) < weight_levels:
            # a negative cycle: the pairing is not the grown graph's optimum; apply it if it
            # is a real exchange, else match the players near the failing pairs, else all
            if state == "kept" and cancels < CANCELS and cancel_cycle(graph, mate, cycle):
                cancels += 1
                if ok:
                    found = min(len(pis) for pis, _ in tests)
                    carried = (floats, [(pis[:found], orient) for pis, orient in tests])
                continue
            if state == "kept" and local_rematch(layout, graph, mate, *failing):
                state = "local"
                continue
            state = None
            mate, weight_levels = graph.match()
            continue
        checks += 1
        chunks = ((universe_tiles(layout) if ok else universe(layout, ok)) if full
                  else band(layout, graph.table.adjacent))
        strict: list[BoolArray] = []  # a slack of 1 also returns the tight pairs (ties)
        first: list[int] = []
        two: list[BoolArray] = []
        vi, vj = violations(graph.table, graph.gid, mate, cm, tests, chunks,
                            shift if ok else None, SLACK if checks == 1 else 1, first, strict,
                            two)
        hard = np.concatenate(strict) if strict else np.zeros(0, dtype=bool)
        settles = full and ok and weight_levels == N_LEVELS  # the tie rule will decide ties
        if hard.any() or (checks == 1 and len(vi) and not settles):
            # the near ties of the first check save re-solves; later ties are left to the rule
            new = graph.add(vi, vj) if checks == 1 else graph.add(vi[hard], vj[hard])
            added += new
            if new and settles and kept < KEEP_CHECKS:
                state, kept, failing = "kept", kept + 1, (vi[hard], vj[hard])
                # the added pairs' arcs are tight above the first level where one of them
                # fails: the potentials of those levels stay valid
                keep = [(pis[:min(first)], orient) for pis, orient in tests] if first else None
                continue
            if new or state is not None:
                state = None
                mate, weight_levels = graph.match()
                continue
        tight = (vi[~hard], vj[~hard])
        if all(orient is None for _, orient in tests):
            # every arc kept: another optimum's new pairs have both arcs tight (below)
            both = np.concatenate(two)[~hard] if two else np.zeros(0, dtype=bool)
            tight = (tight[0][both], tight[1][both])
        if not hard.any():
            vi = vj = np.zeros(0, dtype=np.int64)
        # (a failing pair already in the graph would contradict its potentials: claim no
        # level below the score's then, rather than loop)
        found = min(len(pis) for pis, _ in tests) if not len(vi) else 0
        proven = max(found, SCORE_LEVEL + 1) if ok else found
        levels = proven if full else (SCORE_LEVEL + 1 if ok else 0)
        if full and levels < N_LEVELS and weight_levels == N_LEVELS:
            size = universe_size(layout, ok)
            if size + graph.edges <= FALLBACK_PAIRS:  # match the whole universe instead
                for i, j in universe(layout, ok):
                    added += graph.add(i, j)
                mate, weight_levels = graph.match()
                cm = graph.pair_vectors(mate)
                ok = reaches_score_bound(layout, cm, True)
                if universe_size(layout, ok) <= size:
                    return graph.solution(mate, widenings, weight_levels, ok, checks, added)
                continue
        if levels == N_LEVELS and full and ok:
            mate = settle_ties(graph, mate, *tight)
        return graph.solution(mate, widenings, levels, ok, checks, added)


def still_valid(mate: IntArray, ei: IntArray, ej: IntArray, cv: IntArray, cm: IntArray,
                now: Floats, floats: Floats,
                tests: list[tuple[list[IntArray], Orientation | None]]
                ) -> list[tuple[list[IntArray], Orientation | None]] | None:
    """After an exchange of reduced cost 0 on the levels above the one whose negative cycle
    it cancels, the potentials of those levels often still hold for the new pairing: they
    are kept (``tests``, per pattern) when the floats are the same (the patterns' arcs follow
    them) and every arc of the new pairing's exchange graph has a lexicographically
    non-negative reduced cost on them; else None (computed afresh). Any valid potentials
    prove the same; the tie rule then takes the same pairing whichever were used. ``now``:
    the floats of ``mate``, ``floats`` those the potentials were found for."""
    if not (np.array_equal(now.side, floats.side) and np.array_equal(now.bound, floats.bound)):
        return None
    arcs = exchange_arcs(mate, ei, ej, cv, cm)
    for pis, orient in tests:
        tails, heads = arcs.tails, arcs.heads
        at = np.arange(len(tails), dtype=np.int64)
        if orient is not None:
            at = np.nonzero(orient.arcs_ok(tails, arcs.xs, heads))[0]
        for level, pi in enumerate(pis):
            red = arcs.cols[level][at] + pi[tails[at]] - pi[heads[at]]
            if (red < 0).any():
                return None
            at = at[red == 0]
    return tests


def take_better(graph: CandidateGraph, mate: IntArray, trial: IntArray) -> bool:
    """Replace ``mate`` by ``trial`` if its cost vector is lexicographically lower."""
    before = graph.pair_vectors(mate).sum(axis=0)
    after = graph.pair_vectors(trial).sum(axis=0)
    if tuple(after.tolist()) >= tuple(before.tolist()):
        return False
    mate[:] = trial
    return True


def cancel_cycle(graph: CandidateGraph, mate: IntArray, cycle: list[int]) -> bool:
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
    return take_better(graph, mate, trial)


def local_rematch(layout: Layout, graph: CandidateGraph, mate: IntArray, vi: IntArray,
                  vj: IntArray) -> bool:
    """After a check has added the pairs ``vi``–``vj`` that could improve the pairing, match
    again only the players near them (LOCAL_REACH places in their score group around each of
    them and of their partners, closed under ``mate``) over the graph's pairs among them,
    instead of the whole graph: one exact matching of a few hundred players instead of two
    thousand. The next check proves the result or, if it is not yet the graph's optimum, the
    whole graph is matched again; the tie rule (``settle_ties``) then picks the same pairing
    whichever optimum this path reached. Returns whether the pairing improved."""
    n = graph.n
    if not len(vi):
        return False
    core = np.unique(np.concatenate([vi, vj]))
    core = np.unique(np.concatenate([core, mate[core]]))
    start = np.zeros(n, dtype=np.int64)
    end = np.zeros(n, dtype=np.int64)
    for s, e in group_ranges(layout):
        start[s:e], end[s:e] = s, e
    mark = np.zeros(n + 1, dtype=np.int64)
    np.add.at(mark, np.maximum(core - LOCAL_REACH, start[core]), 1)
    np.add.at(mark, np.minimum(core + LOCAL_REACH + 1, end[core]), -1)
    inside = np.cumsum(mark)[:n] > 0
    inside |= inside[mate]
    members = np.nonzero(inside)[0]
    if len(members) > LOCAL_SHARE * n or len(members) < 4:
        return False
    sub = CandidateGraph([graph.nodes[k] for k in members.tolist()], graph.table)
    where = np.full(n, -1, dtype=np.int64)
    where[members] = np.arange(len(members), dtype=np.int64)
    ei, ej, _ = graph.arrays()
    both = inside[ei] & inside[ej]
    sub.add(where[ei[both]], where[ej[both]])
    sub_mate, levels = sub.match()
    if levels < N_LEVELS or (sub_mate < 0).any():
        return False
    trial = mate.copy()
    trial[members] = members[sub_mate]
    before = tuple(graph.pair_vectors(mate).sum(axis=0).tolist())
    if tuple(graph.pair_vectors(trial).sum(axis=0).tolist()) >= before:
        return False
    mate[:] = trial
    return True


def settle_ties(graph: CandidateGraph, mate: IntArray, ti: IntArray, tj: IntArray) -> IntArray:
    """The tie rule: among the pairings equal to ``mate`` on all eight levels (proven optimal
    over the universe), the one with the least sum of the pairs' tie values
    (``PairTable.tie``, seeded): practically unique, so the pairing no longer depends on
    which optimum a matcher happens to return, and any exact method may find the optimum.

    Another optimum differs from ``mate`` by alternating cycles of cost 0, and a cycle of cost
    0 uses only arcs of reduced cost 0 on every level (they are all ≥ 0 and sum to 0) under
    the potentials of a pattern that keeps it. ``ti``–``tj`` are the universe's pairs with
    such an arc (the last check's ``violations`` with a slack of one on the lot level, or
    more: a superset does no harm); they and ``mate``'s pairs hold every optimum. When the
    potentials keep every arc (no float pattern), only the pairs with both arcs tight are
    needed: summed over the players of another pairing, the reduced costs of the arcs to
    their new partners are twice its cost difference (the potentials cancel), all ≥ 0, so
    for another optimum each of them is 0. Players
    left with their own pair only are settled, and the rest is matched once, on all eight
    levels then the tie."""
    if not len(ti):
        return mate
    n = graph.n
    other = mate[ti] != tj  # the pairing's own pairs are in H anyway
    ti, tj = ti[other], tj[other]
    alive = np.ones(n, dtype=bool)
    for _ in range(PRUNE_ROUNDS):  # a player whose only pair is his own keeps it (and so
        live = alive[ti] & alive[tj]  # does his partner); rounds in numpy, as many as needed
        degree = (np.bincount(ti[live], minlength=n) + np.bincount(tj[live], minlength=n))
        settled = alive & (degree == 0)
        if not settled.any():
            break
        alive &= ~(settled | settled[mate])
    core = np.nonzero(alive)[0]
    if not len(core):
        return mate
    where = np.full(n, -1, dtype=np.int64)
    where[core] = np.arange(len(core), dtype=np.int64)
    keep = alive[ti] & alive[tj]
    ei = np.concatenate([ti[keep], core])
    ej = np.concatenate([tj[keep], mate[core]])
    lo, hi = np.minimum(ei, ej), np.maximum(ei, ej)
    code = np.unique(lo * n + hi)
    lo, hi = code // n, code % n
    table, gid = graph.table, graph.gid
    cv = table.vectors(gid[lo], gid[hi])
    pairs = len(core) // 2
    radix = make_radix(cv, pairs, np.stack([where[lo], where[hi]], axis=1))
    scale = 1 << (TIE_BITS + pairs.bit_length())  # > any matching's sum of ties
    if radix.levels < N_LEVELS or radix.big * scale >= WEIGHT_LIMIT:
        return mate  # no room for the tie below the eight levels: keep the proven optimum
    ties = table.tie(gid[lo], gid[hi]).tolist()
    weights = [w * scale + (1 << TIE_BITS) - 1 - t
               for w, t in zip(radix.weights(cv), ties, strict=True)]
    trial = mate.copy()
    chosen = 0
    for a, b in _component_matchings(where[lo], where[hi], len(core), weights):
        trial[core[a]], trial[core[b]] = core[b], core[a]
        chosen += 1
    before = graph.pair_vectors(mate).sum(axis=0)
    if chosen != pairs or (graph.pair_vectors(trial).sum(axis=0) != before).any():
        return mate  # cannot happen (mate is among the candidates); keep the proven optimum
    return trial


def _component_matchings(a: IntArray, b: IntArray, n: int, weights: list[int]
                         ) -> list[tuple[int, int]]:
    """The maximum-weight perfect matching of the graph ``a``–``b`` (edge k weighs
    ``weights[k]``; ``mate``'s pairs among the edges), one connected component at a time: no
    edge joins two components, so their matchings are independent, and the blossom method
    costs far more than linear in the players (a 1,546-player core of six components is
    matched in its parts)."""
    count, label = connected_components(
        csr_matrix((np.ones(len(a)), (a, b)), shape=(n, n)), directed=False)
    edge_label = label[a]
    order = np.argsort(edge_label, kind="stable")  # each component's edges in their order
    cuts = np.searchsorted(edge_label[order], np.arange(count + 1))
    out: list[tuple[int, int]] = []
    for c in range(count):
        edges = order[cuts[c]:cuts[c + 1]]
        if len(edges) == 1:  # a pair alone
            out.append((int(a[edges[0]]), int(b[edges[0]])))
            continue
        nodes = np.unique(np.concatenate([a[edges], b[edges]]))
        local = np.full(n, -1, dtype=np.int64)
        local[nodes] = np.arange(len(nodes), dtype=np.int64)
        sub: rx.PyGraph[None, int] = rx.PyGraph(multigraph=False)
        sub.add_nodes_from([None] * len(nodes))
        sub.add_edges_from(list(zip(local[a[edges]].tolist(), local[b[edges]].tolist(),
                                    edges.tolist(), strict=True)))
        chosen = rx.max_weight_matching(sub, max_cardinality=True,
                                        weight_fn=weights.__getitem__)
        out += [(int(nodes[x]), int(nodes[y])) for x, y in chosen]
    return out


__all__ = ["CHECK_PAIRS", "FALLBACK_PAIRS", "MAX_PATTERN_BOUNDARIES", "SLACK", "Floats", "cancel_cycle", "floats_of", "local_rematch", "patterned_potentials", "prove_optimal", "settle_ties", "still_valid", "take_better"]
