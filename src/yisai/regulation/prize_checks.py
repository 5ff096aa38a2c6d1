"""奖金总额: the most the regulation's prizes can pay must fit the total it states.

"总奖金20500元" next to tables that add up to more is a wrong number in money, so it is refused
when the regulation is checked, naming ``prizes.pool``. The maximum counts every place of every
list once (no ties), each special award and 台次奖 for all its places; participation awards
depend on how many enter and are checked when the prizes are computed (as are tied places paid
in full, which can pay more than the table).
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.regulation.findings import Finding
from yisai.regulation.findings import useless as _useless
from yisai.regulation.format_base import as_kind
from yisai.regulation.prizes import MAX_PLACE, Grade, PrizeList
from yisai.regulation.schema import Regulation
from yisai.regulation.team_match import TeamMatchFormat


def list_maximum(pl: PrizeList) -> int:
    """What a prize list pays when all its places are awarded, one player each."""
    total = 0
    for place in range(1, pl.places + 1):
        row = next((r for r in pl.rows if r.place_from <= place <= r.place_to), None)
        total += (row.amount or 0) if row is not None else 0
    return total


def maximum_payable(reg: Regulation) -> list[tuple[str, int]]:
    """(prize name, most it pays) for every prize that pays money, in the file's order."""
    out: list[tuple[str, int]] = []
    for pl in reg.prizes.lists:
        if (most := list_maximum(pl)) > 0:
            out.append((pl.name, most))
    for sa in reg.prizes.special:
        if sa.amount:
            out.append((sa.name, sa.amount * sa.places))
    seen: set[str] = set()
    for stage in reg.stages:
        for did in stage.divisions:
            fmt = as_kind(stage.format_for(did), TeamMatchFormat)
            if fmt is None:
                continue
            for bp in fmt.board_prizes:
                if bp.amount and bp.id not in seen:
                    seen.add(bp.id)
                    out.append((bp.name, bp.amount * bp.places))
    return out


def check_pool(reg: Regulation) -> list[Finding]:
    pool = reg.prizes.pool
    if pool is None:
        return []
    parts = maximum_payable(reg)
    most = sum(v for _n, v in parts)
    if most <= pool:
        return []
    zh = " + ".join(f"{n}{v}元" for n, v in parts)
    en = " + ".join(f"{n} {v}" for n, v in parts)
    return [Finding(("prizes", "pool"),
                    Text(f"各奖项最多可发{most}元 ({zh}), 超过规程写明的奖金总额{pool}元",
                         f"the prizes can pay up to {most} yuan ({en}), more than the stated pool of {pool} yuan"),
                    Text(f"奖金总额须不少于{most}元, 或减少奖项金额", f"the pool must be at least {most} yuan, "
                         "or the prize amounts smaller"))]


def check_prize_rules(reg: Regulation) -> list[Finding]:
    """The prize rules of issue 41 (docking, tax, judged and graded awards) against each other
    and the rest of the file: each contradiction names its field."""
    pz = reg.prizes
    out: list[Finding] = []
    pays = any(list_maximum(pl) for pl in pz.lists) or any(sa.amount for sa in pz.special) \
        or any(pa.amount for pa in pz.participation) or any(j.amount for j in pz.judged) \
        or any(g.amount for ga in pz.graded for g in ga.grades)
    if pz.tax_withheld_percent is not None and not pz.pre_tax:
        out.append(Finding(("prizes", "tax_withheld_percent"),
                           Text("规程写明奖金不是税前 (pre_tax = false), 不能再代扣个人所得税",
                                "the amounts are not pre-tax (pre_tax = false): no tax can be withheld from them"),
                           Text("删去 tax_withheld_percent, 或写 pre_tax = true", "remove tax_withheld_percent, "
                                "or write pre_tax = true")))
    if pz.tax_withheld_percent is not None and not pays:
        out.append(Finding(("prizes", "tax_withheld_percent"),
                           Text("没有任何奖项发奖金, 代扣个人所得税用不上", "no prize pays money: no tax to withhold")))
    if pz.ceremony_absence is not None and not pays:
        out.append(Finding(("prizes", "ceremony_absence"),
                           Text("没有任何奖项发奖金, 未参加颁奖仪式扣除奖金用不上",
                                "no prize pays money: nothing to dock for missing the ceremony")))
    divisions = {d.id: d for d in reg.divisions}
    ids = [pl.id for pl in pz.lists] + [sa.id for sa in pz.special]
    for j, ja in enumerate(pz.judged):
        path: tuple[str | int, ...] = ("prizes", "judged", j)
        if ja.division is not None and ja.division not in divisions:
            out.append(Finding((*path, "division"), Text(f"未知组别: {ja.division}", f"unknown division: {ja.division}"),
                               Text(f"允许: {', '.join(divisions)}", f"allowed: {', '.join(divisions)}")))
        if ja.id in ids:
            out.append(Finding((*path, "id"), Text(f"奖项 id 重复: {ja.id}", f"duplicate prize id: {ja.id}")))
        ids.append(ja.id)
    for j, ga in enumerate(pz.graded):
        path = ("prizes", "graded", j)
        if ga.id in ids:
            out.append(Finding((*path, "id"), Text(f"奖项 id 重复: {ga.id}", f"duplicate prize id: {ga.id}")))
        ids.append(ga.id)
        division = divisions.get(ga.division)
        if division is None:
            out.append(Finding((*path, "division"), Text(f"未知组别: {ga.division}", f"unknown division: {ga.division}"),
                               Text(f"允许: {', '.join(divisions)}", f"allowed: {', '.join(divisions)}")))
        elif ga.ranking is not None and ga.ranking not in {r.id for r in division.rankings}:
            out.append(Finding((*path, "ranking"), Text(f"组别 {ga.division} 没有名次表 {ga.ranking}",
                                                        f"division {ga.division} has no ranking {ga.ranking}")))
        out += _grades(ga.by, ga.grades, path)
    return out


