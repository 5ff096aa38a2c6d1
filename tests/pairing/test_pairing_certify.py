"""The certificate's bulk check finds exactly the pairs a plain pair-by-pair check finds.

The engine's check (``certify.violations``) decides pairs level by level and proves whole tiles
of the universe at once from bounds (``certify.Tiles``). Here it runs with arbitrary
potentials, float-direction patterns and pairings (not only the engine's, so every bound is
exercised) and is compared with a direct computation: every pair of the universe, both of its
exchange arcs, the full reduced cost vector, the first non-zero level negative.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pairing.pairing_helpers import field, random_history
from yisai.pairing import candidates as C
from yisai.pairing import proof as P
from yisai.pairing import universe as U
from yisai.pairing.certify import Orientation, odd_set_score, shifted, violations
from yisai.pairing.swiss import prepare_round
from yisai.pairing.weights import LEVELS
from yisai.regulation.rules import PairingRules

N = len(LEVELS)


def _oracle(prob, mate, cm, tests, shift, slack):
    """Pairs of the universe with an arc whose reduced cost is lexicographically negative
    (the lot level: below ``slack``), pair by pair."""
    table, layout = prob.table, prob.layout
    gid = np.array([nd.idx for nd in layout.nodes], dtype=np.int64)
    found = set()
    for i, j in U.universe(layout, True):
        cv = table.vectors(gid[i], gid[j])
        cv[:, 2] -= shift[j] - shift[i]
        allowed = table.allowed(gid[i], gid[j])
        for pis, orient in tests:
            k = len(pis)
            pi = np.stack(pis, axis=1)
            for x, y in ((i, j), (j, i)):
                red = cv[:, :k] - cm[x, :k] + pi[mate[x]] - pi[y]
                if k == N:
                    red[:, N - 1] -= slack
                nz = red != 0
                first = nz.argmax(axis=1)
                neg = nz.any(axis=1) & (red[np.arange(len(red)), first] < 0)
                if orient is not None:
                    neg &= orient.arcs_ok(mate[x], x, y)
                neg &= allowed
                found |= {(int(a), int(b)) for a, b in zip(i[neg], j[neg], strict=True)}
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 100_000), st.sampled_from(["split", "adjacent"]), st.booleans(),
       st.booleans())
def test_tiles_and_levels_find_exactly_the_pair_by_pair_violations(seed, in_group, colour,
                                                                   engine):
    rnd = random.Random(seed)
    n = rnd.randint(30, 330)
    players = field(n)
    games = random_history([p.id for p in players], rnd.randint(1, 5), rnd)
    round_no = max((gm.round for gm in games), default=0) + 1
    rules = PairingRules(in_group=in_group, colour_balance=colour)
    prob = prepare_round(players, games, round_no, rules=rules, seed=seed)
    layout, table = prob.layout, prob.table
    size = len(layout.nodes)
    shift = odd_set_score([len(g) for g in layout.groups], [g[0].score for g in layout.groups])
    graph = C.CandidateGraph(layout.nodes, table)
    tests: list[tuple[list[np.ndarray], Orientation | None]] = []
    if engine:  # the sparse graph's optimum and its real potentials: most tiles are pruned
        graph.add_nodes(C.candidate_pairs(layout, 2, 1, table.adjacent, C.colour_kinds(table)))
        mate, _ = graph.match()
        if (mate < 0).any():
            return
        ei, ej, cv = graph.arrays()
        own = np.arange(size, dtype=np.int64)
        cm = shifted(graph.pair_vectors(mate), np.minimum(own, mate), np.maximum(own, mate),
                       shift)
        cv = shifted(cv, ei, ej, shift)
        tests = P.patterned_potentials(P.floats_of(layout, mate), [], size, mate, ei, ej, cv, cm,
                                        N)
    else:  # any perfect pairing, arbitrary potentials
        order = list(range(size))
        rnd.shuffle(order)
        mate = np.full(size, -1, dtype=np.int64)
        for a, b in zip(order[0::2], order[1::2], strict=True):
            mate[a], mate[b] = b, a
        cm = graph.pair_vectors(mate)
    floats = P.floats_of(layout, mate)
    for _ in range(0 if engine else rnd.randint(1, 3)):
        depth = rnd.randint(1, N)
        spread = rnd.choice([0, 1, 3, 20])
        pis = [np.zeros(size, dtype=np.int64) if rnd.random() < 0.3 else
               np.array([rnd.randint(-spread, 0) for _ in range(size)], dtype=np.int64)
               for _ in range(depth)]
        bounds = [k for k in range(floats.boundaries) if rnd.random() < 0.5]
        orient = floats.pattern(bounds, rnd.randrange(1 << max(len(bounds) - 1, 0))) \
            if bounds else None
        tests.append((pis, orient))
    slack = rnd.choice([0, 0, 3])
    gid = graph.gid
    expected = _oracle(prob, mate, cm, tests, shift, slack)
    for chunks in (U.universe(layout, True), U.universe_tiles(layout),
                   U.universe_tiles(layout, 3), U.universe_tiles(layout, 8)):
        vi, vj = violations(table, gid, mate, cm, tests, chunks, shift, slack)
        assert set(zip(vi.tolist(), vj.tolist(), strict=True)) == expected
