"""团体: how teams are made up and how they are ranked."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, model_validator

from yisai.regulation.criteria import CRITERIA, Scope, TeamTieBreak, names_in
from yisai.regulation.rules import Strict
from yisai.vocabulary import Gender

MAX_TEAM = 100  # players (or staff) in one team
TeamMethod = Literal["sum_of_places", "sum_of_scores", "match_points"]


# Which tie-breaks read the members' individual results and which the matches (registry).
PLACE_TIE_BREAKS = frozenset(n for n in names_in(Scope.TEAM) if CRITERIA[n].team_basis == "members")
MATCH_TIE_BREAKS = frozenset(n for n in names_in(Scope.TEAM) if CRITERIA[n].team_basis == "matches")


MATCH_DEFAULT_TIE_BREAKS: tuple[TeamTieBreak, ...] = ("board_points", "direct", "board1_points")


def _best_then_next() -> list[TeamTieBreak]:
    return ["best_place", "next_place"]


class TeamSlot(Strict):
    """A named seat in a team, e.g. 甲组男 (division jia, male)."""

    label: str
    division: str | None = None
    gender: Gender | None = None


class TeamCompetition(Strict):
    """One team ranking (男子团体, 女子团体, 团体) and its method."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    division: str = Field(description="所属组别 (奖项挂靠的组别)")
    divisions: list[str] = Field(
        default_factory=list, description="跨组别团体: 计入这些组别的队员 (空 = 仅 division)"
    )
    gender: Gender | None = Field(None, description="只计该性别队员")
    size: int = Field(ge=1, le=MAX_TEAM, description="计算成绩的人数")
    method: TeamMethod = Field(
        description="sum_of_places 个人名次之和(低者列前); sum_of_scores 个人积分之和; match_points 场分"
    )
    complete_only: bool = Field(True, description="只有报满人数的队计算团体成绩")
    ranking: str | None = Field(None, description="sum_of_places 用哪个名次表 (组别内 ranking id)")
    place_rankings: dict[str, str] = Field(
        default_factory=dict,
        description="按队员性别选用其组别内的名次表, 如 M = \"boys\", F = \"girls\"",
    )
    tie_breaks: list[TeamTieBreak] = Field(
        default_factory=_best_then_next,
        description="相同时依次比较: best_place 最高个人名次, next_place 次高个人名次, sos 对手分之和, "
        "cumulative 累进分之和; 场分制: board_points 局分, opponent_match_points 对手场分, direct 直胜, "
        "board1_points 主将台局分; lot 抽签 (按比赛种子)",
    )
    method_note: str | None = Field(None, description="规程未写明方法时, 这里写明所选默认")

    @model_validator(mode="after")
    def _tie_breaks_follow_the_method(self) -> TeamCompetition:
        """Unstated tie-breaks default by method: a 场分 competition has no individual places to
        compare, so its default is 局分, 直胜, 主将台局分 (still marked as a default by show)."""
        if self.method == "match_points" and "tie_breaks" not in self.model_fields_set:
            self.__dict__["tie_breaks"] = list(MATCH_DEFAULT_TIE_BREAKS)
        return self


class TeamRules(Strict):
    kind: Literal["city", "province", "club", "school"] = "city"
    name: str = Field("代表队", description="如 城市代表队, 省队")
    max_teams: int | None = Field(None, ge=1, le=100_000)
    max_players: int = Field(ge=1, le=MAX_TEAM)
    max_men: int | None = Field(None, ge=0, le=MAX_TEAM)
    max_women: int | None = Field(None, ge=0, le=MAX_TEAM)
    min_women: int | None = Field(
        None, ge=1, le=MAX_TEAM, description="每队报名队员中至少几名女棋手, 如 每队4人(其中至少1名女棋手)",
    )
    slots: list[TeamSlot] = Field(default_factory=list, description="固定席位, 如 甲乙丙组男女各1名")
    leaders: int = Field(0, ge=0, le=MAX_TEAM, description="领队人数上限")
    coaches: int = Field(0, ge=0, le=MAX_TEAM, description="教练人数上限")
    per_region: int | None = Field(None, ge=1, le=100_000, description="每个参赛单位(地区)限报队数")
    own_associations: list[str] = Field(
        default_factory=list,
        description="自成一个参赛单位的城市或单位 (不计入所在省), 如 计划单列市 大连、青岛、宁波、厦门、"
        "深圳 和 新疆生产建设兵团",
    )
    registration_from: datetime | None = None
    registration_to: datetime | None = None
    extra_players_play_individually: bool = Field(
        False, description="不足或超过团体人数的可以以个人名义参赛"
    )
    backfill_rule: str | None = Field(None, description="人数不足时的递补规则")
    competitions: list[TeamCompetition] = Field(default_factory=list)
