"""One entry point for a ranking list: input + round + criteria (+ subset) → ``Standings``.

Two modes share the ``Standings`` result so exports and the CLI do not care which ran:
- Chinese (default for our events): the regulation's criteria and ranking rules (ranking.py).
- OpenGotha: when every criterion is an OpenGotha name (or none is given and the source is an
  OpenGotha file), OpenGotha's own values and placement (opengotha.py), names breaking ties.
A list mixing both kinds is ranked by the Chinese rules with OpenGotha's values as columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from yisai.i18n import Text, TextError, tr
from yisai.regulation.criteria import CRITERIA
from yisai.regulation.rules import Criterion
from yisai.standings.criteria import Value, column_key
from yisai.standings.model import StandingsInput
from yisai.standings.names import CriterionRef
from yisai.standings.opengotha import (
    OG_CRITERIA,
    OG_LABELS,
    OGParameters,
    OGScores,
    compute_og_scores,
    og_order,
)
from yisai.standings.ranking import (
    Decision,
    RankKey,
    StandingRow,
    Standings,
    direct_points,
    rank_by_keys,
    with_mini_league,
)
from yisai.standings.table import compute_table


def og_value(raw: int, crit: str) -> Value:
    """OpenGotha's internal units (×2, ×4) → the real value (12.5 as Fraction(25, 2))."""
    if crit == "CAT":  # stored negated for sorting; shown as category number 1, 2, …
        return -raw + 1
    value = Fraction(raw, OG_CRITERIA.get(crit, 1))
    return int(value) if value.denominator == 1 else value


def default_round(inp: StandingsInput) -> int:
    """Standings "now": after the last round that has games (0 before any)."""
    return inp.last_round_with_games


def og_params(inp: StandingsInput) -> OGParameters:
    if isinstance(inp.opengotha, OGParameters):
        return inp.opengotha
    return OGParameters(number_of_rounds=max(inp.rounds, inp.last_round_with_games))


def compute_standings(
    inp: StandingsInput,
    round_: int | None = None,
    criteria: Sequence[CriterionRef] | None = None,
    subset: Iterable[str] | None = None,
    lot_seed: int = 0,
    undefeated_champion: bool | None = None,
) -> Standings:
    """The ranking list of ``subset`` (default everybody) after ``round_`` (default: latest).

    Criteria are always computed from the games of all players; ``subset`` only chooses whose
    rows are ordered (a division, one gender, an age band).
    """
    r = default_round(inp) if round_ is None else round_
    if r < 0 or r > max(inp.rounds, inp.last_round_with_games):
        raise TextError(
            Text(
                f"轮次 {r} 超出范围 (本赛事共 {inp.rounds} 轮)",
                f"round {r} is out of range (the event has {inp.rounds} rounds)",
            )
        )
    sub = None if subset is None else list(subset)
    if sub is not None:
        known = {p.id for p in inp.players}
        missing = [pid for pid in sub if pid not in known]
        if missing:
            raise TextError(Text(f"名单中没有这些选手: {missing}", f"unknown players: {missing}"))
    wanted = None if sub is None else set(sub)
    unranked = [p.id for p in inp.players if not p.ranked and (wanted is None or p.id in wanted)]
    if not unranked:
        return _compute(inp, r, criteria, sub, lot_seed, undefeated_champion)
    # 退赛 / 取消资格 without a place: the others are ranked as if they were not there (their
    # games still count for everyone's criteria); they follow below, in the same order, unplaced.
    gone = set(unranked)
    st = _compute(inp, r, criteria, [pid for pid in (sub if sub is not None else (p.id for p in inp.players))
                                     if pid not in gone], lot_seed, undefeated_champion)
    below = _compute(inp, r, criteria, unranked, lot_seed, undefeated_champion)
    st.unranked = [StandingRow(0, row.player, row.values) for row in below.rows]
    return st


def _compute(
    inp: StandingsInput,
    r: int,
    criteria: Sequence[CriterionRef] | None,
    sub: list[str] | None,
    lot_seed: int,
    undefeated_champion: bool | None,
) -> Standings:
    if criteria is None:
        if isinstance(inp.opengotha, OGParameters):
            crits = [c for c in inp.opengotha.criteria if c != "NULL"]
            return opengotha_standings(inp, r, crits or ["NULL"], sub)
        refs = [CriterionRef(c.criterion.value, spec=c) for c in inp.ranking.criteria]
        return _chinese(inp, r, refs, sub, lot_seed, undefeated_champion, headers=False)
    if all(ref.og is not None for ref in criteria):
        return opengotha_standings(
            inp, r, [ref.og for ref in criteria if ref.og], sub, given=[c.given for c in criteria]
        )
    return _chinese(inp, r, list(criteria), sub, lot_seed, undefeated_champion, headers=True)


