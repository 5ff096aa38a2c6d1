"""The proof of optimality of a sparse matching over its whole universe, level by level, with the
exchange graph's potentials (``yisai.pairing.certify``): the float paths across score boundaries,
the potentials of each float pattern, and ``prove_optimal``, which adds the pairs that could
still improve some level and matches again until none is left."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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
from yisai.pairing.table import IntArray
from yisai.pairing.universe import band, universe, universe_size, universe_tiles

FALLBACK_PAIRS = 1_500_000  # universe small enough to be matched whole if the proof stalls
CHECK_PAIRS = 60_000_000  # universe small enough to be checked (tile by tile, then pair by pair)
MAX_PATTERN_BOUNDARIES = 5  # up to 2^4 float-direction patterns are checked
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
    improve a level and solve again until none is left (see certify.py). A universe above
    CHECK_PAIRS is only checked near the sparse graph (``band``): improvements found there are
    still taken, but only the score certificate is claimed."""
    checks = added = 0
    shift = odd_set_score([len(g) for g in layout.groups], [g[0].score for g in layout.groups])
    fixed: list[int] = []  # boundaries whose float direction the patterns fix (grows)
    while True:
        cm = graph.pair_vectors(mate)
        ok = reaches_score_bound(layout, cm, True)
        full = universe_size(layout, ok) <= CHECK_PAIRS
        ei, ej, cv = graph.arrays()
        if ok:  # levels above the score's are proven by the bound; below, reduced score cost
            own = np.arange(graph.n, dtype=np.int64)
            cm = shifted(cm, np.minimum(own, mate), np.maximum(own, mate), shift)
            cv = shifted(cv, ei, ej, shift)
            tests = patterned_potentials(floats_of(layout, mate), fixed, graph.n, mate, ei, ej,
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
        return graph.solution(mate, widenings, levels, ok, checks, added)


__all__ = ["CHECK_PAIRS", "FALLBACK_PAIRS", "MAX_PATTERN_BOUNDARIES", "SLACK", "Floats", "floats_of", "patterned_potentials", "prove_optimal"]
