"""OpenGotha's pairing cost of one candidate pair, component by component.

OpenGotha pairs a round by one maximum-weight matching over all pairable players; the weight
of a pair is the sum of ten components (duplicate game, random, colour balance, category,
score difference, draw-up/draw-down, seeding, handicap, geography, plus 1). This module
reproduces each component exactly as OpenGotha 3.5x computes it, including its integer
divisions (truncated towards zero, as in Java) and its double-precision curves
``w·(1−x)·(1+k·x)`` truncated to an integer — so the numbers equal the ``*_weights_R<r>.txt``
files OpenGotha writes. Round numbers in the public API are 1-based.

The state a cost needs (score groups, positions inside them, draw-ups and draw-downs, colour
balances, earlier meetings) is computed once per round in ``RoundState``.
"""

from __future__ import annotations

import array
import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from yisai.pairing.opengotha.params import OGHandicapParameters, OGPairingParameters
from yisai.record import Game
from yisai.standings.model import StandingsPlayer
from yisai.standings.opengotha import (
    OGParameters,
    OGScores,
    category,
    compute_og_scores,
    og_order,
    smms,
)

MIN_RANK = -30
# OpenGotha's cost rules. "3.51": the 3.51.02 source (what the real files of 2020-21 were paired
# with): every registered player is placed in the score groups, draw-up/draw-down counts only
# between groups less than 4 apart, the geographic cost ignores the secondary thresholds.
# "3.52": the rules of the weights files OpenGotha 3.52 writes (pairgoth's fixtures): only
# finally registered players of the round are grouped, draw-up/draw-down at any distance, and
# the geographic cost is full (both above the thresholds) or half way (one above).
RULES = ("3.51", "3.52")
SMMS_CORR_MIN, SMMS_CORR_MAX = -1, 2  # OpenGotha's bounds of the McMahon-score correction


def jdiv(a: int, b: int) -> int:
    """Java's integer division (truncates towards zero; Python's // floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


@functools.lru_cache(maxsize=1 << 16)
def utf16_units(text: str) -> tuple[int, ...]:
    """The UTF-16 code units Java compares strings by (cached: names are compared often)."""
    units = array.array("H", text.encode("utf-16-le"))
    if sys.byteorder == "big":
        units.byteswap()
    return tuple(units)


def java_compare(a: str, b: str) -> int:
    """Sign of Java's ``String.compareTo`` (UTF-16 code units)."""
    ua, ub = utf16_units(a), utf16_units(b)
    return (ua > ub) - (ua < ub)


def det_random(maximum: int, name1: str, name2: str) -> int:
    """OpenGotha's deterministic "random" number in 0..max from two players' NAME+firstName.

    Asymmetric on purpose (as OpenGotha's): swapping the players gives ``max − value``.
    """
    inverse = java_compare(name1, name2) > 0
    if inverse:
        name1, name2 = name2, name1
    total = sum(c * (i + 1) for i, c in enumerate(utf16_units(name1 + name2)))
    value = (total * 1234567) % (maximum + 1)
    return maximum - value if inverse else value


def _curve(weight: int, x: float, k: float) -> int:
    """``(long)(weight · (1 − x) · (1 + k·x))`` evaluated in doubles, left to right."""
    return int(float(weight) * (1.0 - x) * (1.0 + k * x))


@dataclass(frozen=True, slots=True)
class OGCost:
    """One pair's cost, in the order of OpenGotha's weights files; ``total`` includes the 1."""

    duplicate: int
    random: int
    colour: int
    category: int
    score: int
    dudd: int
    seeding: int
    handicap: int
    geo: int

    @property
    def total(self) -> int:
        return (1 + self.duplicate + self.random + self.colour + self.category + self.score
                + self.dudd + self.seeding + self.handicap + self.geo)


COMPONENTS: tuple[str, ...] = tuple(f.name for f in fields(OGCost))


