"""Where each individual tie-break criterion (积分, 对手分, 累进分 …) is computed: ``COMPUTE`` at the
end maps every criterion to its one function of the ledger; ``standings/table.py`` asks it once per
criterion for a whole column. Labels, direction and the names regulation files write are the
registry's (``regulation/criteria.py``).

Each column holds one value per player index. Values are ints, except 胜对手分 with draws
(a Fraction) and 逐轮减去对手分 (a tuple compared element by element). Conventions, chosen so a
referee can recompute every number by hand:

- 对手分 (SOS) sums the opponents' scores after round r over the rounds whose opponent counts
  (games played; forfeits only when ``Scoring.forfeit_counts_in_sos``; never byes or absences).
- SOS−1 / SOS−2 drop the lowest one / two per-round contributions, an uncounted round
  contributing 0 (so a bye is the first one dropped).
- 胜对手分 counts a beaten opponent's score in full and a drawn one's pro rata (draw/win).
- 胜局数 and 后手胜局数 count every won game, forfeit wins included, never byes.
- 依次比较上轮积分 is the tuple (score after round r−1, after r−2, …, after round 1).
- 逐轮减去对手分 is the tuple (SOS − c1, SOS − c1 − c2, …) with c_k the opponent contribution of
  round k, from round 1 forward (default) or from the last round backward.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import cast

from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules
from yisai.standings.ledger import BYE, Ledger
from yisai.standings.model import StandingsPlayer

Value = int | Fraction | tuple[int, ...]


def running_scores(ledger: Ledger) -> list[list[int]]:
    """running[i][k]: player i's score after round k+1 (the basis of 累进分 and 对手分)."""
    out = []
    for pts in ledger.points:
        total = 0
        row = []
        for p in pts:
            total += p
            row.append(total)
        out.append(row)
    return out


def score(ledger: Ledger) -> list[int]:
    """积分: points over rounds 1..r."""
    return [sum(p) for p in ledger.points]


def cumulative(ledger: Ledger) -> list[int]:
    """累进分: the sum of the running score after each round."""
    return [sum(row) for row in running_scores(ledger)]


def opponent_contributions(ledger: Ledger, per_player: Sequence[int]) -> list[list[int]]:
    """c[i][k]: what round k's opponent adds to player i's sum (0 when not counted)."""
    out = []
    for opps, cnt in zip(ledger.opponent, ledger.counted, strict=True):
        out.append([per_player[o] if c else 0 for o, c in zip(opps, cnt, strict=True)])
    return out


def sum_over_opponents(ledger: Ledger, per_player: Sequence[int]) -> list[int]:
    """Σ of ``per_player`` over each player's counted opponents (SOS-type criteria)."""
    out = []
    for opps, cnt in zip(ledger.opponent, ledger.counted, strict=True):
        total = 0
        for o, c in zip(opps, cnt, strict=True):
            if c:
                total += per_player[o]
        out.append(total)
    return out


def sodos(ledger: Ledger, scores: Sequence[int] | None = None) -> list[Value]:
    """胜对手分: beaten opponents' scores; a draw counts pro rata (draw points / win points)."""
    scores = score(ledger) if scores is None else scores
    win = ledger.win_points or 1
    out: list[Value] = []
    for i in range(len(ledger)):
        num = 0
        for o, c, out_, pts in zip(
            ledger.opponent[i],
            ledger.counted[i],
            ledger.outcome[i],
            ledger.points[i],
            strict=True,
        ):
            if c and out_ in ("W", "D"):
                num += scores[o] * pts
        value = Fraction(num, win)
        out.append(int(value) if value.denominator == 1 else value)
    return out


def wins(ledger: Ledger) -> list[int]:
    """胜局数: games won (forfeit wins included, byes not)."""
    return [
        sum(1 for o, k in zip(outs, kinds, strict=True) if o == "W" and k != BYE)
        for outs, kinds in zip(ledger.outcome, ledger.kind, strict=True)
    ]


def white_wins(ledger: Ledger) -> list[int]:
    """后手胜局数: games won with White."""
    return [
        sum(1 for o, c in zip(outs, cols, strict=True) if o == "W" and c == "W")
        for outs, cols in zip(ledger.outcome, ledger.colour, strict=True)
    ]


def sos_cut(
    ledger: Ledger,
    from_last_round: bool = False,
    scores: Sequence[int] | None = None,
    contributions: list[list[int]] | None = None,
) -> list[tuple[int, ...]]:
    """逐轮减去对手分: (SOS − c1, SOS − c1 − c2, …), or from the last round backward."""
    if contributions is None:
        contributions = opponent_contributions(ledger, score(ledger) if scores is None else scores)
    out = []
    for contrib in contributions:
        order = list(reversed(contrib)) if from_last_round else contrib
        remaining = sum(order)
        seq = []
        for c in order[:-1]:
            remaining -= c
            seq.append(remaining)
        out.append(tuple(seq))
    return out


def previous_scores(ledger: Ledger) -> list[tuple[int, ...]]:
    """依次比较上轮积分: the score after the previous round, then the round before, … back to
    round 1 (the running scores without the last, latest first)."""
    return [tuple(reversed(row[:-1])) for row in running_scores(ledger)]


def undefeated(ledger: Ledger) -> list[bool]:
    """全胜: every round of 1..r won (a bye counts as won; an absence or draw does not)."""
    return [ledger.rounds > 0 and all(o == "W" for o in outs) for outs in ledger.outcome]


