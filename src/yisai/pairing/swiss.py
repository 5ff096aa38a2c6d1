"""积分编排: pair one round of a Swiss division, with the reasons for every decision.

``pair_round`` is pure: the same players, games, controls, settings and seed always give the
same ``RoundPairing``. Round 1 is seeded (rank → rating → lot) and paired by the regulation's
method; later rounds are one maximum-weight matching (graph.py, weights.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from yisai.i18n import Text, tr
from yisai.lot import lot, pair_lot, shuffled
from yisai.pairing.colours import MAX_COLOUR_COST, choose_colours, colour_costs
from yisai.pairing.graph import BYE, Layout, Node, Solution, solve
from yisai.pairing.history import PlayerHistory, build_histories
from yisai.pairing.model import (
    BoardPairing,
    ByeAssignment,
    Controls,
    Entrant,
    PairingError,
    RoundPairing,
)
from yisai.pairing.table import PairTable
from yisai.pairing.weights import LEVELS, LOT_RANGE, TIE_BITS
from yisai.record import Game
from yisai.regulation.rules import AVOID_WORDS, PairingRules, Scoring

assert MAX_COLOUR_COST < 256  # colour costs stay a small level (8 bits)


def seeding_order(players: Sequence[Entrant], rules: PairingRules, seed: int) -> list[str]:
    """Players in seeding order (种子顺序): the regulation's keys, strongest first, then lot."""

    def key(p: Entrant) -> tuple[int, ...]:
        parts: list[int] = []
        for k in rules.round1_seeding:
            if k == "rank":
                parts.append(-p.rank.value)
            elif k == "rating":
                parts.append(-p.rating)
            else:
                parts.append(lot(seed, "seeding", p.id))
        parts.append(lot(seed, "seeding", p.id))
        return tuple(parts)

    return [p.id for p in sorted(players, key=key)]


def round1_order(seeded: list[str], method: str, seed: int) -> list[str]:
    """Reorder a seeded list so that "i-th against i + n/2" gives the regulation's method."""
    half = len(seeded) // 2
    top, bottom = seeded[:half], seeded[half:]
    if method == "fold":  # 1 v n, 2 v n-1, ...
        return top + bottom[::-1]
    if method == "split_lot":  # top half v a drawn member of the bottom half
        return top + shuffled(bottom, seed, "round1-split")
    if method == "random":
        return shuffled(seeded, seed, "round1-random")
    return seeded  # slide: 1 v n/2+1


def _validate(players: Sequence[Entrant], absent: Collection[str], controls: Controls) -> None:
    ids = [p.id for p in players]
    dup = sorted({i for i in ids if ids.count(i) > 1}) if len(set(ids)) != len(ids) else []
    if dup:
        raise PairingError(Text(f"棋手编号重复: {', '.join(dup)}", f"duplicate player ids: {', '.join(dup)}"), tuple(dup))
    known = set(ids)
    named: list[str] = [*controls.requested_byes, *controls.sit_outs]
    for a, b in (*controls.fixed_pairs, *controls.forbidden_pairs):
        named += [a, b]
    unknown = sorted({x for x in [*named, *absent] if x not in known})
    if unknown:
        raise PairingError(
            Text(f"裁判长指令中有未知棋手: {', '.join(unknown)}", f"unknown players in controls: {', '.join(unknown)}"),
            tuple(unknown),
        )
    used: list[str] = [*controls.requested_byes, *controls.sit_outs]
    for a, b in controls.fixed_pairs:
        if a == b:
            raise PairingError(Text(f"指定对局的双方是同一人: {a}", f"fixed pair with itself: {a}"), (a,))
        used += [a, b]
    twice = sorted({x for x in used if used.count(x) > 1})
    if twice:
        raise PairingError(
            Text(f"同一棋手被指定了两次(指定对局/轮空/不参赛): {', '.join(twice)}",
               f"player named twice in fixed pairs/byes/sit-outs: {', '.join(twice)}"),
            tuple(twice),
        )
    clash = sorted(set(used) & set(absent))
    if clash:
        raise PairingError(
            Text(f"缺席棋手不能被指定对局或轮空: {', '.join(clash)}",
               f"absent players cannot have fixed pairs or byes: {', '.join(clash)}"),
            tuple(clash),
        )


