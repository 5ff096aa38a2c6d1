"""录取名次与奖励: prize lists, special awards and participation awards, as the regulation says.

Rules applied (each one a field of ``yisai.regulation.prizes``):

* A list awards the top ``places`` of its ranking; conditional rules (``by_entrants``) cut that
  when there are fewer entrants than they say (不足16人只录取前6名), and ``fewer_entrants =
  n_minus_1`` is the rule "fewer entrants than places: n−1" (seed 002 九(二)).
* Tied places (并列): each takes the prize of the place, or with ``prizes.tied_places = share``
  they share the money of the places they occupy equally (two tied 2nd share 2nd + 3rd).
* ``others_keep_place``: the list is read from the division's unfiltered ranking, so a woman
  inside the "男子个人" top 32 takes that place and its prize and nobody moves down
  (seed 000 十三(一)1 "名次不再顺延").
* A player in two lists is paid both only if one list names the other in ``cumulative_with``
  (女子奖金与混合名次奖金可累积); otherwise he keeps the larger prize and the other line shows
  0 with the reason — places are not re-assigned.
* Special awards pick from their ranking the best ``places`` players of a gender or age
  (age on the stage's first day); a non-cumulative special award skips players who already
  have a paid prize in the same division.
* Participation awards go to every entrant of the divisions not in the excluded lists.

Amounts are integers in yuan; they are called pre-tax only when the regulation says so
(``prizes.pre_tax``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from yisai.awards.decisions import PrizeDecisions
from yisai.awards.inputs import EventResults, is_base
from yisai.i18n import tr
from yisai.registry.person import Player
from yisai.regulation.divisions import RankingList
from yisai.regulation.prizes import (
    CeremonyAbsence,
    EntrantRule,
    Grade,
    GradedAward,
    JudgedAward,
    ParticipationAward,
    PrizeKind,
    PrizeList,
    PrizeRow,
    SpecialAward,
)
from yisai.regulation.schema import Regulation
from yisai.regulation.team_match import BoardPrize
from yisai.standings.teams import BoardPrizeRow, RankingKey, RankingTable, TeamTable
from yisai.vocabulary import Gender
from yisai.vocabulary.money import yuan_text

KIND_LABELS: dict[str, str] = {"cash": "奖金", "ecard": "电商卡", "gift": "实物", "honour": "荣誉"}


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One awarded place. ``amount`` is what is paid; ``nominal`` what the table says."""

    place: int | None
    name: str
    player_id: str | None = None
    team_id: str | None = None
    amount: int = 0
    nominal: int | None = None
    gift: str | None = None
    shared: bool = False
    note: str = ""
    docked: int = 0  # 分 docked for missing the ceremony (the referee's decision or the fixed share)
    tax: int = 0  # 分 of income tax withheld (prizes.tax_withheld_percent)

    @property
    def net(self) -> int:
        """实发 in 分: the amount less docking and tax."""
        return self.amount * 100 - self.docked - self.tax


@dataclass(frozen=True, slots=True)
class PrizeListResult:
    id: str
    name: str
    division: str
    kind: PrizeKind
    source: str  # "list" | "special" | "participation"
    items: tuple[str, ...]
    places: int  # places actually awarded (after n−1)
    entrants: int
    lines: tuple[PrizeLine, ...]
    note: str = ""

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)

    @property
    def net(self) -> int:
        """实发 of the list in 分."""
        return sum(line.net for line in self.lines)


