"""Cross-checks of 小循环: settings that could not work, or would have no effect, are refused
with the reason (a file that says something must do it). The round robin's and the knockout's
own settings are checked by their formats (``StageFormat.findings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yisai.i18n import Text
from yisai.regulation.findings import Finding
from yisai.regulation.rules import Criterion

if TYPE_CHECKING:
    from yisai.regulation.schema import Regulation


def check_mini_league(reg: Regulation) -> list[Finding]:
    """小循环 needs a stage played in round-robin groups, and a direct encounter right after it
    would compare what it already compared."""
    out: list[Finding] = []
    round_robin = any(f.round_robin_groups for s in reg.stages for f in (s.format, *s.formats_by_division.values()))
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