@dataclass(slots=True)
class Problem:
    """One round's matching problem, before solving (tests brute-force it on small fields)."""

    round_no: int
    layout: Layout
    allowed: Callable[[Node, Node], bool]
    adjacent: bool
    pool: list[str]
    hist: dict[str, PlayerHistory]
    by_id: dict[str, Entrant]
    rank_of: dict[str, int]
    byes: list[ByeAssignment]
    explanations: list[str]
    sit_outs: tuple[str, ...]
    table: PairTable
    avoid_key: str | None = None

    def cost(self, u: Node, v: Node) -> list[int]:
        """The cost vector of the pair ``u``–``v`` (``u`` placed above ``v``), one level per
        ``weights.LEVELS``: read from the round's cost table, the one definition of the cost."""
        return [int(x) for x in self.table.vectors(np.array([u.idx]), np.array([v.idx]))[0]]


def pair_round(
    players: Sequence[Entrant],
    games: Sequence[Game],
    round_no: int,
    *,
    rules: PairingRules | None = None,
    scoring: Scoring | None = None,
    seed: int = 0,
    absent: Collection[str] = (),
    controls: Controls | None = None,
    order: Sequence[str] | None = None,
) -> RoundPairing:
    """Pair round ``round_no`` of one division/stage.

    ``players``: every entrant of the division (withdrawn players simply left out);
    ``games``: all earlier rounds' games and byes; ``absent``: players not playing this round;
    ``order``: current placement order (standings) used inside score groups — by default the
    seeding order (rank, rating, lot). Raises ``PairingError`` (Chinese message, ``blocking``
    players) when the round cannot be paired without a rematch.
    """
    rules = rules or PairingRules()
    scoring = scoring or Scoring()
    controls = controls or Controls()
    prob = prepare_round(players, games, round_no, rules=rules, scoring=scoring, seed=seed,
                         absent=absent, controls=controls, order=order)
    solution = (solve(prob.layout, prob.table) if prob.pool
                else Solution([], [], True, 0, 0, exact=True, levels=len(LEVELS), score_ok=True))
    if solution.unmatched:
        raise _no_pairing_error(round_no, solution, prob.hist, prob.pool)
    would_meet = _teammates_without_avoidance(
        prob, players, games, round_no, rules=rules, scoring=scoring, seed=seed, absent=absent,
        controls=controls, order=order)
    boards, warnings = _boards(solution, controls, prob, rules, seed, scoring, would_meet)
    return RoundPairing(
        round=round_no,
        boards=tuple(boards),
        byes=tuple(prob.byes),
        sit_outs=prob.sit_outs,
        explanations=(*prob.explanations, *_summary(prob.layout, solution)),
        warnings=tuple(warnings),
        stats={
            "certified": int(solution.certified),
            "exact": int(solution.exact),
            "levels": solution.levels,
            "checks": solution.checks,
            "added": solution.added,
            "widenings": solution.widenings,
            "edges": solution.edges,
            "blocks": solution.blocks,
        },
    )


