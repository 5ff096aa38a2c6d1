"""The criterion registry: every tie-break criterion a regulation can name, with its words and
its direction — the one table for individual rankings, the places below a knockout and team
tie-breaks.

A criterion is one concept wherever it is used: 对手分 is ``sos`` in ``[ranking].criteria``, in a
knockout's ``places_below.criteria`` and in a team competition's ``tie_breaks``. Each entry says

- its code name (what regulation files write; unchanged, so existing files keep loading),
- its label in Chinese and English, and the wording a scope uses where it differs
  (小组赛积分 when ordering places by group-stage points, 对手分之和 for a team),
- whether a lower value is better (抽签, 小组名次, 最高个人名次),
- in which scopes a regulation may name it.

Where each value is computed: individual criteria (and the group-stage values the places below a
knockout read) in ``standings/criteria.py``, one function per criterion; team tie-breaks in
``standings/teams.py`` (sums of the members' individual values, or the matches' 局分).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, get_args

from yisai.i18n import Text


class Criterion(StrEnum):
    """Individual ranking criteria; the value is the code name used in regulation files."""

    SCORE = "score"  # 积分
    TOTAL_SCORE = "total_score"  # 总得分 (formula in RankingRules.total_score)
    SOS = "sos"  # 对手分
    CUMULATIVE = "cumulative"  # 累进分
    SODOS = "sodos"  # 胜对手分
    DIRECT = "direct"  # 直胜
    SOS_CUT = "sos_cut"  # 逐轮减去对手分
    PREVIOUS_SCORES = "previous_scores"  # 依次比较上轮积分
    WINS = "wins"  # 胜局数
    WHITE_WINS = "white_wins"  # 后手胜局数
    OPP_CUMULATIVE = "opp_cumulative"  # 对手累进分
    SOSOS = "sosos"  # 对手的对手分之和
    SOS_MINUS1 = "sos_minus1"  # 对手分去掉最低一个
    SOS_MINUS2 = "sos_minus2"  # 对手分去掉最低两个
    RANK = "rank"  # 段位
    RATING = "rating"  # 等级分
    LOT = "lot"  # 抽签


#: The places below a knockout (``places_below.criteria``): group-stage values.
PlaceCriterion = Literal["group_place", "score", "sos", "sodos", "wins", "cumulative", "lot"]

#: A team competition's tie-breaks (``tie_breaks``).
TeamTieBreak = Literal[
    "best_place", "next_place", "sos", "cumulative",  # individual-result methods
    "board_points", "opponent_match_points", "direct", "board1_points",  # match_points (团体赛)
    "lot",  # drawn with the event's stored seed
]


class Scope(StrEnum):
    """Where a regulation names a criterion."""

    INDIVIDUAL = "individual"  # [ranking].criteria
    PLACEMENT = "placement"  # a knockout's places_below.criteria (values of the group stage)
    TEAM = "team"  # a team competition's tie_breaks


TeamBasis = Literal["members", "matches", "any"]


@dataclass(frozen=True, slots=True)
class CriterionInfo:
    """One criterion: its words, its direction and where it may be named."""

    name: str
    label: Text
    scopes: frozenset[Scope]
    lower_is_better: bool = False
    wording: Mapping[Scope, Text] = field(default_factory=dict)  # a scope's own label
    detail: Mapping[Scope, Text] = field(default_factory=dict)  # longer words for the regulation summary
    team_basis: TeamBasis = "any"  # a team tie-break read from members' results or from matches

    def label_in(self, scope: Scope) -> Text:
        """The label a table or an explanation shows in ``scope`` (column header, reason)."""
        return self.wording.get(scope, self.label)

    def detail_in(self, scope: Scope) -> Text:
        """The words the regulation summary uses in ``scope`` (the label unless it says more)."""
        return self.detail.get(scope, self.label_in(scope))


_I, _P, _T = Scope.INDIVIDUAL, Scope.PLACEMENT, Scope.TEAM


def _entry(name: str, zh: str, en: str, scopes: tuple[Scope, ...], *, lower_is_better: bool = False,
           wording: Mapping[Scope, Text] | None = None, detail: Mapping[Scope, Text] | None = None,
           team_basis: TeamBasis = "any") -> CriterionInfo:
    return CriterionInfo(name, Text(zh, en), frozenset(scopes), lower_is_better, wording or {}, detail or {},
                         team_basis)


_ENTRIES: tuple[CriterionInfo, ...] = (
    _entry("score", "积分", "points", (_I, _P), wording={_P: Text("小组赛积分", "group points")}),
    _entry("total_score", "总得分", "total score", (_I,)),
    _entry("sos", "对手分", "SOS", (_I, _P, _T), wording={_T: Text("对手分之和", "sum of SOS")},
           team_basis="members"),
    _entry("cumulative", "累进分", "cumulative score", (_I, _P, _T),
           wording={_T: Text("累进分之和", "sum of cumulative")},
           detail={_T: Text("累进分之和", "sum of cumulative scores")}, team_basis="members"),
    _entry("sodos", "胜对手分", "SODOS", (_I, _P)),
    _entry("direct", "直胜", "direct encounter", (_I, _T), team_basis="matches"),
    _entry("sos_cut", "逐轮减去对手分", "SOS cut", (_I,)),
    _entry("previous_scores", "上轮积分", "previous rounds' scores", (_I,),
           detail={_I: Text("依次比较上轮积分(上一轮后的积分, 再前一轮, …)",
                            "scores after the previous round, then the one before, and so on")}),
    _entry("wins", "胜局数", "wins", (_I, _P)),
    _entry("white_wins", "后手胜局数", "wins with white", (_I,)),
    _entry("opp_cumulative", "对手累进分", "opponents' cumulative score", (_I,)),
    _entry("sosos", "对手的对手分", "SOSOS", (_I,)),
    _entry("sos_minus1", "对手分(去掉最低1个)", "SOS-1 (lowest dropped)", (_I,)),
    _entry("sos_minus2", "对手分(去掉最低2个)", "SOS-2 (two lowest dropped)", (_I,)),
    _entry("rank", "段位", "rank", (_I,)),
    _entry("rating", "等级分", "rating", (_I,)),
    _entry("lot", "抽签", "lot", (_I, _P, _T), lower_is_better=True,
           detail={_T: Text("抽签(按比赛种子)", "lot (drawn with the event's seed)")}),
    _entry("group_place", "小组名次", "group place", (_P,), lower_is_better=True),
    _entry("best_place", "最高个人名次", "best place", (_T,), lower_is_better=True,
           detail={_T: Text("最高个人名次", "best individual place")}, team_basis="members"),
    _entry("next_place", "次高个人名次", "next places", (_T,), lower_is_better=True,
           detail={_T: Text("次高个人名次", "next best individual place")}, team_basis="members"),
    _entry("board_points", "局分", "board points", (_T,), team_basis="matches"),
    _entry("opponent_match_points", "对手场分", "opponents' match points", (_T,), team_basis="matches"),
    _entry("board1_points", "主将台局分", "board-1 points", (_T,), team_basis="matches"),
)

CRITERIA: Mapping[str, CriterionInfo] = MappingProxyType({e.name: e for e in _ENTRIES})
"""Every criterion by code name: the one label table and the one "lower is better" mark."""


def info(name: str) -> CriterionInfo:
    """The registry entry of a criterion named by its code name (KeyError if unknown)."""
    return CRITERIA[name]


def names_in(scope: Scope) -> frozenset[str]:
    """The code names a regulation may write in ``scope``."""
    return frozenset(e.name for e in _ENTRIES if scope in e.scopes)


def label(name: str, scope: Scope = Scope.INDIVIDUAL) -> Text:
    """A criterion's label in ``scope`` in both languages."""
    return CRITERIA[name].label_in(scope)


