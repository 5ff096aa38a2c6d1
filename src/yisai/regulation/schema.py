"""The whole 竞赛规程 as one validated model; each part lives in its own module."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from yisai.regulation.admin import (
    Appeals,
    Fees,
    Issued,
    Obligation,
    Officials,
    OpenPoint,
    Organisers,
    Registration,
)
from yisai.regulation.divisions import Division
from yisai.regulation.lateness import Lateness
from yisai.regulation.prizes import Prizes
from yisai.regulation.promotions import PromotionRule
from yisai.regulation.rank_awards import RankAwardRule
from yisai.regulation.rules import (
    PairingRules,
    PlayRules,
    RankingRules,
    Scoring,
    Strict,
    TimeControl,
)
from yisai.regulation.stages import Stage
from yisai.regulation.teams import TeamRules
from yisai.regulation.withdrawal import Withdrawal


class Regulation(Strict):
    schema_version: int = Field(1, ge=1, le=1)
    id: str = Field(pattern=r"^[a-z0-9_\-]+$", description="短标识, 如 2025-shanhai-cup")
    name: str = Field(min_length=1)
    short_name: str | None = Field(
        None, min_length=1, max_length=30,
        description="短信等通知中使用的简称 (如 山海杯棋王赛); 不填则用比赛全称. 全称过长时每条通知计两条短信费用",
    )
    year: int = Field(ge=1900, le=2200)
    issued: Issued
    organisers: Organisers
    events: list[str] = Field(default_factory=list, description="竞赛项目")
    website: str | None = None
    rules: PlayRules = Field(default_factory=PlayRules)
    scoring: Scoring = Field(default_factory=Scoring)
    ranking: RankingRules = Field(default_factory=RankingRules)
    pairing: PairingRules = Field(default_factory=PairingRules)
    divisions: list[Division] = Field(min_length=1)
    stages: list[Stage] = Field(min_length=1)
    teams: TeamRules | None = None
    prizes: Prizes = Field(default_factory=Prizes)
    rank_awards: list[RankAwardRule] = Field(default_factory=list)
    promotions: list[PromotionRule] = Field(
        default_factory=list, description="升段/定级: 按胜局数授予段级位"
    )
    lateness: Lateness | None = Field(
        None, description="迟到: 迟到N分钟判负或该轮弃权; 不填则由裁判逐局录入"
    )
    withdrawal: Withdrawal = Field(
        default_factory=Withdrawal, description="中途退赛与取消资格: 名次与已赛对局"
    )
    fees: Fees = Field(default_factory=Fees)
    registration: Registration = Field(default_factory=Registration)
    appeals: Appeals | None = None
    officials: Officials = Field(default_factory=Officials)
    obligations: list[Obligation] = Field(default_factory=list)
    conduct: list[str] = Field(default_factory=list, description="纪律准则与安全事项")
    disputes: str | None = None
    interpretation: str | None = Field(None, description="解释权")
    open_points: list[OpenPoint] = Field(
        default_factory=list, description="规程未明确之处及本文件选定的默认"
    )

    def division(self, division_id: str) -> Division:
        for d in self.divisions:
            if d.id == division_id:
                return d
        raise KeyError(division_id)

    def find_division(self, ref: str) -> Division | None:
        """A division by what people write: its id (``jia``), its name (甲组) or the name
        without 组 (甲). The one lookup every command, page and sheet uses."""
        text = ref.strip()
        for d in self.divisions:
            if text in (d.id, d.name, d.name.removesuffix("组")) or text.lower() == d.id.lower():
                return d
        return None

    def division_choices(self) -> str:
        """``甲组(jia)、乙组(yi)``: how errors list the divisions."""
        return "、".join(f"{d.name}({d.id})" for d in self.divisions)

    def stage(self, stage_id: str) -> Stage:
        for s in self.stages:
            if s.id == stage_id:
                return s
        raise KeyError(stage_id)

    def scoring_for(self, division_id: str) -> Scoring:
        return self.division(division_id).scoring or self.scoring

    def ranking_for(self, division_id: str) -> RankingRules:
        return self.division(division_id).ranking_rules or self.ranking

    def award_day(self) -> date | None:
        """The date certificates carry: ``prizes.award_day``, else the end of the last stage
        that has dates (the event's last day), else None (left blank for the pen)."""
        if self.prizes.award_day is not None:
            return self.prizes.award_day
        days = [d for s in self.stages if (d := s.end or s.start) is not None]
        return max(days, default=None)

    def play_rules_for(self, division_id: str) -> PlayRules:
        """Board size and komi as the division plays them (乙组 13路, 6级以下 9路)."""
        return self.division(division_id).play_rules(self.rules)

    def time_control_for(self, division_id: str, stage: Stage) -> TimeControl | None:
        """The clock ``division`` plays on in ``stage``: the division's own, else the stage's."""
        return self.division(division_id).time_control or stage.time_control

    def pairing_for(self, division_id: str) -> PairingRules:
        return self.division(division_id).pairing or self.pairing