def _grades(by: str, grades: list[Grade], path: tuple[str | int, ...]) -> list[Finding]:
    out: list[Finding] = []
    if by == "share":
        for k, g in enumerate(grades):
            if g.percent is None or g.min_wins is not None or g.max_wins is not None:
                out.append(Finding((*path, "grades", k),
                                   Text(f"按比例评奖 (by = \"share\"): {g.name} 须写 percent, 不写 min_wins/max_wins",
                                        f"by share: {g.name} needs percent and no min_wins/max_wins")))
        total = sum(g.percent or 0 for g in grades)
        if total > 100:
            out.append(Finding((*path, "grades"), Text(f"各等级比例之和为{total}%, 超过100%",
                                                       f"the grades' shares add up to {total}%, over 100%")))
        return out
    bands: list[tuple[int, int, str]] = []
    for k, g in enumerate(grades):
        if g.percent is not None or (g.min_wins is None and g.max_wins is None):
            out.append(Finding((*path, "grades", k),
                               Text(f"按胜局数评奖 (by = \"wins\"): {g.name} 须写 min_wins 或 max_wins, 不写 percent",
                                    f"by wins: {g.name} needs min_wins or max_wins and no percent")))
            continue
        low, high = g.min_wins or 0, g.max_wins if g.max_wins is not None else MAX_PLACE
        if low > high:
            out.append(Finding((*path, "grades", k, "max_wins"),
                               Text(f"{g.name}: 最多{high}胜少于最少{low}胜", f"{g.name}: max_wins {high} < min_wins {low}")))
            continue
        for a, b, other in bands:
            if low <= b and a <= high:
                out.append(Finding((*path, "grades", k),
                                   Text(f"{g.name}与{other}的胜局数范围重叠", f"{g.name} overlaps {other} in wins")))
        bands.append((low, high, g.name))
    return out


def check_kept_places(reg: Regulation) -> list[Finding]:
    """``others_keep_place`` (如有女子选手进入, 名次不再顺延) means something only on a list of one
    gender read from a mixed ranking: its own ``gender``, or a ranking by gender. On a list that
    reads a mixed ranking and names no gender the other gender is in that ranking anyway, so the
    setting changes nothing yet reads as a rule (the division's gender rankings do not help)."""
    out: list[Finding] = []
    for j, pl in enumerate(reg.prizes.lists):
        out += _kept_place(reg, ("prizes", "lists", j), pl)
    return out


def _kept_place(reg: Regulation, path: tuple[str | int, ...], pl: PrizeList) -> list[Finding]:
    division = next((d for d in reg.divisions if d.id == pl.division), None)
    ranking = next((r for r in division.rankings if r.id == pl.ranking), None) if division else None
    if pl.gender is not None and not pl.others_keep_place:
        return [_useless((*path, "gender"), "名单的 gender 只与 others_keep_place 一起说明名次按混合排名",
                         "a list's gender only says, with others_keep_place, that its places are the mixed ranking's",
                         "加 others_keep_place = true, 或改读按性别的名次表并删去 gender",
                         "add others_keep_place = true, or read a ranking by gender and remove gender")]
    if pl.gender is not None and ranking is not None and ranking.gender is not None:
        return [_useless((*path, "gender"), f"名次表 {ranking.id} 已按性别 ({ranking.gender.value})",
                         f"the ranking {ranking.id} is already by gender ({ranking.gender.value})",
                         "删去 gender", "remove gender")]
    if not pl.others_keep_place:
        return []
    if pl.ranking is None or (division is not None and all(r.gender is None for r in division.rankings)):
        return [_useless((*path, "others_keep_place"), "团体名单或不分性别的组别没有“其他性别选手占名次”的问题",
                         "a team list, or a division without a ranking by gender, has no players of "
                         "the other gender keeping places",
                         "删去 others_keep_place", "remove others_keep_place")]
    if ranking is not None and ranking.gender is None and pl.gender is None:
        return [_useless((*path, "others_keep_place"),
                         f"名单读取不分性别的名次表 {ranking.id} 且未写明所指性别 (gender), 其他性别选手本来就在"
                         "其中占名次",
                         f"the list reads the mixed ranking {ranking.id} and names no gender (gender), so players "
                         "of either gender hold their places there anyway",
                         "男子个人而名次按混合排名: 写 gender = \"M\"; 否则删去 others_keep_place",
                         "a men's list on the mixed places: set gender = \"M\"; otherwise remove others_keep_place")]
    return []