@dataclass(frozen=True, slots=True)
class OGTournament:
    """What OpenGotha's pairing reads: players, scoring/placement, pairing and handicap sets.

    ``clubs_groups`` are OpenGotha's groups of clubs (lower-case club names), used by the
    geographic cost.
    """

    players: tuple[StandingsPlayer, ...]
    params: OGParameters
    pairing: OGPairingParameters
    handicap: OGHandicapParameters
    clubs_groups: tuple[frozenset[str], ...] = ()
    rules: str = "3.51"  # which OpenGotha's cost rules: see ``RULES``

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise ValueError(f"OpenGotha cost rules {self.rules!r}: not one of {', '.join(RULES)}")

    @property
    def main_criterion(self) -> str:
        """OpenGotha's ``mainCriterion``: the first of NBW / MMS / CPS in the criteria list."""
        return next((c for c in self.params.criteria if c in ("NBW", "MMS", "CPS")), "NBW")

    @property
    def is_mcmahon(self) -> bool:
        """OpenGotha's tournament type: McMahon when MMS is the first placement criterion."""
        return self.params.criteria[0] == "MMS" if self.params.criteria else False


MAX_CLUB_LENGTH = 4  # OpenGotha keeps the first 4 characters of a club name (Player.MAX_CLUB_LENGTH)


def og_club(p: StandingsPlayer) -> str:
    """The club as OpenGotha's geographic cost compares it: cut to 4 characters when the
    player is loaded, then lower-cased ("Paris Go" and "Paris Ouest" are one club, "pari")."""
    return p.club[:MAX_CLUB_LENGTH].lower()


def og_full_name(p: StandingsPlayer) -> str:
    """NAME + firstName without a space, as OpenGotha's deterministic random uses it."""
    return (p.last_name or p.name) + p.first_name


@dataclass(slots=True)
class _Placed:
    group: int = 0
    size: int = 0
    inner: int = 0
    du: int = 0
    dd: int = 0