def by_label(zh: str, scope: Scope) -> CriterionInfo | None:
    """The criterion a Chinese label names in ``scope`` (a table's tie-break column back to its
    criterion); None when no criterion of that scope is so labelled."""
    for e in _ENTRIES:
        if scope in e.scopes and e.label_in(scope).zh == zh:
            return e
    return None


def _check_vocabularies() -> None:
    """The types pydantic validates against must name exactly the registry's criteria of each
    scope: a criterion added to one and not the other fails at import, not in an event."""
    declared = {
        Scope.INDIVIDUAL: frozenset(c.value for c in Criterion),
        Scope.PLACEMENT: frozenset(get_args(PlaceCriterion)),
        Scope.TEAM: frozenset(get_args(TeamTieBreak)),
    }
    for scope, names in declared.items():
        if names != names_in(scope):
            raise RuntimeError(f"criterion registry and the {scope} vocabulary differ: "
                               f"{sorted(names ^ names_in(scope))}")


_check_vocabularies()

CRITERION_LABELS: Mapping[Criterion, str] = MappingProxyType({c: CRITERIA[c.value].label.zh for c in Criterion})
"""Individual criteria's Chinese labels (a view of the registry, for name look-up)."""

SOS_CUT_FROM_LAST = Text("逐轮减去对手分(从最后一轮)", "SOS cut (from last round)")


