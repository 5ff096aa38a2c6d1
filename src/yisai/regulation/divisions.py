"""组别 (divisions), who may enter them, and the ranking lists computed inside each."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from yisai.regulation.rules import (
    PairingRules,
    PlayRules,
    RankingRules,
    Scoring,
    Strict,
    TimeControl,
)
from yisai.vocabulary import Gender
from yisai.vocabulary.rank import RankField

ProfessionalPolicy = Literal["forbidden", "new_pro_as_amateur", "allowed"]
EntryRoute = Literal["open", "qualified", "team", "invited", "wildcard", "direct"]


def _open_route() -> list[EntryRoute]:
    return ["open"]


class Eligibility(Strict):
    """参赛资格. Every limit is optional; absent means no limit."""

    born_from: date | None = Field(None, description="出生日期不早于")
    born_to: date | None = Field(None, description="出生日期不晚于")
    genders: list[Gender] | None = Field(None, description="限定性别")
    min_rank: RankField | None = Field(None, description="最低段级位")
    max_rank: RankField | None = Field(None, description="最高段级位")
    certificate_required: bool = Field(False, description="须持有中国围棋协会监制的业余段级位证书")
    professionals: ProfessionalPolicy = Field(
        "allowed",
        description="forbidden 仅限业余棋手; new_pro_as_amateur 当年新定段的职业棋手按业余身份参赛; allowed 不限",
    )
    regions: list[str] | None = Field(None, description="限定地区, 如 [\"中国大陆\"]")
    region_notes: dict[str, str] = Field(
        default_factory=dict, description="特定地区另行规定, 如 港澳台: 参赛事宜另行规定"
    )
    approval_required: bool = Field(False, description="报名后须主办方审核通过")
    routes: list[EntryRoute] = Field(
        default_factory=_open_route,
        description="参赛途径: open 公开报名; qualified 选拔产生; team 代表队; invited 特邀; wildcard 外卡; direct 直接报名",
    )
    represent_rule: str | None = Field(
        None, description="代表单位规则, 如 须代表户口本签发单位或学籍所在省市"
    )
    exact_age_group: bool = Field(
        False, description="须按出生日期对应组别参赛, 不得以大打小或以小打大"
    )
    members_of: str | None = Field(
        None, min_length=1, description="须为该名单的在册会员, 如 本协会注册会员; 名单由主办方导入",
    )


class RankingList(Strict):
    """名次: one ordered list inside a division (mixed, one gender, or an age band)."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    gender: Gender | None = None
    min_age: int | None = Field(None, ge=0, le=120, description="年龄不小于(以 age_reference 日计)")
    age_reference: date | None = Field(None, description="计算年龄的日期, 如总决赛首日")


class MergeRule(Strict):
    """A small division may play inside another yet keep its own ranking (中老年组 → 公开组)."""

    into: str
    when_entries_below: int | None = Field(
        None, ge=1, le=1_000_000, description="参赛人数少于此数时合并 (规程: 根据参赛人数确定)"
    )
    decided_by: str = Field("根据参赛人数确定单独成组或与公开组合并竞赛", description="合并依据")
    separate_ranking: bool = Field(True, description="合并后分别计算名次")


def stones_to_win(rules: PlayRules) -> int:
    """黑方获胜至少需要的子数 (area scoring): more than (points on the board + komi) / 2, so
    19路 贴7.5目 → 185, 13路 → 89, 9路 → 45 (“九路 黑45子胜”)."""
    return int((rules.board_size * rules.board_size + rules.komi) // 2) + 1


class Division(Strict):
    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    parent: str | None = Field(None, description="上级组别名称, 如 少儿组")
    eligibility: Eligibility = Field(default_factory=Eligibility)
    rankings: list[RankingList] = Field(min_length=1)
    may_enter_instead: list[str] = Field(
        default_factory=list, description="棋手也可选择参加的其他组别"
    )
    merge: MergeRule | None = None
    scoring: Scoring | None = Field(None, description="不填则用全局 scoring")
    ranking_rules: RankingRules | None = Field(None, description="不填则用全局 ranking")
    pairing: PairingRules | None = Field(None, description="不填则用全局 pairing")
    platform: str | None = Field(None, description="线上比赛平台")
    board_size: int | None = Field(
        None, ge=5, le=25, description="本组棋盘路数, 如 乙组(成长组): 13路棋盘; 不填则用 rules.board_size")
    komi: float | None = Field(
        None, ge=-50, le=50, allow_inf_nan=False, description="本组贴目(目); 不填则用 rules.komi")
    time_control: TimeControl | None = Field(
        None, description="本组比赛用时; 不填则用各阶段的 time_control")
    capacity: int | None = Field(None, ge=1, le=100_000, description="本组限报人数, 如 限额100人")

    def play_rules(self, rules: PlayRules) -> PlayRules:
        """The event's rules of play with this division's own board size and komi, if it has them."""
        own = {k: v for k, v in (("board_size", self.board_size), ("komi", self.komi)) if v is not None}
        return rules.model_copy(update=own) if own else rules
