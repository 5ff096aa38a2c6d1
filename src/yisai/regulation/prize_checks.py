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
from yisai.regulation.format_base import as_kind
from yisai.regulation.prizes import PrizeList
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