def lot_numbers(ids: Sequence[str], players: Mapping[str, StandingsPlayer], seed: int) -> list[int]:
    """抽签: the drawn number when recorded, else a draw with the given seed (lower is better)."""
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    drawn = {pid: k + 1 for k, pid in enumerate(order)}
    offset = len(ids)
    out: list[int] = []
    for pid in ids:
        lot = players[pid].lot
        out.append(lot if lot is not None else offset + drawn[pid])
    return out


def column_key(spec: CriterionSpec) -> str:
    """The column name of a criterion in tables and exports."""
    if spec.criterion == Criterion.SOS_CUT and spec.from_last_round:
        return "sos_cut_from_last"
    return spec.criterion.value




class Columns:
    """One ledger's criteria as they are asked for, sharing what several need (积分, each
    round's opponent contribution, 对手分, 累进分), each computed once."""

    def __init__(self, ledger: Ledger, players: Sequence[StandingsPlayer], rules: RankingRules,
                 lot_seed: int = 0) -> None:
        self.ledger = ledger
        self.players = players
        self.rules = rules
        self.lot_seed = lot_seed
        self.scores = score(ledger)

    @cached_property
    def contributions(self) -> list[list[int]]:
        return opponent_contributions(self.ledger, self.scores)

    @cached_property
    def sorted_contributions(self) -> list[list[int]]:
        return [sorted(c) for c in self.contributions]

    @cached_property
    def sos(self) -> list[int]:
        return [sum(c) for c in self.contributions]

    @cached_property
    def cumulative(self) -> list[int]:
        return cumulative(self.ledger)

    def column(self, spec: CriterionSpec) -> Sequence[Value]:
        """One criterion for every player (直胜 has no per-player value: it is decided in the
        ranking among the tied players only)."""
        compute = COMPUTE.get(spec.criterion)
        if compute is None:
            raise ValueError("直胜没有单个选手的数值, 只在排名时比较并列者之间的对局")
        return compute(self, spec)


def _score(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """积分."""
    return c.scores


def _sos(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """对手分 (SOS): the counted opponents' scores after round r."""
    return c.sos


def _cumulative(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """累进分."""
    return c.cumulative


def _sosos(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """对手的对手分 (SOSOS): the counted opponents' 对手分."""
    return sum_over_opponents(c.ledger, c.sos)


def _opp_cumulative(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """对手累进分: the counted opponents' 累进分."""
    return sum_over_opponents(c.ledger, c.cumulative)


def _sodos(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """胜对手分."""
    return sodos(c.ledger, c.scores)


def _sos_minus(drop: int) -> Callable[[Columns, CriterionSpec], Sequence[Value]]:
    def compute(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
        """SOS−1 / SOS−2: 对手分 without the ``drop`` lowest per-round contributions."""
        return [sum(row[drop:]) for row in c.sorted_contributions]
    return compute


def _sos_cut(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """逐轮减去对手分."""
    return sos_cut(c.ledger, spec.from_last_round, c.scores, c.contributions)


def _previous_scores(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """依次比较上轮积分."""
    return previous_scores(c.ledger)


def _wins(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """胜局数."""
    return wins(c.ledger)


def _white_wins(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """后手胜局数."""
    return white_wins(c.ledger)


def _total_score(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """总得分: Σ weight × criterion, the regulation's formula (default 积分 + 对手分)."""
    parts = []
    for crit, weight in c.rules.total_score.items():
        if crit in (Criterion.SOS_CUT, Criterion.PREVIOUS_SCORES):
            raise ValueError(f"总得分公式不能包含逐项比较的指标 ({crit.value})")
        parts.append((weight, cast("Sequence[int | Fraction]", c.column(CriterionSpec(criterion=crit)))))
    return [sum(w * v[i] for w, v in parts) for i in range(len(c.ledger))]


def _rank(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """段位 (a player without one below every rank)."""
    return [p.rank.value if p.rank is not None else -100 for p in c.players]


def _rating(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """等级分 (a player without one below every rating)."""
    return [p.rating if p.rating is not None else -(10**9) for p in c.players]


def _lot(c: Columns, spec: CriterionSpec) -> Sequence[Value]:
    """抽签 (lower is better)."""
    by_id = {p.id: p for p in c.players}
    return lot_numbers([p.id for p in c.players], by_id, c.lot_seed)


COMPUTE: dict[Criterion, Callable[[Columns, CriterionSpec], Sequence[Value]]] = {
    Criterion.SCORE: _score,
    Criterion.TOTAL_SCORE: _total_score,
    Criterion.SOS: _sos,
    Criterion.CUMULATIVE: _cumulative,
    Criterion.SODOS: _sodos,
    Criterion.SOS_CUT: _sos_cut,
    Criterion.PREVIOUS_SCORES: _previous_scores,
    Criterion.WINS: _wins,
    Criterion.WHITE_WINS: _white_wins,
    Criterion.OPP_CUMULATIVE: _opp_cumulative,
    Criterion.SOSOS: _sosos,
    Criterion.SOS_MINUS1: _sos_minus(1),
    Criterion.SOS_MINUS2: _sos_minus(2),
    Criterion.RANK: _rank,
    Criterion.RATING: _rating,
    Criterion.LOT: _lot,
}
"""Each individual criterion's computation (labels and direction: ``regulation/criteria.py``);
直胜 is absent — it compares the tied players' mutual games inside ``standings/ranking.py``."""
