"""All requested criteria for all players after round r, computed once and shared.

Criteria depend on each other (对手分 needs 积分, SOSOS needs 对手分), so ``criteria.Columns``
computes each shared part once and hands it to the ones that need it; each criterion's own
computation is ``criteria.COMPUTE``, asked once per column. A full table is a handful of
O(players × rounds) passes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from yisai.bursts import allocation_pause
from yisai.record import Game
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules, Scoring
from yisai.standings import criteria as C
from yisai.standings.ledger import Ledger, build_ledger
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
    with allocation_pause():
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

    columns = C.Columns(ledger, players, rules, lot_seed)
    cols: dict[str, Sequence[C.Value]] = {"score": columns.scores}
    for spec in wanted:
        if spec.criterion == Criterion.DIRECT:
            continue
        key = C.column_key(spec)
        if key not in cols:
            cols[key] = columns.column(spec)
    return CriteriaTable(
        ledger=ledger, players=players, columns=cols, undefeated=tuple(C.undefeated(ledger))
    )
