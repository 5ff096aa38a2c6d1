"""Every pair's OpenGotha cost at once, as one integer vector over the pairs (the matching's
input).

The same formulas as ``RoundState.cost``, evaluated on numpy arrays so that a round of a few
hundred players costs its n²/2 pairs in milliseconds instead of one Python call per pair; each
per-player value is read for the pairs' first and second players (``x[a]``, ``x[b]``), so the
work is one pass over the n(n−1)/2 pairs.
Java's arithmetic is kept: 64-bit integers, divisions truncated towards zero, and the
``w·(1−x)·(1+k·x)`` curves in doubles, left to right, truncated. ``RoundState.cost`` stays the
reference (it itemises the components for ``--explain``); a test checks the two agree on every
pair of the fixtures and real files.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from yisai.pairing.opengotha.costs import RoundState, og_club, utf16_units

I64 = npt.NDArray[np.int64]
Idx = npt.NDArray[np.intp]
F64 = npt.NDArray[np.float64]


def _jdiv(a: I64, b: I64 | int) -> I64:
    """Java's long division by a positive divisor (truncates towards zero)."""
    return np.where(a >= 0, a // b, -((-a) // b))


def _curve(weight: int, x: F64, k: float) -> I64:
    return np.trunc(float(weight) * (1.0 - x) * (1.0 + k * x)).astype(np.int64)


def _name_sums(names: Sequence[str]) -> tuple[I64, I64, I64, I64]:
    """Per name: Σ c·(k+1), Σ c, length (UTF-16 units), rank in Java's String order."""
    units = [utf16_units(s) for s in names]
    weighted = np.array([sum(c * (k + 1) for k, c in enumerate(u)) for u in units], np.int64)
    plain = np.array([sum(u) for u in units], np.int64)
    length = np.array([len(u) for u in units], np.int64)
    distinct = sorted(set(map(tuple, units)))
    place = {u: r for r, u in enumerate(distinct)}
    rank = np.array([place[tuple(u)] for u in units], np.int64)
    return weighted, plain, length, rank


def _det_random(maximum: int, sums: tuple[I64, I64, I64, I64], a: Idx, b: Idx) -> I64:
    """OpenGotha's deterministic random of every pair (first player ``a``), as ``det_random``:
    the characters of the smaller name then the larger, each weighted by its place."""
    weighted, plain, length, rank = sums
    inverse = rank[a] > rank[b]
    w1, w2 = weighted[a], weighted[b]
    p1, p2 = plain[a], plain[b]
    l1, l2 = length[a], length[b]
    total = np.where(inverse, w2 + w1 + l2 * p1, w1 + w2 + l1 * p2)
    value = (total * 1234567) % (maximum + 1)
    return np.where(inverse, maximum - value, value)


def cost_totals(state: RoundState, order: Sequence[int]) -> I64:
    """``m[a, b]`` = ``state.cost(order[a], order[b]).total`` for a < b (the lower triangle and
    the diagonal are 0)."""
    n = len(order)
    a, b = np.triu_indices(n, 1)
    out = np.zeros((n, n), np.int64)
    out[a, b] = pair_costs(state, order, a, b)
    return out


def pair_costs(state: RoundState, order: Sequence[int], a: Idx, b: Idx) -> I64:
    """``state.cost(order[a[k]], order[b[k]]).total`` for every k (``order[a[k]]`` first)."""
    tour, pp, gps = state.tour, state.tour.pairing, state.tour.params
    k = pp.nx1_factor
    n = len(order)

    def col(values: Sequence[int]) -> I64:
        return np.array([values[i] for i in order], np.int64)

    placed = [state.placed[i] for i in order]
    group = np.array([p.group for p in placed], np.int64)
    size = np.array([p.size for p in placed], np.int64)
    inner = np.array([p.inner for p in placed], np.int64)
    du = np.array([p.du for p in placed], np.int64)
    dd = np.array([p.dd for p in placed], np.int64)
    total = np.ones(len(a), np.int64)

    # duplicate game
    met = np.zeros((n, n), bool)
    where = {i: x for x, i in enumerate(order)}
    for i, j in state.met:
        if i in where and j in where:
            met[where[i], where[j]] = met[where[j], where[i]] = True
    total += np.where(met[a, b], 0, pp.avoid_duplicate_game)

    system = pp.seed_system1 if state.round <= pp.last_round_seed_system1 else pp.seed_system2
    # the names feed only the deterministic random part and the split-and-random seeding
    names = _name_sums([state.names[i] for i in order]) if (
        (pp.deterministic and pp.random) or system == "SPLITANDRANDOM") else None
    if pp.deterministic and pp.random and names is not None:
        total += _det_random(pp.random, names, a, b)

    # colour balance, only where the handicap would be 0
    hd = col(state.hd_rank)
    diff = hd[a] - hd[b]
    hp = tour.handicap
    adjusted = np.where(diff > 0, np.maximum(0, diff - hp.correction),
                        np.where(diff < 0, np.minimum(0, diff + hp.correction), 0))
    no_handicap = np.clip(adjusted, -hp.ceiling, hp.ceiling) == 0
    wb = col(state.balance)
    w1, w2 = wb[a], wb[b]
    half = ((w1 == 0) & (np.abs(w2) >= 2)) | ((w2 == 0) & (np.abs(w1) >= 2))
    colour = np.where(w1 * w2 < 0, pp.balance_wb, np.where(half, pp.balance_wb // 2, 0))
    total += np.where(no_handicap, colour, 0)

    # category and score difference
    cat = col(state.category)
    cat_gap = np.abs(cat[a] - cat[b])
    if gps.number_of_categories > 1:
        total += _curve(pp.avoid_mixing_categories, cat_gap / gps.number_of_categories, k)
    groups = state.number_of_groups
    g1, g2 = group[a], group[b]
    gap = np.abs(g1 - g2)
    total += np.where(cat_gap == 0, _curve(pp.minimize_score_difference, gap / groups, k), 0)

    # draw-up / draw-down
    du1, dd1, du2, dd2 = du[a], dd[a], du[b], dd[b]
    scenario = (2 - ((du1 > 0) & (g1 > g2)) - ((dd1 > 0) & (g1 < g2))
                - ((du2 > 0) & (g2 > g1)) - ((dd2 > 0) & (g2 < g1))).astype(np.int64)
    for cond in ((du1 > 0) & (dd1 < du1) & (g1 < g2), (dd1 > 0) & (du1 < dd1) & (g1 > g2),
                 (du2 > 0) & (dd2 < du2) & (g2 < g1), (dd2 > 0) & (du2 < dd2) & (g2 > g1)):
        scenario += (scenario != 0) & cond
    weight = pp.dudd_weight // 5
    half_w = weight // 2

    def position(mode: str) -> I64:
        if mode == "TOP":
            return half_w * (size - 1 - inner) // size
        if mode == "MID":
            return half_w * (size - 1 - np.abs(2 * inner - size + 1)) // size
        return half_w * inner // size

    up, low = position(pp.dudd_upper_mode), position(pp.dudd_lower_mode)
    dudd = np.where(g1 < g2, up[a] + low[b], up[b] + low[a])
    steps = np.select(
        [scenario == 1, (scenario == 2) | ((scenario > 2) & (not pp.compensate_dudd)),
         scenario == 3, scenario == 4],
        [weight, 2 * weight, 3 * weight, 4 * weight], 0)
    dudd = dudd + steps
    allowed = gap != 0
    if tour.rules == "3.51":
        allowed &= gap < 4
    dudd = np.where(allowed, dudd, 0)
    div = cat_gap + 1
    for _ in range(4):
        dudd = dudd // div
    total += dudd

    # seeding
    same = gap == 0
    top = pp.maximize_seeding
    c1, c2, sz = inner[a], inner[b], size[a]
    if system == "SPLITANDRANDOM":
        assert names is not None
        spread = int(float(top) * 0.2)
        split = (2 * c1 < sz) != (2 * c2 < sz)
        seeding = np.where(split, top - _det_random(spread, names, a, b), 0)
    elif system == "SPLITANDFOLD":
        x = c1 + c2 - (sz - 1)
        d = np.maximum(sz - 1, 1)
        seeding = top - _jdiv(_jdiv(top * x, d) * x, d)
    else:
        x = 2 * np.abs(c1 - c2) - sz
        seeding = top - _jdiv(_jdiv(top * x, sz) * x, sz)
    total += np.where(same, seeding, 0)

    # handicap (secondary criterion)
    if pp.minimize_handicap:
        # McMahon: the score groups; else bar − floor + (2 − (−1)) + the 0-based round
        sec_range = groups if tour.is_mcmahon else gps.mm_bar - gps.mm_floor + 3 + state.round - 1
        sec = col(state.sec_mms)
        total += _curve(pp.minimize_handicap, np.abs(sec[a] - sec[b]) / sec_range, k)

    # geography
    players = [tour.players[i] for i in order]
    country = np.unique([p.country.lower() for p in players], return_inverse=True)[1]
    club_names = [og_club(p) for p in players]
    club = np.unique(club_names, return_inverse=True)[1]
    diff_country = country[a] != country[b]
    same_club = club[a] == club[b]
    same_group = np.zeros(len(a), bool)
    for g in tour.clubs_groups:
        member = np.array([c in g for c in club_names])
        same_group |= member[a] & member[b]
    country_ratio = np.zeros(len(a))
    if pp.mms_diff_rather_than_same_country:
        country_ratio = np.where(
            diff_country, min(1.0, pp.mms_diff_rather_than_same_country / groups), 0.0)
    factor = pp.mms_diff_rather_than_same_club
    club_ratio = np.zeros(len(a))
    if factor:
        club_ratio = np.where(same_club, 0.0, np.where(
            same_group, factor / 2.0 / groups, factor * 1.2 / groups))
    club_ratio = np.minimum(club_ratio, 1.0)
    ratio = np.maximum(country_ratio, club_ratio) + np.minimum(country_ratio, club_ratio) / 2.0
    ratio = np.where(ratio > 0.0, ratio + 0.5 / groups, ratio)
    raw = float(pp.avoid_same_geo) * (1.0 - ratio) * (1.0 + k * ratio)
    nominal = np.minimum(pp.minimize_score_difference - np.trunc(raw).astype(np.int64),
                         pp.avoid_same_geo)
    if tour.rules == "3.51":
        geo = nominal
    else:
        above = col(state.above)
        both = above[a] + above[b]
        geo = np.where(both == 2, pp.avoid_same_geo,
                       np.where(both == 1, _jdiv(pp.avoid_same_geo + nominal, 2), nominal))
    total += geo
    return total
