"""All requested criteria for all players after round r, computed once and shared.

Criteria depend on each other (对手分 needs 积分, SOSOS needs 对手分), so the table computes each
column once and hands it to the ones that need it; a full table is a handful of
O(players × rounds) passes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from yisai.record import Game
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules, Scoring
from yisai.standings import criteria as C
from yisai.standings.ledger import Ledger, build_ledger, gc_paused
from yisai.standings.model import StandingsPlayer

ALL_CRITERIA: tuple[CriterionSpec, ...] = (
    *(CriterionSpec(criterion=c) for c in Criterion if c != Criterion.DIRECT),
    CriterionSpec(criterion=Criterion.SOS_CUT, from_last_round=True),
)


@dataclass(frozen=True, slots=True)
class CriteriaTable:
    """Columns of criterion values, one entry per player index of ``ledger``."""

    ledger: Ledger
    players: tuple[StandingsPlayer, ...]
    columns: dict[str, Sequence[C.Value]]
    undefeated: tuple[bool, ...]

    @property
    def ids(self) -> list[str]:
        return self.ledger.ids

    def value(self, pid: str, key: str) -> C.Value:
        return self.columns[key][self.ledger.index[pid]]

    def row(self, pid: str) -> dict[str, C.Value]:
        i = self.ledger.index[pid]
        return {k: col[i] for k, col in self.columns.items()}


def compute_table(
    players: Sequence[StandingsPlayer],
    games: Iterable[Game],
    rounds: int,
    scoring: Scoring | None = None,
    rules: RankingRules | None = None,
    specs: Iterable[CriterionSpec] | None = None,
    lot_seed: int = 0,
    round_keys: Mapping[int, Hashable] | None = None,
) -> CriteriaTable:
    """Criteria after ``rounds`` rounds for every player (criteria always from the games).

    ``specs`` defaults to the regulation's list plus 积分 (always shown); DIRECT is skipped (it is
    decided inside the ranking among tied players only). ``round_keys``: see ``build_ledger``.
    """
    with gc_paused():
        return _compute(players, games, rounds, scoring, rules, specs, lot_seed, round_keys)


def _compute(
    players: Sequence[StandingsPlayer],
    games: Iterable[Game],
    rounds: int,
    scoring: Scoring | None,
    rules: RankingRules | None,
    specs: Iterable[CriterionSpec] | None,
    lot_seed: int,
    round_keys: Mapping[int, Hashable] | None = None,
) -> CriteriaTable:
    scoring = scoring or Scoring()
    rules = rules or RankingRules()
    players = tuple(players)
    ledger = build_ledger([p.id for p in players], games, rounds, scoring, round_keys)
    wanted = list(specs) if specs is not None else list(rules.criteria)
    wanted = [CriterionSpec(criterion=Criterion.SCORE), *wanted]

    cols: dict[str, Sequence[C.Value]] = {}
    scores = C.score(ledger)
    cols["score"] = scores
    cache_sos: list[int] | None = None
    cache_cum: list[int] | None = None
    cache_sorted: list[list[int]] | None = None
    cache_contrib: list[list[int]] | None = None

    def contributions() -> list[list[int]]:
        nonlocal cache_contrib
        if cache_contrib is None:
            cache_contrib = C.opponent_contributions(ledger, scores)
        return cache_contrib

    def sorted_contributions() -> list[list[int]]:
        nonlocal cache_sorted
        if cache_sorted is None:
            cache_sorted = [sorted(c) for c in contributions()]
        return cache_sorted

    def get_sos() -> list[int]:
        nonlocal cache_sos
        if cache_sos is None:
            cache_sos = [sum(c) for c in contributions()]
        return cache_sos

    def get_cum() -> list[int]:
        nonlocal cache_cum
        if cache_cum is None:
            cache_cum = C.cumulative(ledger)
        return cache_cum

    def compute(spec: CriterionSpec) -> Sequence[C.Value]:
        crit = spec.criterion
        if crit == Criterion.SCORE:
            return scores
        if crit == Criterion.SOS:
            return get_sos()
        if crit == Criterion.CUMULATIVE:
            return get_cum()
        if crit == Criterion.SOSOS:
            return C.sum_over_opponents(ledger, get_sos())
        if crit == Criterion.OPP_CUMULATIVE:
            return C.sum_over_opponents(ledger, get_cum())
        if crit == Criterion.SODOS:
            return C.sodos(ledger, scores)
        if crit in (Criterion.SOS_MINUS1, Criterion.SOS_MINUS2):
            drop = 1 if crit == Criterion.SOS_MINUS1 else 2
            return [sum(c[drop:]) for c in sorted_contributions()]
        if crit == Criterion.SOS_CUT:
            return C.sos_cut(ledger, spec.from_last_round, scores, contributions())
        if crit == Criterion.TOTAL_SCORE:
            parts = []
            for c, w in rules.total_score.items():
                if c == Criterion.SOS_CUT:
                    raise ValueError("总得分公式不能包含逐轮减去对手分 (sos_cut)")
                parts.append((w, cast("Sequence[int | Fraction]", compute(CriterionSpec(criterion=c)))))
            return [sum(w * v[i] for w, v in parts) for i in range(len(ledger))]
        return C.criterion_values(ledger, spec, rules, players, lot_seed)

    for spec in wanted:
        if spec.criterion == Criterion.DIRECT:
            continue
        key = C.column_key(spec)
        if key not in cols:
            cols[key] = compute(spec)
    return CriteriaTable(
        ledger=ledger, players=players, columns=cols, undefeated=tuple(C.undefeated(ledger))
    )