def prepare_round(
    players: Sequence[Entrant],
    games: Sequence[Game],
    round_no: int,
    *,
    rules: PairingRules | None = None,
    scoring: Scoring | None = None,
    seed: int = 0,
    absent: Collection[str] = (),
    controls: Controls | None = None,
    order: Sequence[str] | None = None,
) -> Problem:
    """Everything ``pair_round`` needs before the matching: histories, pool, layout, costs
    (``PairingError`` already here for bad controls, e.g. a fixed pair that is a rematch)."""
    rules = rules or PairingRules()
    scoring = scoring or Scoring()
    controls = controls or Controls()
    if round_no < 1:
        raise PairingError(Text(f"轮次必须从1开始: {round_no}", f"rounds start at 1: {round_no}"))
    _validate(players, absent, controls)
    by_id = {p.id: p for p in players}
    hist = build_histories(by_id, games, round_no, scoring)

    for a, b in controls.fixed_pairs:
        if b in hist[a].opponents:
            raise PairingError(
                Text(f"指定对局 {a}—{b} 是重复对局, 规程不允许", f"fixed pair {a}—{b} is a rematch"), (a, b)
            )
    seeded = seeding_order(players, rules, seed)
    first_round = round_no == 1
    placement = list(order) if order is not None and not first_round else _default_order(seeded, hist)
    placed = set(placement)
    placement += [p for p in seeded if p not in placed]
    rank_of = {pid: i for i, pid in enumerate(placement)}

    taken = set(absent) | set(controls.sit_outs) | set(controls.requested_byes)
    taken |= {x for pair in controls.fixed_pairs for x in pair}
    pool = [pid for pid in placement if pid not in taken]

    explanations: list[str] = []
    byes: list[ByeAssignment] = [
        ByeAssignment(p, scoring.bye, tr("裁判长批准的轮空", "bye granted by the director"), True)
        for p in controls.requested_byes
    ]
    forbidden = {frozenset(p) for p in controls.forbidden_pairs}
    avoid_key = rules.avoid_in(round_no)
    adjacent = rules.in_group == "adjacent"

    if first_round:
        pool, bye = _round1_pool(pool, seeded, rules, seed, hist)
        adjacent = False
        if bye is not None:
            byes.append(ByeAssignment(bye, scoring.bye, tr(
                "人数为奇数, 第一轮轮空给种子顺序最后的棋手",
                "odd number of players: the round-1 bye goes to the lowest seed")))
        explanations.append(tr(
            f"第一轮: 按{'、'.join(_SEED_CN[k] for k in rules.round1_seeding)}排序, 方法: {_METHOD_CN[rules.round1_method]}",
            f"round 1: seeded by {', '.join(rules.round1_seeding)}, method: {rules.round1_method}",
        ))
    if rules.avoid_policy():
        explanations.append(
            tr(f"同单位回避: {rules.avoid_policy()}; 第{round_no}轮", f"avoidance: {rules.avoid_policy()}; round {round_no} ")
            + (tr("回避", "avoids them") if avoid_key is not None else tr("不再回避", "no longer avoids them")))
    layout = _layout(pool, hist, scoring, odd_bye=len(pool) % 2 == 1)

    ccost = {p: colour_costs(hist[p]) for p in pool}
    own_lot = {p: lot(seed, round_no, p) for p in pool}

    def allowed(u: Node, v: Node) -> bool:
        return v.pid == BYE or v.pid not in hist[u.pid].opponents

    sit = tuple(sorted(set(absent) | set(controls.sit_outs), key=lambda p: rank_of.get(p, 0)))
    table = _table(layout, hist, by_id, ccost, own_lot, forbidden, avoid_key, adjacent,
                   rules.colour_balance, seed, round_no)
    return Problem(round_no, layout, allowed, adjacent, pool, hist, by_id, rank_of, byes,
                   explanations, sit, table, avoid_key)


