"""Cross-checks of round robins, knockouts and 小循环: settings that could not work, or would
have no effect, are refused with the reason (a file that says something must do it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yisai.i18n import Text
from yisai.regulation.findings import Finding, Path
from yisai.regulation.rules import Criterion
from yisai.regulation.stages import KnockoutFormat, PlacesBelow, RoundRobinFormat

if TYPE_CHECKING:
    from yisai.regulation.schema import Regulation


def check_brackets(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    round_robin = False
    for i, s in enumerate(reg.stages):
        formats: list[tuple[Path, object]] = [(("stages", i, "format"), s.format)] + [
            (("stages", i, "formats_by_division", did), f) for did, f in s.formats_by_division.items()]
        for path, fmt in formats:
            if isinstance(fmt, RoundRobinFormat):
                round_robin = True
                out += _round_robin(path, fmt)
            elif isinstance(fmt, KnockoutFormat) and fmt.players is not None and fmt.players < 4 and fmt.third_place:
                out.append(Finding((*path, "third_place"),
                                   Text(f"只有{fmt.players}人, 没有半决赛, 季军赛无从进行",
                                        f"with {fmt.players} players there are no semi-finals: a third-place "
                                        "match cannot be played"),
                                   Text("删去 third_place 或增加人数", "drop third_place or take more players")))
    rankings = [(("ranking",), reg.ranking)] + [
        (("divisions", j, "ranking_rules"), d.ranking_rules) for j, d in enumerate(reg.divisions)
        if d.ranking_rules is not None]
    for path, r in rankings:
        if not r.mini_league:
            continue
        if not round_robin:
            out.append(Finding((*path, "mini_league"),
                               Text("小循环只用于循环赛, 本规程没有循环赛阶段 (此设置不会起作用)",
                                    "a mini-league is for round robins and no stage is a round robin "
                                    "(the setting would have no effect)"),
                               Text("删去 mini_league 或把阶段设为 kind = \"round_robin\"",
                                    "drop mini_league or make a stage kind = \"round_robin\"")))
        elif len(r.criteria) > 1 and r.criteria[1].criterion == Criterion.DIRECT:
            out.append(Finding((*path, "criteria", 1),
                               Text("小循环已在第一项指标之后比较并列者之间的对局, 紧随其后的直胜不会起作用",
                                    "the mini-league already compares the games among the tied right after "
                                    "the first criterion: the direct encounter after it would have no effect"),
                               Text("删去这一项直胜", "drop this direct")))
    return out


def _round_robin(path: Path, fmt: RoundRobinFormat) -> list[Finding]:
    out: list[Finding] = []
    groups = fmt.groups
    dupes = sorted({g for g in groups if groups.count(g) > 1})
    if dupes:
        out.append(Finding((*path, "groups"), Text(f"组名重复: {', '.join(dupes)}", f"group names repeat: {', '.join(dupes)}")))
    ko = fmt.knockout
    if ko is None:
        if len(groups) > 1:
            out.append(Finding((*path, "groups"),
                               Text(f"分{len(groups)}组循环但没有淘汰赛, 各组名次无法合成总名次",
                                    f"{len(groups)} round-robin groups and no knockout: the groups' places "
                                    "cannot make one final order"),
                               Text("加 [stages.format.knockout], 或只设一组", "add [stages.format.knockout], or use one group")))
        return out
    kp: Path = (*path, "knockout")
    total = len(groups) * ko.qualifiers_per_group
    if total < 2:
        out.append(Finding((*kp, "qualifiers_per_group"),
                           Text("淘汰赛至少需要2人出线", "a knockout needs at least 2 qualifiers"),
                           Text("一组时 qualifiers_per_group ≥ 2", "with one group, qualifiers_per_group ≥ 2")))
    if ko.bracket == "cross":
        if ko.qualifiers_per_group != 2:
            out.append(Finding((*kp, "qualifiers_per_group"),
                               Text(f"交叉对阵 (cross) 须每组2人出线, 实为{ko.qualifiers_per_group}人",
                                    f"a crossed bracket takes 2 from each group, not {ko.qualifiers_per_group}"),
                               Text("改为 2, 或 bracket = \"seeded\"", "make it 2, or bracket = \"seeded\"")))
        n = len(groups)
        if n < 2 or n & (n - 1):
            out.append(Finding((*kp, "bracket"),
                               Text(f"交叉对阵须有2、4、8…个小组, 本阶段{n}组",
                                    f"a crossed bracket needs 2, 4, 8 … groups, this stage has {n}"),
                               Text("改为 bracket = \"seeded\"", "use bracket = \"seeded\"")))
    out += _places_below(kp, ko.places_below)
    if ko.third_place and 0 < total <= 2:
        out.append(Finding((*kp, "third_place"),
                           Text(f"只有{total}人出线, 没有半决赛, 季军赛无从进行",
                                f"only {total} qualify: there are no semi-finals, so no third-place match"),
                           Text("删去 third_place", "drop third_place")))
    return out


def _places_below(kp: Path, rules: list[PlacesBelow]) -> list[Finding]:
    """Each range must be a range, and no place may be ordered by two rules."""
    out: list[Finding] = []
    taken: list[tuple[int, float, int]] = []
    for j, r in enumerate(rules):
        top = float("inf") if r.place_to is None else r.place_to
        if r.place_to is not None and r.place_to < r.place_from:
            out.append(Finding((*kp, "places_below", j, "to"),
                               Text(f"第{r.place_from}名到第{r.place_to}名: 止于起点之前",
                                    f"places {r.place_from} to {r.place_to}: the range ends before it starts"),
                               Text(f"to ≥ {r.place_from}, 或不写 (到最后)", f"to ≥ {r.place_from}, or none (to the end)")))
            continue
        for lo, hi, k in taken:
            if r.place_from <= hi and lo <= top:
                out.append(Finding((*kp, "places_below", j, "from"),
                                   Text(f"名次范围与第{k + 1}条重叠", f"the places overlap rule {k + 1}'s"),
                                   Text("每个名次只由一条规则排定", "order each place by one rule only")))
        taken.append((r.place_from, top, j))
    return out