@dataclass(frozen=True, slots=True)
class PrizeReport:
    lists: tuple[PrizeListResult, ...]
    pre_tax: bool = False  # the regulation states the amounts are pre-tax (prizes.pre_tax)
    value_note: str = ""  # the regulation's own note on the amounts (prizes.value_note)
    pool: int | None = None  # prizes.pool: the total the regulation states
    pool_decision: str = ""  # the chief referee's decision on an overrun ("" = still open)
    tax_percent: int | None = None  # prizes.tax_withheld_percent
    souvenir: str = ""  # prizes.souvenir: one for every player
    souvenirs: int = 0  # how many: every entrant of every division, once

    @property
    def overrun(self) -> int:
        """Yuan the prizes as computed pay above the stated pool (0: within it). Tied places paid
        in full can do this; it is the chief referee's decision, never a reason to stop."""
        return max(self.total - self.pool, 0) if self.pool is not None else 0

    @property
    def docked(self) -> int:
        return sum(ln.docked for pl in self.lists for ln in pl.lines)

    @property
    def tax(self) -> int:
        return sum(ln.tax for pl in self.lists for ln in pl.lines)

    @property
    def net(self) -> int:
        """实发 in 分 over every list."""
        return sum(pl.net for pl in self.lists)

    @property
    def total(self) -> int:
        """Payout total in yuan (cash and e-card values; gifts and honours carry no amount)."""
        return sum(pl.total for pl in self.lists)

    @property
    def totals_by_kind(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for pl in self.lists:
            if pl.total:
                out[pl.kind] += pl.total
        return dict(out)

    @property
    def gifts(self) -> int:
        return sum(1 for pl in self.lists for ln in pl.lines if ln.gift)

    def list(self, list_id: str) -> PrizeListResult:
        for pl in self.lists:
            if pl.id == list_id:
                return pl
        raise KeyError(list_id)

    def per_player(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for pl in self.lists:
            for ln in pl.lines:
                if ln.player_id is not None:
                    out[ln.player_id] += ln.amount
        return dict(out)



# ---------------------------------------------------------------------------------------------


def awarded_places(places: int, entrants: int, rules: Sequence[EntrantRule] = ()) -> tuple[int, EntrantRule | None]:
    """录取名额 and the conditional rule that set it: ``places``, never more than the entrants;
    with fewer entrants than a rule's ``below`` (the smallest such ``below`` wins) its places
    (不足16人只录取前6名) or n − ``minus`` (seed 002 九(二): 不足8人按总人数减1录取)."""
    applicable = [r for r in rules if entrants < r.below]
    if not applicable:
        return min(places, entrants), None
    rule = min(applicable, key=lambda r: r.below)
    cut = rule.places if rule.places is not None else max(entrants - (rule.minus or 0), 0)
    return min(cut, places, entrants), rule


def _cut_note(pl: PrizeList, n: int, cut: int, rule: EntrantRule | None) -> str:
    if rule is None:
        if cut < pl.places:
            return tr(f"参赛{n}人，不足{pl.places}人，全部录取", f"{n} entrants: all awarded")
        return ""
    if rule.minus is not None:
        return tr(f"参赛{n}人，不足{rule.below}人，按总人数减{rule.minus}录取{cut}名",
                  f"{n} entrants, fewer than {rule.below}: n−{rule.minus} = {cut} awarded")
    return tr(f"参赛{n}人，不足{rule.below}人，只录取前{cut}名",
              f"{n} entrants, fewer than {rule.below}: only the top {cut} awarded")


def shared_amount(rows: Sequence[PrizeRow], place: int, tied: int, cut: int, unit: str = "人") -> tuple[int, str]:
    """名次并列, 奖金平分: ``tied`` players sharing ``place`` split the money of places
    place..place+tied−1 (those within the ``cut``) equally, in whole yuan; a remainder that does
    not split is stated."""
    last = min(place + tied - 1, cut)
    pool = sum((row.amount or 0) for q in range(place, last + 1) if (row := amount_for(rows, q)))
    each, rest = divmod(pool, tied)
    span = tr(f"第{place}至{place + tied - 1}名", f"places {place}–{place + tied - 1}")
    note = tr(f"{tied}{unit}并列第{place}名，平分{span}奖金共{pool}元", f"{tied} tied for place {place}: "
              f"{span} prize money ({pool} yuan) shared")
    if rest:
        note += tr(f"（余{rest}元不可均分）", f" ({rest} yuan left over)")
    return each, note


def amount_for(rows: Sequence[PrizeRow], place: int) -> PrizeRow | None:
    for row in rows:
        if row.place_from <= place <= row.place_to:
            return row
    return None


def compute_prizes(results: EventResults) -> PrizeReport:
    reg = results.regulation
    tables = results.ranking_tables()
    team_tables = results.team_tables()
    lists = [_prize_list(pl, results, tables, team_tables) for pl in reg.prizes.lists]
    lists = _apply_cumulation(lists, {pl.id: pl for pl in reg.prizes.lists})
    specials = [_special(sa, results, tables, lists) for sa in reg.prizes.special]
    all_lists = lists + specials
    for pa in reg.prizes.participation:
        all_lists.append(_participation(pa, results, tables, all_lists))
    all_lists += [_board_prize(prize, rows, results) for prize, rows in results.board_prizes()]
    decisions = results.prize_decisions
    all_lists += [_graded(ga, results, tables) for ga in reg.prizes.graded]
    all_lists += [_judged(ja, results) for ja in reg.prizes.judged]
    return PrizeReport(
        lists=tuple(_as_paid(pl, reg, decisions) for pl in all_lists),
        pre_tax=reg.prizes.pre_tax,
        value_note=reg.prizes.value_note or "",
        pool=reg.prizes.pool,
        pool_decision=decisions.pool_note,
        tax_percent=reg.prizes.tax_withheld_percent,
        souvenir=reg.prizes.souvenir or "",
        souvenirs=len({pid for d in reg.divisions for pid in results.division_entrants(d.id)})
        if reg.prizes.souvenir else 0,
    )


def docking_cap(amount: int, rule: CeremonyAbsence) -> int:
    """The most (分) a prize of ``amount`` yuan may be docked: ``percent``% of it (exact in 分)."""
    return amount * rule.percent


def _as_paid(pl: PrizeListResult, reg: Regulation, decisions: PrizeDecisions) -> PrizeListResult:
    """Gross → docking (the referee's decision, or the fixed share) → tax withheld → net, on
    every line that pays money; amounts in 分, so nothing is rounded but the tax (to the 分)."""
    rule = reg.prizes.ceremony_absence
    rate = reg.prizes.tax_withheld_percent
    if pl.kind not in ("cash", "ecard") or (rule is None and rate is None):
        return pl
    lines = []
    for ln in pl.lines:
        if ln.amount <= 0:
            lines.append(ln)
            continue
        notes = [ln.note] if ln.note else []
        docked = 0
        decision = decisions.docking_for(pl.id, ln.player_id or ln.team_id)
        if decision is not None and rule is not None:
            cap = docking_cap(ln.amount, rule)
            docked = cap if rule.docking == "fixed" or decision.fen is None else min(decision.fen, cap)
            notes.append(tr(f"未参加颁奖仪式，扣除{yuan_text(docked, cents=False)}元", f"missed the ceremony: "
                            f"{yuan_text(docked, cents=False)} yuan docked") + (f"（{decision.note}）" if decision.note else ""))
        tax = 0
        if rate is not None and pl.kind == "cash":
            tax = ((ln.amount * 100 - docked) * rate + 50) // 100  # to the 分, half up
            notes.append(tr(f"代扣个税{yuan_text(tax, cents=False)}元", f"{yuan_text(tax, cents=False)} yuan tax withheld"))
        lines.append(replace(ln, docked=docked, tax=tax, note="；".join(notes)))
    return replace(pl, lines=tuple(lines))


def _judged(ja: JudgedAward, results: EventResults) -> PrizeListResult:
    """最佳进步奖 …: the players the chief referee named, in the order named (no place)."""
    named = [j for j in results.prize_decisions.judged if j.award_id == ja.id][:ja.count]
    lines = tuple(PrizeLine(place=None, name=_name(results.players, j.player_id), player_id=j.player_id,
                            amount=ja.amount or 0, nominal=ja.amount, gift=ja.gift,
                            note=tr("裁判长评定", "chief referee's decision") + (f"：{j.note}" if j.note else ""))
                  for j in named)
    note = "" if named else tr(f"待裁判长评定（至多{ja.count}名）", f"to be named by the chief referee "
                                                               f"(at most {ja.count})")
    return PrizeListResult(id=ja.id, name=ja.name, division=ja.division or "", kind=ja.kind, source="judged",
                           items=(), places=ja.count, entrants=len(lines), lines=lines, note=note)


def grade_counts(ga: GradedAward, entrants: int) -> list[int]:
    """How many each grade of a share award takes: its percent of the entrants, rounded as the
    regulation says (nearest: half up)."""
    out = []
    for g in ga.grades:
        exact = entrants * (g.percent or 0)
        out.append((exact + 50) // 100 if ga.rounding == "nearest" else exact // 100 if ga.rounding == "down"
                   else -(-exact // 100))
    return out


def _grade_line(g: Grade, place: int | None, pid: str, results: EventResults, note: str,
                shared: bool = False) -> PrizeLine:
    return PrizeLine(place=place, name=_name(results.players, pid), player_id=pid, amount=g.amount or 0,
                     nominal=g.amount, gift=g.gift, shared=shared, note="；".join(x for x in (g.name, note) if x))


def _graded(ga: GradedAward, results: EventResults, tables: Mapping[RankingKey, RankingTable]) -> PrizeListResult:
    """等级奖 by wins (the player's wins in the division's games, byes not counted) or by share of
    the entrants (the ranking cut at each grade's running count; a tie at the cut takes the
    higher grade)."""
    division = results.regulation.division(ga.division)
    rid = ga.ranking or next((r.id for r in division.rankings if is_base(r)), division.rankings[0].id)
    table = tables.get((ga.division, rid))
    rows = table.rows if table is not None else ()
    common: dict[str, Any] = {"id": ga.id, "name": ga.name, "division": ga.division, "kind": ga.kind,
                              "source": "graded", "items": ()}
    ties = _tie_counts([r.place for r in rows])
    lines: list[PrizeLine] = []
    if ga.by == "share":
        rl = next((r for r in division.rankings if r.id == rid), None)
        n = _entrants_for(results, ga.division, rl, table) if table is not None else 0
        counts = grade_counts(ga, n)
        cuts = [sum(counts[:k + 1]) for k in range(len(counts))]
        for r in rows:
            k = next((k for k, cut in enumerate(cuts) if r.place <= cut), None)
            if k is None:
                break
            lines.append(_grade_line(ga.grades[k], r.place, r.player_id, results,
                                     tr("并列", "shared") if ties[r.place] > 1 else "", ties[r.place] > 1))
        zh = "、".join(f"{g.name}{c}名({g.percent}%)" for g, c in zip(ga.grades, counts, strict=True))
        return PrizeListResult(**common, places=cuts[-1] if cuts else 0, entrants=n, lines=tuple(lines),
                               note=tr(f"参赛{n}人: {zh}", f"{n} entrants: " + ", ".join(
                                   f"{g.name} {c}" for g, c in zip(ga.grades, counts, strict=True))))
    wins: dict[str, int] = defaultdict(int)
    for game in results.games.get(ga.division, ()):
        if game.is_bye:
            continue
        for pid in (game.black, game.white):
            if pid is not None and game.outcome_for(pid) == "W":
                wins[pid] += 1
    order: list[tuple[int | None, str]] = [(r.place, r.player_id) for r in rows]
    order = order or [(None, pid) for pid in results.division_entrants(ga.division)]
    for place, pid in order:
        w = wins.get(pid, 0)
        g = next((g for g in ga.grades if (g.min_wins or 0) <= w <= (g.max_wins if g.max_wins is not None
                                                                      else w)), None)
        if g is not None:
            lines.append(_grade_line(g, place, pid, results, tr(f"{w}胜", f"{w} wins")))
    return PrizeListResult(**common, places=len(lines), entrants=len(order), lines=tuple(lines))


def source_ranking(reg: Regulation, pl: PrizeList) -> tuple[str, Gender | None]:
    """The ranking a list reads, and the gender it is for when the other gender keeps its places
    (``others_keep_place``: None otherwise). A list of one gender (``gender``, or a ranking by
    gender) is then read from the division's unfiltered ranking, so a player of the other gender
    inside its places takes hers and nobody moves down (如有女子选手进入, 名次不再顺延)."""
    rid = pl.ranking or ""
    if not pl.others_keep_place:
        return rid, None
    division = reg.division(pl.division)
    wanted = next((r for r in division.rankings if r.id == rid), None)
    if wanted is None:
        return rid, None
    if wanted.gender is None:  # the list reads the mixed ranking itself and names its gender
        return rid, pl.gender if wanted.min_age is None else None
    base = next((r for r in division.rankings if r.gender is None and r.min_age is None), None)
    if base is None:
        raise ValueError(
            f"奖项 {pl.id}: others_keep_place 需要组别 {pl.division} 有不分性别的名次表"
        )
    return base.id, wanted.gender


def _entrants_for(results: EventResults, division: str, rl: RankingList | None, table: RankingTable) -> int:
    """报名人数 of a ranking list: the table's own count, else entrants matching its filter."""
    if table.entrants is not None:
        return table.entrants
    if division not in results.entrants or rl is None:
        return len(table.rows)
    count = 0
    for pid in results.entrants[division]:
        p = results.players.get(pid)
        if p is None:
            continue
        if rl.gender is not None and p.gender != rl.gender:
            continue
        if rl.min_age is not None and rl.age_reference is not None:
            age = p.age_on(rl.age_reference)
            if age is None or age < rl.min_age:
                continue
        count += 1
    return count


def _name(players: Mapping[str, Player], pid: str) -> str:
    p = players.get(pid)
    return p.name if p is not None else pid


def _prize_list(
    pl: PrizeList,
    results: EventResults,
    tables: Mapping[RankingKey, RankingTable],
    team_tables: Mapping[str, TeamTable],
) -> PrizeListResult:
    common: dict[str, Any] = {
        "id": pl.id,
        "name": pl.name,
        "division": pl.division,
        "kind": pl.kind,
        "source": "list",
        "items": tuple(pl.items),
    }
    if pl.team_competition is not None:
        tt = team_tables.get(pl.team_competition)
        ranked = tt.ranked if tt is not None else ()
        n = len(ranked)
        cut, by_rule = awarded_places(pl.places, n, pl.entrant_rules())
        ties = _tie_counts([t.place for t in ranked if t.place is not None])
        share = results.regulation.prizes.tied_places == "share"
        lines = []
        for t in ranked:
            if t.place is None or t.place > cut:
                continue
            row = amount_for(pl.rows, t.place)
            amount, note = (row.amount or 0) if row else 0, tr("并列", "shared") if ties[t.place] > 1 else ""
            if share and ties[t.place] > 1 and row is not None and row.amount is not None:
                amount, note = shared_amount(pl.rows, t.place, ties[t.place], cut, "队")
            lines.append(
                PrizeLine(
                    place=t.place,
                    name=t.name,
                    team_id=t.team_id,
                    amount=amount,
                    nominal=row.amount if row else None,
                    gift=row.gift if row else None,
                    shared=ties[t.place] > 1,
                    note=note,
                )
            )
        return PrizeListResult(**common, places=cut, entrants=n, lines=tuple(lines),
                               note=_cut_note(pl, n, cut, by_rule))

    reg = results.regulation
    rid, kept_for = source_ranking(reg, pl)
    table = tables.get((pl.division, rid))
    if table is None:
        return PrizeListResult(
            **common,
            places=0,
            entrants=0,
            lines=(),
            note=tr(f"无名次表 {pl.division}/{rid} 的成绩", f"no results for {pl.division}/{rid}"),
        )
    division = reg.division(pl.division)
    rl = next((r for r in division.rankings if r.id == rid), None)
    n = _entrants_for(results, pl.division, rl, table)
    cut, by_rule = awarded_places(pl.places, n, pl.entrant_rules())
    ties = _tie_counts([r.place for r in table.rows])
    share = reg.prizes.tied_places == "share"
    lines = []
    for r in table.rows:
        if r.place > cut:
            break
        row = amount_for(pl.rows, r.place)
        amount = (row.amount or 0) if row else 0
        notes = []
        if ties[r.place] > 1:
            if share and row is not None and row.amount is not None:
                amount, shared_note = shared_amount(pl.rows, r.place, ties[r.place], cut)
                notes.append(shared_note)
            else:
                notes.append(tr("并列", "shared"))
        if kept_for is not None:
            p = results.players.get(r.player_id)
            if p is not None and p.gender != kept_for:
                notes.append(
                    tr(
                        f"{p.gender.label}子选手进入前{pl.places}名，占该名次并获奖，名次不再顺延",
                        "other gender keeps this place; nobody moves down",
                    )
                )
        lines.append(
            PrizeLine(
                place=r.place,
                name=_name(results.players, r.player_id),
                player_id=r.player_id,
                amount=amount,
                nominal=row.amount if row else None,
                gift=row.gift if row else None,
                shared=ties[r.place] > 1,
                note="；".join(notes),
            )
        )
    return PrizeListResult(**common, places=cut, entrants=n, lines=tuple(lines),
                           note=_cut_note(pl, n, cut, by_rule))


def _board_prize(prize: BoardPrize, rows: Sequence[BoardPrizeRow], results: EventResults) -> PrizeListResult:
    """台次奖 (最佳主将 …) as a prize list: paid on top of any other prize (a board prize rewards
    the board, not a place); each line says the record that won it."""
    teams = {t.id: t.name for t in results.teams}
    ties = _tie_counts([r.place for r in rows])
    # the regulation's one rule for tied places holds here too: with "share" the tied split the
    # money of the places they occupy (every place of a board prize pays the same amount)
    share = results.regulation.prizes.tied_places == "share" and prize.amount is not None
    per_place = (PrizeRow.model_validate({"from": 1, "to": prize.places, "amount": prize.amount}),)

    def paid(place: int) -> tuple[int, str]:
        if share and ties[place] > 1:
            amount, note = shared_amount(per_place, place, ties[place], prize.places)
            return amount, "; " + note
        return prize.amount or 0, tr("; 并列", "; shared") if ties[place] > 1 else ""

    lines = []
    for r in rows:
        amount, tie_note = paid(r.place)
        extra = ""
        if prize.rule == "wins":
            extra += tr(f", 胜{r.wins}局", f", {r.wins} wins")
        if "team_place" in prize.tie_breaks and r.team_place is not None:
            extra += tr(f", 所在队团体第{r.team_place}名", f", team placed {r.team_place}")
        if r.by_lot:
            extra += tr("; 仍相同, 抽签决定", "; still equal: decided by lot")
        lines.append(PrizeLine(
            place=r.place, name=_name(results.players, r.player_id), player_id=r.player_id,
            amount=amount, nominal=prize.amount, gift=prize.gift, shared=ties[r.place] > 1,
            note=tr(f"{teams.get(r.team_id, r.team_id)}; 第{prize.board}台{r.games}场得局分{r.points:g} "
                    f"(胜率{r.percentage:.0%})",
                    f"{teams.get(r.team_id, r.team_id)}; board {prize.board}: {r.points:g} board points in "
                    f"{r.games} games ({r.percentage:.0%})") + extra + tie_note))
    return PrizeListResult(id=prize.id, name=prize.name, division="", kind="cash" if prize.amount else "gift",
                           source="board", items=(), places=prize.places, entrants=len(rows), lines=tuple(lines),
                           note=tr(f"第{prize.board}台, 至少出场{prize.min_games}场",
                                   f"board {prize.board}, at least {prize.min_games} games"))


def _tie_counts(places: Sequence[int]) -> dict[int, int]:
    """How many share each place (1 = not shared)."""
    seen: dict[int, int] = defaultdict(int)
    for p in places:
        seen[p] += 1
    return seen


def _cumulative(a: str, b: str, defs: Mapping[str, PrizeList]) -> bool:
    return b in defs[a].cumulative_with or a in defs[b].cumulative_with


def _apply_cumulation(
    lists: list[PrizeListResult], defs: Mapping[str, PrizeList]
) -> list[PrizeListResult]:
    """A player in two non-cumulative lists keeps the larger prize; the other line pays 0."""
    held: dict[str, list[tuple[int, int]]] = defaultdict(list)  # pid -> (list idx, line idx)
    for li, pl in enumerate(lists):
        for ni, ln in enumerate(pl.lines):
            if ln.player_id is not None and ln.amount > 0:
                held[ln.player_id].append((li, ni))
    zeroed: dict[tuple[int, int], str] = {}
    for refs in held.values():
        if len(refs) < 2:
            continue
        refs = sorted(refs, key=lambda ref: (-lists[ref[0]].lines[ref[1]].amount, ref[0]))
        kept: list[int] = [refs[0][0]]
        for li, ni in refs[1:]:
            blocking = [k for k in kept if not _cumulative(lists[li].id, lists[k].id, defs)]
            if blocking:
                other = lists[blocking[0]].name
                zeroed[(li, ni)] = tr(
                    f"不与{other}累积，取较高奖项", f"not cumulative with {other}: larger prize kept"
                )
            else:
                kept.append(li)
    if not zeroed:
        return lists
    out = []
    for li, pl in enumerate(lists):
        lines = tuple(
            replace(ln, amount=0, note="；".join(x for x in (ln.note, zeroed[(li, ni)]) if x))
            if (li, ni) in zeroed
            else ln
            for ni, ln in enumerate(pl.lines)
        )
        out.append(replace(pl, lines=lines))
    return out


def age_reference_date(reg: Regulation, ref: str | None, fallback: date | None) -> date | None:
    """A stage id means that stage's first day (总决赛首日); else an ISO date."""
    if ref is None:
        return fallback
    for s in reg.stages:
        if s.id == ref:
            if s.start is None:
                raise ValueError(f"阶段 {ref} 没有开始日期, 无法计算年龄")
            return s.start
    try:
        return date.fromisoformat(ref)
    except ValueError as exc:
        raise ValueError(f"age_reference {ref!r} 既不是阶段 id 也不是日期 YYYY-MM-DD") from exc


def _special(
    sa: SpecialAward,
    results: EventResults,
    tables: Mapping[RankingKey, RankingTable],
    lists: Sequence[PrizeListResult],
) -> PrizeListResult:
    reg = results.regulation
    division = reg.division(sa.division)
    rl = next((r for r in division.rankings if r.id == sa.ranking), None)
    common: dict[str, Any] = {
        "id": sa.id,
        "name": sa.name,
        "division": sa.division,
        "kind": sa.kind,
        "source": "special",
        "items": (),
    }
    table = tables.get((sa.division, sa.ranking))
    if table is None:
        return PrizeListResult(
            **common, places=0, entrants=0, lines=(),
            note=tr(f"无名次表 {sa.division}/{sa.ranking} 的成绩", "no results"),
        )
    ref = age_reference_date(reg, sa.age_reference, rl.age_reference if rl else None)
    if sa.min_age is not None and ref is None:
        raise ValueError(f"特别奖 {sa.id}: 限{sa.min_age}岁以上, 但未给出计算年龄的日期")
    already = {
        ln.player_id
        for pl in lists
        if pl.division == sa.division
        for ln in pl.lines
        if ln.amount > 0 or ln.gift
    }
    lines: list[PrizeLine] = []
    last_place: int | None = None
    for r in table.rows:
        p = results.players.get(r.player_id)
        if p is None:
            continue
        if sa.gender is not None and p.gender != sa.gender:
            continue
        age = p.age_on(ref) if ref is not None else None
        if sa.min_age is not None and (age is None or age < sa.min_age):
            continue
        if not sa.cumulative and r.player_id in already:
            continue
        if len(lines) >= sa.places and r.place != last_place:
            break
        note = ""
        if sa.min_age is not None and ref is not None:
            note = tr(f"{ref.isoformat()} 时 {age} 岁", f"age {age} on {ref.isoformat()}")
        lines.append(
            PrizeLine(
                place=r.place,
                name=p.name,
                player_id=r.player_id,
                amount=sa.amount or 0,
                nominal=sa.amount,
                gift=sa.gift,
                shared=r.place == last_place,
                note=note,
            )
        )
        last_place = r.place
    return PrizeListResult(**common, places=sa.places, entrants=len(table.rows), lines=tuple(lines))


def _participation(
    pa: ParticipationAward,
    results: EventResults,
    tables: Mapping[RankingKey, RankingTable],
    lists: Sequence[PrizeListResult],
) -> PrizeListResult:
    excluded = {
        ln.player_id for pl in lists if pl.id in pa.excluding_lists for ln in pl.lines if ln.player_id
    }
    lines: list[PrizeLine] = []
    seen: set[str] = set()
    for div in pa.divisions:
        order = _division_order(results, div, tables)
        for pid in order:
            if pid in excluded or pid in seen:
                continue
            seen.add(pid)
            lines.append(
                PrizeLine(
                    place=None,
                    name=_name(results.players, pid),
                    player_id=pid,
                    amount=pa.amount,
                    nominal=pa.amount,
                    note=results.regulation.division(div).name,
                )
            )
    return PrizeListResult(
        id="participation-" + "-".join(pa.divisions),
        name=tr("参赛奖", "participation award"),
        division=pa.divisions[0],
        kind=pa.kind,
        source="participation",
        items=(),
        places=len(lines),
        entrants=len(lines),
        lines=tuple(lines),
    )


def _division_order(
    results: EventResults, division: str, tables: Mapping[RankingKey, RankingTable]
) -> list[str]:
    """Entrants of a division, in the order of its unfiltered ranking where they appear."""
    entrants = results.division_entrants(division)
    base: RankingTable | None = None
    for rl in results.regulation.division(division).rankings:
        if rl.gender is None and rl.min_age is None and (division, rl.id) in tables:
            base = tables[(division, rl.id)]
            break
    if base is None:
        return entrants
    pos = {r.player_id: i for i, r in enumerate(base.rows)}
    return sorted(entrants, key=lambda pid: pos.get(pid, len(pos)))
