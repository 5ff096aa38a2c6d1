"""Property tests on random tournaments (hypothesis), against brute-force oracles.

* exhaustive oracle: every perfect pairing of a small field is enumerated and the engine must
  reach the lexicographically smallest per-level cost totals (strict priorities, and the sparse
  graph gives the complete-graph optimum);
* independent oracle: rematch-free pairings with the bye rules and Σ(score difference)²,
  computed from the games alone;
* medium fields: the sparse, widened graph gives the same optimum as the complete graph.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.pairing.pairing_helpers import (
    field,
    perfect_matchings,
    random_history,
    scores_from_games,
)
from yisai.pairing import Controls, PairingError, pair_round
from yisai.pairing import candidates as C
from yisai.pairing import graph as G
from yisai.pairing.swiss import prepare_round
from yisai.pairing.weights import LEVELS, lexicographic_totals
from yisai.regulation.rules import PairingRules

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tournaments(draw, lo: int = 3, hi: int = 9):
    seed = draw(st.integers(0, 10_000))
    rnd = random.Random(seed)  # sizes drawn uniformly (hypothesis alone favours tiny fields)
    n = rnd.randint(lo, hi)
    rounds = rnd.randint(1, max(1, n - 2))
    players = field(n, teams=draw(st.sampled_from([0, 2, 3])))
    ids = [p.id for p in players]
    games = random_history(ids, rounds, rnd)
    played_rounds = max((gm.round for gm in games), default=0)
    absent = tuple(x for x in ids if rnd.random() < 0.1)
    forbidden = ()
    if draw(st.booleans()) and n >= 4:
        a, b = rnd.sample(ids, 2)
        forbidden = ((a, b),)
    rules = PairingRules(
        in_group=draw(st.sampled_from(["split", "adjacent"])),
        avoid_same=draw(st.sampled_from([None, "team"])),
        avoid_rounds=draw(st.integers(0, 6)),
        colour_balance=draw(st.booleans()),
    )
    return players, games, played_rounds + 1, absent, Controls(forbidden_pairs=forbidden), rules, seed


def _pair_cost(prob, u, v, rules, seed, controls):
    """The eight levels of pair ``u``–``v`` (``u`` placed above), restated one pair at a time
    from docs/pairing.md: forbidden, second bye, (score difference)², same team, order in the
    group (split: 0 when one is in the top half and the other in the bottom; adjacent: players
    between them; across groups: distance to the groups' boundary), colours (the better
    orientation), seat (distance from the exact partner n/2 down), lot."""
    from yisai.lot import lot, mix_lots
    from yisai.pairing.colours import colour_costs
    from yisai.pairing.weights import LOT_RANGE

    rnd = prob.round_no
    if v.pid == G.BYE:
        return [0, 1 if prob.hist[u.pid].byes else 0, (u.score - v.score) ** 2, 0,
                u.gsize - 1 - u.pos, 0, 0, lot(seed, rnd, "bye", u.pid, modulo=LOT_RANGE)]
    forbidden = {frozenset(p) for p in controls.forbidden_pairs}
    team = 0
    if prob.avoid_key is not None:
        ta = prob.by_id[u.pid].affiliation(prob.avoid_key)
        team = 1 if ta is not None and ta == prob.by_id[v.pid].affiliation(prob.avoid_key) else 0
    if u.group == v.group:
        gap, half = v.pos - u.pos, u.gsize // 2
        order, seat = (gap - 1, 0) if prob.adjacent else (0 if u.pos < half <= v.pos else 1, abs(gap - half))
    else:
        order, seat = (u.gsize - 1 - u.pos) + v.pos, 0
    cu, cv = colour_costs(prob.hist[u.pid]), colour_costs(prob.hist[v.pid])
    colours = min(cu[0] + cv[1], cv[0] + cu[1]) if rules.colour_balance else 0
    return [1 if frozenset((u.pid, v.pid)) in forbidden else 0, 0, (u.score - v.score) ** 2, team,
            order, colours, seat, mix_lots(lot(seed, rnd, u.pid), lot(seed, rnd, v.pid), LOT_RANGE)]


def _engine_totals(rp, prob):
    nodes = {n.pid: n for n in prob.layout.nodes}
    vecs = []
    for b in rp.boards:
        u, v = sorted((nodes[b.black], nodes[b.white]), key=lambda n: (n.group, n.pos))
        vecs.append(prob.cost(u, v))
    for y in rp.byes:
        if not y.requested and y.player in nodes and G.BYE in nodes:
            vecs.append(prob.cost(nodes[y.player], nodes[G.BYE]))
    return lexicographic_totals(vecs)


def _exhaustive(prob):
    nodes = prob.layout.nodes
    order = {n.pid: k for k, n in enumerate(nodes)}
    by = {n.pid: n for n in nodes}
    best = None
    for m in perfect_matchings([n.pid for n in nodes]):
        vecs = []
        for a, b in m:
            u, v = sorted((by[a], by[b]), key=lambda n: order[n.pid])
            if not prob.allowed(u, v):
                break
            vecs.append(prob.cost(u, v))
        else:
            t = lexicographic_totals(vecs)
            best = t if best is None or t < best else best
    return best


@SETTINGS
@given(tournaments())
def test_engine_reaches_the_exhaustive_lexicographic_optimum(case):
    players, games, rnd_no, absent, controls, rules, seed = case
    kw = dict(rules=rules, seed=seed, absent=absent, controls=controls)
    prob = prepare_round(players, games, rnd_no, **kw)
    best = _exhaustive(prob)
    event(f"unpairable={best is None}, players={len(prob.pool)}, round={rnd_no}")
    if best is None:
        with pytest.raises(PairingError):
            pair_round(players, games, rnd_no, **kw)
        return
    rp = pair_round(players, games, rnd_no, **kw)
    assert _engine_totals(rp, prob) == best


@SETTINGS
@given(tournaments(lo=3, hi=10))
def test_no_rematch_bye_rules_and_score_groups_against_an_independent_oracle(case):
    players, games, rnd_no, absent, _controls, _rules, seed = case
    ids = [p.id for p in players if p.id not in absent]
    met = {frozenset((gm.black, gm.white)) for gm in games if gm.white is not None}
    had_bye = {gm.black for gm in games if gm.white is None}
    score = scores_from_games([p.id for p in players], games)
    low = min((score[p] for p in ids), default=0) - 2
    best = None
    items = ids + (["BYE"] if len(ids) % 2 else [])
    for m in perfect_matchings(items):
        if any(frozenset(p) in met for p in m):
            continue
        second = sum(1 for a, b in m if "BYE" in (a, b) and ({a, b} - {"BYE"}) <= had_bye)
        cost = sum((score[a] - (low if b == "BYE" else score[b])) ** 2 if a != "BYE"
                   else (score[b] - low) ** 2 for a, b in m)
        key = (second, cost)
        best = key if best is None or key < best else best
    if best is None:
        with pytest.raises(PairingError):
            pair_round(players, games, rnd_no, seed=seed, absent=absent)
        return
    rp = pair_round(players, games, rnd_no, seed=seed, absent=absent)
    assert all(frozenset((b.black, b.white)) not in met for b in rp.boards)  # never a rematch
    assert len(rp.byes) == len(ids) % 2  # at most one bye, only when odd
    second = sum(1 for y in rp.byes if y.player in had_bye)
    cost = sum((score[b.black] - score[b.white]) ** 2 for b in rp.boards)
    cost += sum((score[y.player] - low) ** 2 for y in rp.byes)
    assert (second, cost) == best
    paired = [p for b in rp.boards for p in (b.black, b.white)] + [y.player for y in rp.byes]
    assert sorted(paired) == sorted(ids)


def _colour_key(colours: list[str], colour: str) -> tuple[int, int, int]:
    seq = [*colours, colour]
    # excess over |B-W| = 1; the engine counts it up to 12 per player (docs/pairing.md)
    imbalance = min(max(abs(seq.count("B") - seq.count("W")) - 1, 0), 12)
    three = int(len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3])
    repeat = int(len(seq) >= 2 and seq[-1] == seq[-2])
    return imbalance, three, repeat


@SETTINGS
@given(tournaments(lo=4, hi=14))
def test_each_pair_gets_its_better_colour_orientation(case):
    players, games, rnd_no, absent, _controls, _rules, seed = case
    try:
        rp = pair_round(players, games, rnd_no, seed=seed, absent=absent)
    except PairingError:
        return
    colours: dict[str, list[str]] = {p.id: [] for p in players}
    for gm in sorted(games, key=lambda x: x.round):
        if gm.white is not None:
            colours[gm.black].append("B")
            colours[gm.white].append("W")

    def cost(black: str, white: str) -> tuple[int, int, int]:
        a, b = _colour_key(colours[black], "B"), _colour_key(colours[white], "W")
        return tuple(x + y for x, y in zip(a, b, strict=True))

    for b in rp.boards:
        assert cost(b.black, b.white) <= cost(b.white, b.black)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(["split", "adjacent"]))
def test_sparse_graph_gives_the_complete_graph_optimum(seed, in_group):
    rnd = random.Random(seed)
    n, rounds = rnd.randint(10, 48), rnd.randint(1, 7)
    players = field(n)
    games = random_history([p.id for p in players], min(rounds, n - 3), rnd)
    rnd_no = max((gm.round for gm in games), default=0) + 1
    prob = prepare_round(players, games, rnd_no, seed=seed,
                         rules=PairingRules(in_group=in_group))
    sparse = G.solve(prob.layout, prob.table)
    full = G.solve_layout(prob.layout, prob.table, steps=[G.Step(None, None)], prove=False)
    assert not full.unmatched and not sparse.unmatched
    assert lexicographic_totals(sparse.vectors) == lexicographic_totals(full.vectors)
    assert sparse.levels == len(LEVELS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_windows_blocks_and_segments_still_reach_the_optimum_on_every_level(seed):
    """With tiny windows, blocks and segments forced on a medium field, the certificate grows
    the graph until the pairing equals the complete graph's optimum on every level."""
    rnd = random.Random(seed)
    n, rounds = rnd.randint(60, 140), rnd.randint(1, 6)
    players = field(n)
    games = random_history([p.id for p in players], rounds, rnd)
    rnd_no = max((gm.round for gm in games), default=0) + 1
    prob = prepare_round(players, games, rnd_no, seed=seed)
    full = G.solve_layout(prob.layout, prob.table, steps=[G.Step(None, None)], prove=False)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(C, "SMALL_GROUP", 6)
        mp.setattr(C, "DEFAULT_WIDTH", 2)
        mp.setattr(G, "BLOCK_MIN", 20)
        mp.setattr(G, "SEGMENT_MAX", 30)
        mp.setattr(G, "SEGMENT_TARGET", 16)
        mp.setattr(G, "COMPLETE_LIMIT", 10)
        mp.setattr(G, "PROOF_MAX", 1000)
        sparse = G.solve(prob.layout, prob.table)
    finally:
        mp.undo()
    assert not sparse.unmatched
    assert all(prob.allowed(u, v) for u, v in sparse.pairs)  # never a rematch
    ids = {n.pid for n in prob.layout.nodes}
    assert sorted(x.pid for p in sparse.pairs for x in p) == sorted(ids)
    assert sparse.levels == len(LEVELS)
    assert lexicographic_totals(sparse.vectors) == lexicographic_totals(full.vectors)


@SETTINGS
@given(tournaments(lo=3, hi=24))
def test_vectorised_costs_equal_the_engines_pair_costs(case):
    """PairTable (numpy, used for the matching and the proof) agrees with the cost restated
    pair by pair from the rules (``_pair_cost``) on every pair and every level, and on which
    pairs are rematches."""
    import numpy as np

    players, games, rnd_no, absent, controls, rules, seed = case
    prob = prepare_round(players, games, rnd_no, rules=rules, seed=seed, absent=absent,
                         controls=controls)
    nodes = prob.layout.nodes
    for a in range(len(nodes)):
        for b in range(a + 1, len(nodes)):
            u, v = nodes[a], nodes[b]
            i, j = np.array([u.idx]), np.array([v.idx])
            assert bool(prob.table.allowed(i, j)[0]) == prob.allowed(u, v)
            assert prob.table.vectors(i, j)[0].tolist() == _pair_cost(prob, u, v, rules, seed, controls)