def _table(layout: Layout, hist: dict[str, PlayerHistory], by_id: dict[str, Entrant],
           ccost: dict[str, tuple[int, int]], own_lot: dict[str, int],
           forbidden: set[frozenset[str]], avoid_key: str | None, adjacent: bool,
           colour_balance: bool, seed: int, round_no: int) -> PairTable:
    """The round's per-player attributes from which table.py computes every pair's cost."""
    nodes = layout.nodes
    n = len(nodes)
    at = {nd.pid: nd.idx for nd in nodes}
    real = [nd for nd in nodes if nd.pid != BYE]

    def col(values: list[int]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    teams: dict[str, int] = {}
    team = [-1] * n
    cb, cw, own, bye_lot, had = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    bye_tie = [0] * n
    for nd in real:
        value = by_id[nd.pid].affiliation(avoid_key) if avoid_key is not None else None
        if value is not None:
            team[nd.idx] = teams.setdefault(value, len(teams))
        cb[nd.idx], cw[nd.idx] = ccost[nd.pid]
        own[nd.idx] = own_lot[nd.pid]
        bye_lot[nd.idx] = lot(seed, round_no, "bye", nd.pid, modulo=LOT_RANGE)
        bye_tie[nd.idx] = lot(seed, round_no, "bye-tie", nd.pid, modulo=2**TIE_BITS)
        had[nd.idx] = hist[nd.pid].byes
    met = sorted({min(at[a], at[b]) * n + max(at[a], at[b])
                  for a in at if a != BYE for b in hist[a].opponents if b in at})
    forb = sorted({min(at[a], at[b]) * n + max(at[a], at[b])
                   for a, b in (tuple(p) for p in forbidden if len(p) == 2)
                   if a in at and b in at})
    return PairTable(
        score=col([nd.score for nd in nodes]), group=col([nd.group for nd in nodes]),
        pos=col([nd.pos for nd in nodes]), gsize=col([nd.gsize for nd in nodes]),
        team=col(team), colour_black=col(cb), colour_white=col(cw), lot=col(own),
        bye_lot=col(bye_lot), had_bye=col(had), bye=at.get(BYE, -1), adjacent=adjacent,
        colour_balance=colour_balance, lot_range=LOT_RANGE, forbidden=col(forb), met=col(met),
        bye_tie=col(bye_tie),
    )


_LEVEL_CN = ("禁止配对", "不重复轮空", "积分差", "同队回避", "组内顺序", "黑白", "席位", "抽签")
_SEED_CN = {"rank": "段位", "rating": "等级分", "lot": "抽签"}
_METHOD_CN = {
    "slide": "上半区对下半区(1对n/2+1)",
    "fold": "折叠(1对n)",
    "split_lot": "上半区对抽签的下半区",
    "random": "完全随机",
}


def _default_order(seeded: list[str], hist: dict[str, PlayerHistory]) -> list[str]:
    """Placement when no standings order is given: score, then seeding order."""
    pos = {p: i for i, p in enumerate(seeded)}
    return sorted(seeded, key=lambda p: (-hist[p].score, pos[p]))


def _round1_pool(pool: list[str], seeded: list[str], rules: PairingRules, seed: int,
                 hist: dict[str, PlayerHistory]) -> tuple[list[str], str | None]:
    """Round-1 order of the pool by the regulation's method, with the bye (lowest seed) removed."""
    in_pool = set(pool)
    ordered = [p for p in seeded if p in in_pool]
    bye = None
    if len(ordered) % 2:
        candidates = [p for p in ordered if hist[p].byes == 0] or ordered
        bye = candidates[-1]
        ordered.remove(bye)
    return round1_order(ordered, rules.round1_method, seed), bye


def _layout(pool: list[str], hist: dict[str, PlayerHistory], scoring: Scoring,
            odd_bye: bool) -> Layout:
    """Score groups, highest first, players in placement order; the bye vertex last."""
    scores = sorted({hist[p].score for p in pool}, reverse=True)
    members: dict[int, list[str]] = {s: [] for s in scores}
    for p in pool:
        members[hist[p].score].append(p)
    groups: list[list[Node]] = []
    idx = 0
    for gi, s in enumerate(scores):
        groups.append([Node(p, s, gi, pos, len(members[s]), idx + pos)
                       for pos, p in enumerate(members[s])])
        idx += len(members[s])
    if odd_bye:
        step = max(scoring.win - scoring.loss, 1)
        groups.append([Node(BYE, (scores[-1] if scores else 0) - step, len(groups), 0, 1, idx)])
    return Layout(groups)


def _no_pairing_error(round_no: int, sol: Solution, hist: dict[str, PlayerHistory],
                      pool: list[str]) -> PairingError:
    stuck = [p for p in sol.unmatched if p != BYE]
    left = {p: len(set(pool) - hist[p].opponents - {p}) for p in stuck}
    zh = ", ".join(f"{p}({n}个可选对手)" for p, n in left.items())
    en = ", ".join(f"{p}({n} possible opponents)" for p, n in left.items())
    return PairingError(
        Text(
            f"第{round_no}轮无法在不重复对局的情况下完成编排(轮次相对人数过多)。无法配对的棋手: {zh}",
            f"round {round_no} cannot be paired without a rematch (too many rounds for the field). "
            f"Players left unpaired: {en}",
        ),
        tuple(stuck),
    )


def _teammates_without_avoidance(
    prob: Problem, players: Sequence[Entrant], games: Sequence[Game], round_no: int, *,
    rules: PairingRules, scoring: Scoring, seed: int, absent: Collection[str], controls: Controls,
    order: Sequence[str] | None,
) -> dict[str, str]:
    """Who would have met a teammate had the round been paired without avoidance (player →
    that teammate), so each board can say what the avoidance changed.

    The same round is paired once more with avoidance off (same seed, same controls): only when
    avoidance is on this round and two players of the pool share a team/province/…"""
    key = prob.avoid_key
    if key is None:
        return {}
    values = [prob.by_id[p].affiliation(key) for p in prob.pool]
    named = [v for v in values if v is not None]
    if len(set(named)) == len(named):
        return {}
    free = rules.model_copy(update={"avoid_same": None, "avoid_rounds": 0})
    alt = prepare_round(players, games, round_no, rules=free, scoring=scoring, seed=seed,
                        absent=absent, controls=controls, order=order)
    sol = solve(alt.layout, alt.table)
    out: dict[str, str] = {}
    for u, v in sol.pairs:
        if v.pid == BYE:
            continue
        mine = prob.by_id[u.pid].affiliation(key)
        if mine is not None and mine == prob.by_id[v.pid].affiliation(key):
            out[u.pid], out[v.pid] = v.pid, u.pid
    return out


def _avoid_reason(u: str, v: str, prob: Problem, same: bool, would_meet: dict[str, str]) -> str | None:
    """What same-team avoidance did on this board: could not avoid, or avoided whom."""
    key = prob.avoid_key
    if key is None:
        return None
    word = AVOID_WORDS[key]
    if same:
        unit = prob.by_id[u].affiliation(key)
        return tr(f"同{word.zh}({unit})未能回避: 本轮同{word.zh}对局已减至最少, "
                  f"再回避需重复对局、禁止配对或更大的积分差",
                  f"same {word.en} ({unit}) not avoided: this round already has the fewest such "
                  f"games; avoiding more would need a rematch, a forbidden pair or a larger score gap")
    parts = []
    for p, partner in ((u, v), (v, u)):
        mate = would_meet.get(p)
        if mate is not None and mate != partner:
            unit = prob.by_id[p].affiliation(key)
            parts.append(tr(f"不回避时 {p} 将对同{word.zh}的 {mate}({unit})",
                            f"without avoidance {p} would meet {mate} of the same {word.en} ({unit})"))
    if not parts:
        return None
    return tr("已回避同", "avoided the same ") + tr(word.zh, word.en) + ": " + tr("; ", "; ").join(parts)


def _boards(sol: Solution, controls: Controls, prob: Problem, rules: PairingRules, seed: int,
            scoring: Scoring, would_meet: dict[str, str]) -> tuple[list[BoardPairing], list[str]]:
    """Turn matched pairs into boards (colours, reasons), add fixed pairs, number the boards."""
    hist, rank_of, byes, layout = prob.hist, prob.rank_of, prob.byes, prob.layout
    round_no = prob.round_no
    warnings: list[str] = []
    raw: list[BoardPairing] = []
    sizes = {g[0].score: len(g) for g in layout.groups if g[0].pid != BYE}
    for u, v in sol.pairs:  # players who floated into a group count with it
        if v.pid != BYE and u.score != v.score:
            sizes[v.score] = sizes.get(v.score, 0) + 1
    for (u, v), vec in zip(sol.pairs, sol.vectors, strict=True):
        if v.pid == BYE:
            byes.append(ByeAssignment(u.pid, scoring.bye, _bye_reason(u, hist, layout)))
            if vec[1]:
                warnings.append(tr(f"{u.pid} 第二次轮空: 其他棋手均无法轮空",
                                   f"{u.pid} gets a second bye: no other player could"))
            continue
        reasons = [_group_reason(u, v, sizes)]
        avoided = _avoid_reason(u.pid, v.pid, prob, bool(vec[3]), would_meet)
        if avoided is not None:
            reasons.append(avoided)
        if vec[0]:
            warnings.append(tr(f"{u.pid}—{v.pid} 为禁止配对, 但别无他法",
                               f"{u.pid}—{v.pid} is forbidden but unavoidable"))
            reasons.append(tr("禁止配对无法回避", "forbidden pair unavoidable"))
        black, white, why = choose_colours(
            u.pid, v.pid, hist[u.pid], hist[v.pid],
            pair_lot(seed, round_no, u.pid, v.pid, 2) if u.pid <= v.pid
            else 1 - pair_lot(seed, round_no, u.pid, v.pid, 2),
            rules.colour_balance,
        )
        raw.append(BoardPairing(0, black, white, hist[black].score, hist[white].score,
                                tuple(reasons), why))
    for black, white in controls.fixed_pairs:
        raw.append(BoardPairing(0, black, white, hist[black].score, hist[white].score,
                                (tr("裁判长指定对局", "pair fixed by the director"),),
                                tr("黑白由裁判长指定", "colours fixed by the director"), True))
    raw.sort(key=lambda b: (-max(b.black_score, b.white_score), -min(b.black_score, b.white_score),
                            min(rank_of.get(b.black, 0), rank_of.get(b.white, 0))))
    boards = [
        BoardPairing(i + 1, b.black, b.white, b.black_score, b.white_score, b.reasons,
                     b.colour_reason, b.fixed)
        for i, b in enumerate(raw)
    ]
    return boards, warnings


def _group_reason(u: Node, v: Node, sizes: dict[int, int]) -> str:
    if u.score == v.score:
        return tr(f"同分组配对({u.score}分组第{u.pos + 1}名对第{v.pos + 1}名, 共{u.gsize}人)",
                  f"same score group ({u.score} points, #{u.pos + 1} v #{v.pos + 1} of {u.gsize})")
    if sizes.get(u.score, 0) % 2:
        why = tr(f"{u.score}分组(含降入者)人数为奇数({sizes[u.score]}人)",
                 f"the {u.score}-point group (with players floated in) is odd ({sizes[u.score]})")
    else:
        why = tr(f"{u.score}分组内无法全部配对(避免重复对局、禁止配对或同队回避)",
                 f"the {u.score}-point group cannot be paired within itself (rematches, "
                 f"forbidden pairs or team avoidance)")
    return tr(f"{u.pid} 从{u.score}分组降至{v.score}分组: {why}",
              f"{u.pid} floats down from {u.score} to {v.score}: {why}")


def _bye_reason(u: Node, hist: dict[str, PlayerHistory], layout: Layout) -> str:
    nodes = [n for n in layout.nodes if n.pid != BYE]
    lower = [n.pid for n in nodes if (n.group, n.pos) > (u.group, u.pos) and hist[n.pid].byes == 0]
    base = tr("人数为奇数", "odd number of players")
    if hist[u.pid].byes:
        return base + tr(": 所有棋手均已轮空过, 再次轮空", ": everyone has had a bye; a second bye")
    if not lower:
        return base + tr(f"; {u.pid} 是未轮空过的棋手中名次最低者",
                         f"; {u.pid} is the lowest-placed player without a bye")
    return base + tr(
        f"; 名次更低的未轮空棋手({', '.join(lower[:5])})轮空会导致重复对局或更多降级",
        f"; a bye to a lower player ({', '.join(lower[:5])}) would force a rematch or more floats",
    )


def _summary(layout: Layout, sol: Solution) -> list[str]:
    groups = [g for g in layout.groups if g[0].pid != BYE]
    parts = ", ".join(f"{g[0].score}分×{len(g)}" for g in groups)
    floats = sum(1 for u, v in sol.pairs if v.pid != BYE and u.score != v.score)
    line = tr(f"分组: {parts}; 跨分组配对 {floats} 对", f"score groups: {parts}; {floats} floating pairs")
    if sol.exact:
        line += tr("; 已证明在所有可行配对中各优先级均最优",
                   "; proven optimal on every priority level over all allowed pairs")
    elif sol.levels:
        upto = _LEVEL_CN[sol.levels - 1]
        line += tr(f"; 已证明至「{upto}」级为全图最优",
                   f"; proven optimal over all allowed pairs down to the {LEVELS[sol.levels - 1]} level")
    return [line]
