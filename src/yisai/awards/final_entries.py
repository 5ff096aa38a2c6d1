"""The final's entry list from its sources (pure): who enters, and every conflict.

Seed 000 十一: the final takes the qualifiers of the online periods, the city teams, the youth
wild cards invited by the organiser and the players who entered directly (中老年组). One person
may turn up in several sources (qualified in two periods under two accounts, also in a city
team); they enter once. Which one is kept is a fixed order, stated here so the preview can say
it: an entry that already exists (team, wild card, direct, individual — it was approved by the
chief referee) before a qualifier's place, and an earlier period before a later one. Ineligible
items are left out with their reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from yisai.i18n import Text

SOURCE_ORDER = ("team", "wildcard", "direct", "individual", "qualifier")
SOURCE_LABELS: dict[str, Text] = {
    "team": Text("城市代表队", "city team"),
    "wildcard": Text("外卡", "wild card"),
    "direct": Text("直接报名", "direct entry"),
    "individual": Text("个人报名", "individual entry"),
    "qualifier": Text("网络海选晋级", "online qualifier"),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    source: str  # a SOURCE_ORDER key
    key: str  # unique within the source ("3/1234" a place; "entry:17" an existing entry)
    person: str  # who this is: "id:<ID number>", else name and birth date
    name: str
    division: str
    reasons: tuple[str, ...] = ()  # eligibility findings: not empty → left out
    detail: str = ""  # the period and pool, the team's name, the division


@dataclass(frozen=True, slots=True)
class Conflict:
    person: str
    keys: tuple[str, ...]
    text: Text


@dataclass
class FinalPlan:
    items: list[tuple[Candidate, str]] = field(default_factory=list)  # (candidate, apply/already/left_out)
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def to_apply(self) -> list[Candidate]:
        return [c for c, s in self.items if s == "apply"]

    @property
    def left_out(self) -> list[Candidate]:
        return [c for c, s in self.items if s == "left_out"]

    @property
    def already(self) -> list[Candidate]:
        return [c for c, s in self.items if s == "already"]


def _rank(c: Candidate) -> tuple[int, str]:
    period = c.key.split("/", 1)[0] if c.source == "qualifier" else ""
    return SOURCE_ORDER.index(c.source), period.zfill(4) + c.key


def _label(c: Candidate) -> Text:
    s = SOURCE_LABELS[c.source]
    return Text(f"{s.zh}({c.detail})" if c.detail else s.zh, f"{s.en} ({c.detail})" if c.detail else s.en)


def plan_final(candidates: Iterable[Candidate], applied: Mapping[tuple[str, str], object]) -> FinalPlan:
    """Decide every candidate: ``apply``, ``already`` (applied before) or ``left_out``."""
    plan = FinalPlan()
    by_person: dict[str, list[Candidate]] = {}
    for c in sorted(candidates, key=_rank):
        by_person.setdefault(c.person, []).append(c)
    for person, group in by_person.items():
        kept: Candidate | None = None
        for c in group:
            if c.reasons:
                plan.items.append((c, "left_out"))
                plan.conflicts.append(Conflict(person, (c.key,), Text(
                    f"{c.name}（{_label(c).zh}）不符合参赛资格: " + "；".join(c.reasons),
                    f"{c.name} ({_label(c).en}) is not eligible: " + "; ".join(c.reasons))))
                continue
            if kept is None:
                kept = c
                plan.items.append((c, "already" if (c.source, c.key) in applied else "apply"))
                continue
            plan.items.append((c, "left_out"))
            plan.conflicts.append(Conflict(person, (kept.key, c.key), Text(
                f"{c.name} 同时出现在 {_label(kept).zh} 与 {_label(c).zh}: 保留前者, 后者不另建报名",
                f"{c.name} appears as {_label(kept).en} and as {_label(c).en}: the first is kept, "
                "no second entry")))
    return plan


__all__ = ["SOURCE_LABELS", "SOURCE_ORDER", "Candidate", "Conflict", "FinalPlan", "plan_final"]