class RoundState:
    """Everything OpenGotha's cost function reads for pairing ``round_`` (1-based).

    ``games`` are the games and byes of earlier rounds (later ones are ignored). Score groups
    and their inner order cover every player of the file under the 3.51 rules (OpenGotha
    3.51.02 groups all its scored players), and the finally registered players participating
    in the round under the 3.52 rules (as 3.52's weights files show), paired or not.
    """

    def __init__(self, tour: OGTournament, games: Sequence[Game], round_: int) -> None:
        self.tour = tour
        self.round = round_
        self.games = [g for g in games if g.round < round_]
        self.index = {p.id: i for i, p in enumerate(tour.players)}
        # Scores up to the round being paired are all the pairing reads (its tables read that
        # round, still unplayed); a criterion's value never depends on later rounds.
        upto = replace(tour.params, number_of_rounds=min(tour.params.number_of_rounds, round_))
        self.scores: OGScores = compute_og_scores(tour.players, self.games, upto)
        # OpenGotha's standings before the round: the order its pairing window lists the
        # players in (which player of a pair is "first"), and the DC/SDC the groups sort by.
        self.standing = og_order(self.scores, round_ - 1)
        self.position = {i: k for k, i in enumerate(self.standing.order)}
        n = len(tour.players)
        self.placed = [_Placed() for _ in range(n)]
        self.number_of_groups = 0
        self._fill_groups()
        self._fill_dudd()
        self.balance = [0] * n
        self.met: dict[tuple[int, int], int] = {}
        for g in self.games:
            if g.white is None:
                continue
            w, b = self.index[g.white], self.index[g.black]
            key = (min(w, b), max(w, b))
            self.met[key] = self.met.get(key, 0) + 1
            if g.handicap == 0:
                self.balance[w] += 1
                self.balance[b] -= 1
        self._fill_player_cache()

    def _fill_player_cache(self) -> None:
        """Per-player values every pair reads: computed once, not n times."""
        tour = self.tour
        gps, hp = tour.params, tour.handicap
        n = len(tour.players)
        self.names = [og_full_name(p) for p in tour.players]
        self.category = [category(p, gps) for p in tour.players]
        if hp.based_on_mms:
            pseudo = [jdiv(self.crit("MMS", i), 2) + MIN_RANK for i in range(n)]
        else:
            pseudo = [player_rank(p) for p in tour.players]
        self.hd_rank = [min(r, hp.no_handicap_rank_threshold) for r in pseudo]
        pp = tour.pairing
        threshold = gps.number_of_rounds if pp.nb_wins_threshold_active \
            else 2 * gps.number_of_rounds
        max_mms = gps.mm_bar + SMMS_CORR_MAX - MIN_RANK + self.round - 1
        pairs = [self._pseudo_mms(i, max_mms, threshold) for i in range(n)]
        self.sec_mms = [m for m, _ in pairs]
        self.above = [int(a) for _, a in pairs]

    # --- scores -------------------------------------------------------------------------
    def crit(self, criterion: str, i: int, after_round: int | None = None) -> int:
        """Criterion value (OpenGotha units) after ``after_round`` (default: the previous round).

        DC and SDC are those of the standings before the round (OpenGotha's pairing reads the
        values its pairing window last computed, which are those).
        """
        if criterion == "NULL":
            return 0
        if criterion in ("DC", "SDC"):
            return self.standing.criterion_value(self.scores, criterion, i)
        r = self.round - 1 if after_round is None else after_round
        return self.scores.value(criterion, i, r)

    def score_bounds(self) -> tuple[int, int]:
        """Lowest and highest main score OpenGotha scans for groups (0-based round r0: MMS
        from floor − 1 to bar + 2 + r0, NBW 0..r0, CPS 0..2^r0), widened to every actual
        score: a McMahon correction outside OpenGotha's −1..+2 would otherwise leave a player
        ungrouped (OpenGotha keeps stale group data for him)."""
        gps = self.tour.params
        r0 = self.round - 1
        main = self.tour.main_criterion
        if main == "MMS":
            lo = gps.mm_floor + SMMS_CORR_MIN - MIN_RANK
            hi = gps.mm_bar + SMMS_CORR_MAX + r0 - MIN_RANK
        elif main == "CPS":
            lo, hi = 0, 2**r0
        else:
            lo, hi = 0, r0
        mains = [jdiv(self.crit(main, i), 2) for i in range(len(self.tour.players))]
        return min([lo, *mains]), max([hi, *mains])

    def _fill_groups(self) -> None:
        tour = self.tour
        pp = tour.pairing
        main = tour.main_criterion
        lo, hi = self.score_bounds()
        extra = pp.additional_criterion1 if self.round <= pp.last_round_seed_system1 \
            else pp.additional_criterion2
        crits = [*tour.params.criteria, extra]
        players = tour.players
        cats = [category(p, tour.params) for p in players]
        mains = [jdiv(self.crit(main, i), 2) for i in range(len(players))]
        by_score: dict[tuple[int, int], list[int]] = {}
        every_player = tour.rules == "3.51"
        for i, p in enumerate(players):
            if every_player or (self.round not in p.absent_rounds
                                and p.tags.get("registering", "FIN") == "FIN"):
                by_score.setdefault((cats[i], mains[i]), []).append(i)
        group = 0
        for cat in range(max(1, tour.params.number_of_categories)):
            for score in range(hi, lo - 1, -1):  # an empty score still counts as a group
                members = by_score.get((cat, score))
                if members:
                    members.sort(key=lambda i: (
                        tuple(-self.crit(c, i) for c in crits),
                        utf16_units(players[i].last_name or players[i].name),
                        utf16_units(players[i].first_name),
                    ))
                    for pos, i in enumerate(members):
                        self.placed[i].group = group
                        self.placed[i].size = len(members)
                        self.placed[i].inner = pos
                group += 1
        self.number_of_groups = group

    def _fill_dudd(self) -> None:
        main = self.tour.main_criterion
        for g in self.games:
            if g.white is None:
                continue
            w, b = self.index[g.white], self.index[g.black]
            # main score before round g.round: value after round g.round - 1
            sw = jdiv(self.crit(main, w, g.round - 1), 2)
            sb = jdiv(self.crit(main, b, g.round - 1), 2)
            if sw < sb:
                self.placed[w].du += 1
                self.placed[b].dd += 1
            elif sw > sb:
                self.placed[w].dd += 1
                self.placed[b].du += 1

    # --- handicap and colours -----------------------------------------------------------
    def handicap_of(self, i: int, j: int) -> int:
        """OpenGotha's signed handicap for i against j: > 0 means i is stronger (takes White)."""
        hp = self.tour.handicap
        hd = self.hd_rank[i] - self.hd_rank[j]
        if hd > 0:
            hd = max(0, hd - hp.correction)
        if hd < 0:
            hd = min(0, hd + hp.correction)
        return max(-hp.ceiling, min(hp.ceiling, hd))

    def colours(self, i: int, j: int) -> tuple[int, int, int]:
        """(white, black, handicap) as OpenGotha's ``gameBetween`` decides for i (first) and j."""
        hd = self.handicap_of(i, j)
        if hd > 0:
            return i, j, hd
        if hd < 0:
            return j, i, -hd
        if self.balance[i] > self.balance[j]:
            return j, i, 0
        if self.balance[i] < self.balance[j]:
            return i, j, 0
        if det_random(1, self.names[i], self.names[j]) == 0:
            return i, j, 0
        return j, i, 0

    # --- the cost -----------------------------------------------------------------------
    def cost(self, i: int, j: int) -> OGCost:
        """OpenGotha's ``costValue`` for the pair (i first, j second; order matters only for
        the deterministic random parts)."""
        tour, pp, gps = self.tour, self.tour.pairing, self.tour.params
        players = tour.players
        k = pp.nx1_factor
        a, b = self.placed[i], self.placed[j]
        name_i, name_j = self.names[i], self.names[j]

        duplicate = pp.avoid_duplicate_game if self.met.get((min(i, j), max(i, j)), 0) == 0 else 0
        rnd = det_random(pp.random, name_i, name_j) if pp.deterministic and pp.random else 0

        colour = 0
        if self.handicap_of(i, j) == 0:
            wb1, wb2 = self.balance[i], self.balance[j]
            if wb1 * wb2 < 0:
                colour = pp.balance_wb
            elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
                colour = jdiv(pp.balance_wb, 2)

        cat_i, cat_j = self.category[i], self.category[j]
        n_cat = gps.number_of_categories
        cat_cost = 0
        if n_cat > 1:
            cat_cost = _curve(pp.avoid_mixing_categories, abs(cat_i - cat_j) / n_cat, k)

        sco_range = self.number_of_groups
        score = 0
        if cat_i == cat_j:
            score = _curve(pp.minimize_score_difference, abs(a.group - b.group) / sco_range, k)

        dudd = self._dudd(a, b)
        gap = abs(cat_i - cat_j) + 1
        if gap > 1:  # OpenGotha divides by the category gap four times
            for _ in range(4):
                dudd = jdiv(dudd, gap)

        seeding = self._seeding(a, b, name_i, name_j)
        handicap = self._handicap_cost(i, j, sco_range)
        geo = self._geo(players[i], players[j], sco_range, self.above[i] + self.above[j])
        return OGCost(duplicate, rnd, colour, cat_cost, score, dudd, seeding, handicap, geo)

    def _dudd(self, a: _Placed, b: _Placed) -> int:
        pp = self.tour.pairing
        if a.group == b.group:
            return 0
        if self.tour.rules == "3.51" and abs(a.group - b.group) >= 4:
            return 0
        scenario = 2
        if a.du > 0 and a.group > b.group:
            scenario -= 1
        if a.dd > 0 and a.group < b.group:
            scenario -= 1
        if b.du > 0 and b.group > a.group:
            scenario -= 1
        if b.dd > 0 and b.group < a.group:
            scenario -= 1
        if scenario != 0 and a.du > 0 and a.dd < a.du and a.group < b.group:
            scenario += 1
        if scenario != 0 and a.dd > 0 and a.du < a.dd and a.group > b.group:
            scenario += 1
        if scenario != 0 and b.du > 0 and b.dd < b.du and b.group < a.group:
            scenario += 1
        if scenario != 0 and b.dd > 0 and b.du < b.dd and b.group > a.group:
            scenario += 1
        weight = jdiv(pp.dudd_weight, 5)
        upper, lower = (a, b) if a.group < b.group else (b, a)
        cost = _dudd_position(weight, upper, pp.dudd_upper_mode)
        cost += _dudd_position(weight, lower, pp.dudd_lower_mode)
        if scenario == 1:
            cost += weight
        elif scenario == 2 or (scenario > 2 and not pp.compensate_dudd):
            cost += 2 * weight
        elif scenario == 3:
            cost += 3 * weight
        elif scenario == 4:
            cost += 4 * weight
        return cost

    def _seeding(self, a: _Placed, b: _Placed, name_i: str, name_j: str) -> int:
        pp = self.tour.pairing
        if a.group != b.group:
            return 0
        size, c1, c2 = a.size, a.inner, b.inner
        top = pp.maximize_seeding
        system = pp.seed_system1 if self.round <= pp.last_round_seed_system1 else pp.seed_system2
        if system == "SPLITANDRANDOM":
            if (2 * c1 < size) != (2 * c2 < size):
                spread = int(float(top) * 0.2)
                return top - det_random(spread, name_i, name_j)
            return 0
        if system == "SPLITANDFOLD":
            x = c1 + c2 - (size - 1)
            return top - jdiv(jdiv(top * x, size - 1) * x, size - 1)
        x = 2 * abs(c1 - c2) - size  # SPLITANDSLIP
        return top - jdiv(jdiv(top * x, size) * x, size)

    def _pseudo_mms(self, i: int, max_mms: int, nbw2_threshold: int) -> tuple[int, bool]:
        """The MMS the handicap cost sees, and whether the player is above the thresholds."""
        tour, pp, gps = self.tour, self.tour.pairing, self.tour.params
        p = tour.players[i]
        nbw2 = self.crit("NBW", i)
        strong = 2 * player_rank(p) + nbw2 >= 2 * pp.rank_threshold
        many_wins = nbw2 >= nbw2_threshold
        above_bar = smms(p, gps) >= gps.mm_bar - MIN_RANK and pp.bar_threshold_active
        if many_wins or strong or above_bar:
            return max_mms, True
        return jdiv(self.crit("MMS", i), 2), False

    def _handicap_cost(self, i: int, j: int, sco_range: int) -> int:
        tour, pp, gps = self.tour, self.tour.pairing, self.tour.params
        if not pp.minimize_handicap:
            return 0
        if tour.is_mcmahon:
            sec_range = sco_range
        else:
            sec_range = gps.mm_bar - gps.mm_floor + SMMS_CORR_MAX - SMMS_CORR_MIN + self.round - 1
        x = abs(self.sec_mms[i] - self.sec_mms[j]) / sec_range
        return _curve(pp.minimize_handicap, x, pp.nx1_factor)

    def _geo(self, p1: StandingsPlayer, p2: StandingsPlayer, sco_range: int, above: int) -> int:
        """Geographic cost; players above the secondary thresholds get the full weight (both)
        or half way (one), as OpenGotha's weights files show."""
        pp = self.tour.pairing
        k = pp.nx1_factor
        country_ratio = 0.0
        if p1.country.lower() != p2.country.lower() and pp.mms_diff_rather_than_same_country:
            country_ratio = min(1.0, pp.mms_diff_rather_than_same_country / sco_range)
        club1, club2 = og_club(p1), og_club(p2)
        same_club = club1 == club2
        same_group = any(club1 in g and club2 in g for g in self.tour.clubs_groups)
        factor = pp.mms_diff_rather_than_same_club
        club_ratio = 0.0
        if factor:
            if same_group and not same_club:
                club_ratio = factor / 2.0 / sco_range
            elif not same_group and not same_club:
                club_ratio = factor * 1.2 / sco_range
        club_ratio = min(club_ratio, 1.0)
        ratio = max(country_ratio, club_ratio) + min(country_ratio, club_ratio) / 2.0
        if ratio > 0.0:
            ratio += 0.5 / sco_range
        raw = float(pp.avoid_same_geo) * (1.0 - ratio) * (1.0 + k * ratio)
        nominal = min(pp.minimize_score_difference - int(raw), pp.avoid_same_geo)
        if self.tour.rules == "3.51":
            return nominal
        if above == 2:
            return pp.avoid_same_geo
        if above == 1:
            return jdiv(pp.avoid_same_geo + nominal, 2)
        return nominal


def _dudd_position(weight: int, p: _Placed, mode: str) -> int:
    half = jdiv(weight, 2)
    if mode == "TOP":
        return jdiv(half * (p.size - 1 - p.inner), p.size)
    if mode == "MID":
        return jdiv(half * (p.size - 1 - abs(2 * p.inner - p.size + 1)), p.size)
    return jdiv(half * p.inner, p.size)  # BOT


def player_rank(p: StandingsPlayer) -> int:
    return p.rank.value if p.rank is not None else MIN_RANK
