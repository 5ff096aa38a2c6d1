"""Criterion names as people type them: our code names, Chinese labels, OpenGotha's names.

``yisai standings --criteria score,sos,direct`` and ``--criteria NBW,SOSW,SOSOSW`` and
``--criteria 积分,对手分,累进分`` all work; the names are kept as typed for the CSV header.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text, TextError
from yisai.regulation.criteria import Criterion, criterion_by_name, criterion_label
from yisai.regulation.rules import CriterionSpec
from yisai.standings.opengotha import OG_LABELS, og_name


@dataclass(frozen=True, slots=True)
class CriterionRef:
    """A criterion named by the user: ours (``spec``) or OpenGotha's (``og``)."""

    given: str
    spec: CriterionSpec | None = None
    og: str | None = None

    @property
    def label(self) -> str:
        if self.og is not None:
            return OG_LABELS.get(self.og, self.og)
        assert self.spec is not None
        return criterion_label(self.spec.criterion, self.spec.from_last_round)


def resolve(name: str) -> CriterionRef:
    """One criterion name → reference; ValueError lists what is accepted."""
    given = name.strip()
    low = given.lower()
    if given == "全胜者冠军" or low == "undefeated_champion":
        raise TextError(
            Text(
                "全胜者冠军 不是名次指标, 是规程中的开关 (undefeated_champion)",
                "undefeated champion is a switch of the regulation, not a criterion",
            )
        )
    found = criterion_by_name(given)
    if found is not None:
        crit, from_last = found
        return CriterionRef(given, spec=CriterionSpec(criterion=crit, from_last_round=from_last))
    og = og_name(given)
    if og is not None:
        return CriterionRef(given, og=og)
    ours = ", ".join(c.value for c in Criterion)
    raise TextError(
        Text(
            f"未知的名次指标 {given!r}. 可用: {ours}; 中文名如 积分、对手分、累进分; "
            "OpenGotha 名如 NBW、MMS、SOSW、SOSM、SOSWM1、SODOSW、SOSOSW、CUSSW、DC、SDC",
            f"unknown criterion {given!r}. Accepted: {ours}; Chinese labels such as 积分; "
            "OpenGotha names such as NBW, MMS, SOSW, SOSM, SOSWM1, SODOSW, SOSOSW, CUSSW, DC, SDC",
        )
    )


def resolve_list(text: str | list[str]) -> list[CriterionRef]:
    """A comma-separated list (ASCII or Chinese commas) → references, in order."""
    items = (
        text if isinstance(text, list) else text.replace("，", ",").replace("、", ",").split(",")
    )
    refs = [resolve(t) for t in items if t.strip()]
    if not refs:
        raise TextError(Text("名次指标列表为空", "the criteria list is empty"))
    return refs