def criterion_label(criterion: Criterion, from_last_round: bool = False) -> str:
    """The criterion's name in the caller's language (逐轮减去对手分 says when it counts from the
    last round)."""
    if criterion == Criterion.SOS_CUT and from_last_round:
        return SOS_CUT_FROM_LAST.render()
    return CRITERIA[criterion.value].label.render()


# Names people write besides the code names and the labels above (the glossary's other forms).
# The one table of criterion names: the regulation file and the command line both read it.
_CRITERION_ALIASES: dict[str, tuple[Criterion, bool]] = {
    SOS_CUT_FROM_LAST.zh: (Criterion.SOS_CUT, True),
    "逐轮减去对手分（从最后一轮）": (Criterion.SOS_CUT, True),
    "sos_cut_from_last": (Criterion.SOS_CUT, True),
    "sos_cut_last": (Criterion.SOS_CUT, True),
    "sos-1": (Criterion.SOS_MINUS1, False),
    "sos-2": (Criterion.SOS_MINUS2, False),
    "对手分-1": (Criterion.SOS_MINUS1, False),
    "对手分-2": (Criterion.SOS_MINUS2, False),
    "对手分（去掉最低1个）": (Criterion.SOS_MINUS1, False),
    "对手分（去掉最低2个）": (Criterion.SOS_MINUS2, False),
    "对手的对手分之和": (Criterion.SOSOS, False),
    "段位": (Criterion.RANK, False),
    "等级分": (Criterion.RATING, False),
}


def criterion_by_name(name: str) -> tuple[Criterion, bool] | None:
    """A criterion named as people write it — code name (``sos``), Chinese label (对手分) or an
    alias — as ``(criterion, from_last_round)``; None when the name is not one of ours."""
    given = name.strip()
    low = given.lower()
    for crit in Criterion:
        if low == crit.value:
            return crit, False
    for crit, zh in CRITERION_LABELS.items():
        if given == zh:
            return crit, False
    return _CRITERION_ALIASES.get(given) or _CRITERION_ALIASES.get(low)


def criterion_other_names(expected: str) -> str | None:
    """The criteria's Chinese names, when a refused value's allowed list (pydantic's
    ``expected``) is the criteria's code names: a regulation file may write either."""
    return "、".join(CRITERION_LABELS.values()) if repr(Criterion.TOTAL_SCORE.value) in expected else None


def labels_text(names: Iterable[str], scope: Scope, *, detail: bool = False) -> Text:
    """Several criteria in running text, both languages (对手分、累进分 / SOS, cumulative score)."""
    words = [CRITERIA[n].detail_in(scope) if detail else CRITERIA[n].label_in(scope) for n in names]
    return Text("、".join(w.zh for w in words), ", ".join(w.en for w in words))


__all__ = [
    "CRITERIA",
    "CRITERION_LABELS",
    "SOS_CUT_FROM_LAST",
    "Criterion",
    "CriterionInfo",
    "PlaceCriterion",
    "Scope",
    "TeamTieBreak",
    "by_label",
    "criterion_by_name",
    "criterion_label",
    "criterion_other_names",
    "info",
    "label",
    "labels_text",
    "names_in",
]