def _chinese(
    inp: StandingsInput,
    r: int,
    refs: list[CriterionRef],
    subset: list[str] | None,
    lot_seed: int,
    undefeated_champion: bool | None,
    headers: bool,
) -> Standings:
    specs = [ref.spec for ref in refs if ref.spec is not None]
    table = compute_table(
        inp.players, inp.games, r, inp.scoring, inp.ranking, specs, lot_seed=lot_seed,
        round_keys=inp.round_keys,
    )
    scores: OGScores | None = None
    if any(ref.og for ref in refs):
        if any(ref.og in ("DC", "SDC") for ref in refs):
            raise TextError(
                Text(
                    "DC/SDC 只能与 OpenGotha 指标一起使用; 中文规程请用 直胜 (direct)",
                    "DC/SDC only work in an all-OpenGotha list; use direct (直胜) with ours",
                )
            )
        scores = compute_og_scores(inp.players, inp.games, og_params(inp))
    keys: list[RankKey] = []
    seen: set[str] = set()
    for ref in refs:
        header = ref.given if headers else ""
        if ref.spec is not None:
            crit = ref.spec.criterion
            key = "direct" if crit == Criterion.DIRECT else column_key(ref.spec)
            if key in seen:
                continue
            seen.add(key)
            if crit == Criterion.DIRECT:
                keys.append(RankKey(key, ref.label, direct=True, header=header))
            else:
                keys.append(
                    RankKey(
                        key,
                        ref.label,
                        table.columns[key],
                        lower_is_better=CRITERIA[crit].lower_is_better,
                        header=header,
                    )
                )
        else:
            assert scores is not None and ref.og is not None
            key = ref.og
            if key in seen:
                continue
            seen.add(key)
            og = ref.og
            vals = [og_value(scores.value(og, i, r), og) for i in range(len(inp.players))]
            keys.append(RankKey(key, ref.label, vals, header=header))
    if not headers:  # the regulation's own list: its 小循环 setting applies
        keys = with_mini_league(keys, inp.ranking)
    display = [k for k in keys if not k.direct]
    if "score" not in seen:
        display.insert(0, RankKey("score", tr("积分", "score"), table.columns["score"]))
    columns = {k.key: k.values for k in display}

    def values_for_row(i: int) -> dict[str, Value]:
        return {key: col[i] for key, col in columns.items() if col is not None}

    index = table.ledger.index
    use_undefeated = (
        inp.ranking.undefeated_champion if undefeated_champion is None else undefeated_champion
    )
    st = rank_by_keys(
        table.players,
        keys,
        r,
        values_for_row,
        subset=None if subset is None else [index[pid] for pid in subset],
        direct=lambda members: direct_points(table.ledger, members),
        undefeated=table.undefeated if use_undefeated else None,
    )
    st.title = inp.title
    st.display = display
    return st


def opengotha_standings(
    inp: StandingsInput,
    r: int,
    crits: Sequence[str],
    subset: Iterable[str] | None = None,
    given: Sequence[str] | None = None,
) -> Standings:
    """OpenGotha's placement and values after round ``r`` (ex aequo places when all equal)."""
    scores = compute_og_scores(inp.players, inp.games, og_params(inp))
    od = og_order(scores, r, crits)
    shown = [c for c in crits if c != "NULL"]
    headers = list(given) if given is not None else [""] * len(shown)
    keys = [RankKey(c, OG_LABELS.get(c, c), header=h) for c, h in zip(shown, headers, strict=False)]
    order = od.order
    if subset is not None:
        ids = set(subset)
        wanted = {i for i, p in enumerate(scores.players) if p.id in ids}
        order = [i for i in order if i in wanted]

    def raw(i: int) -> tuple[int, ...]:
        return tuple(od.criterion_value(scores, c, i) for c in shown)

    rows: list[StandingRow] = []
    decisions: dict[tuple[str, str], Decision] = {}
    place = 0
    for k, i in enumerate(order):
        mine = raw(i)
        shared_with_prev = k > 0 and raw(order[k - 1]) == mine
        if not shared_with_prev:
            place = k + 1
        values = {c: og_value(v, c) for c, v in zip(shown, mine, strict=True)}
        rows.append(StandingRow(place, inp.players[i], values))
        if k > 0:
            up = order[k - 1]
            upper = raw(up)
            pair = (inp.players[up].id, inp.players[i].id)
            for c, a, b in zip(shown, upper, mine, strict=True):
                if a != b:
                    decisions[pair] = Decision(
                        "criterion", c, OG_LABELS.get(c, c), og_value(a, c), og_value(b, c)
                    )
                    break
            else:
                decisions[pair] = Decision("tie", "", tr("并列", "tie"))
    # mark shared places
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.place] = counts.get(row.place, 0) + 1
    rows = [
        StandingRow(row.place, row.player, row.values, shared=counts[row.place] > 1) for row in rows
    ]
    return Standings(
        rows=rows, keys=keys, round=r, decisions=decisions, title=inp.title, mode="opengotha"
    )


__all__ = ["compute_standings", "default_round", "og_value", "opengotha_standings"]
