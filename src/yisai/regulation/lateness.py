"""迟到: what the 规程 says happens to a player who comes late to the board.

Real texts: "迟到15分钟判负", "迟到15分钟该轮弃权", "迟到超过10分钟者判负", "遲到加倍扣時,
遲到20分鐘裁定敗". The referee enters who was late and by how many minutes; the rule decides:
late by the limit or more (or, with ``inclusive = false``, by more than the limit) the game is
scored as the late player's loss — a loss by lateness (迟到判负) or a forfeit of the round (弃权,
which also counts towards ``withdrawal.exclude_after_forfeits``) as ``outcome`` says. Either
way the game was not played over the board, so whether it counts in 对手分 follows
``scoring.forfeit_counts_in_sos``, as for any forfeit. Below the
limit the game goes ahead; with ``clock_factor = 2`` (遲到加倍扣時) the late player's clock
loses twice the minutes late.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from yisai.regulation.rules import Strict

LateOutcome = Literal["loss", "forfeit"]

LATE_LOSS_REASON = "迟到判负"
FORFEIT_REASON = "弃权"


class Lateness(Strict):
    minutes: int = Field(ge=1, le=240, description="迟到判负(或弃权)的时限(分钟), 如 迟到15分钟判负")
    inclusive: bool = Field(
        True, description="true: 迟到恰好N分钟即判 (“迟到15分钟判负”“10分钟(含)以上”); false: 超过N分钟才判 (“迟到超过10分钟”)"
    )
    outcome: LateOutcome = Field(
        "loss", description="loss 迟到判负 (该局判负); forfeit 该轮按弃权处理 (计入 exclude_after_forfeits 的弃权次数)"
    )
    clock_factor: int = Field(
        1, ge=1, le=2, description="未到时限时从迟到者用时中扣除迟到时间的倍数: 1 照扣; 2 遲到加倍扣時"
    )

    def decide(self, minutes_late: int) -> LateDecision:
        """What ``minutes_late`` minutes of lateness means under this rule."""
        over = minutes_late >= self.minutes if self.inclusive else minutes_late > self.minutes
        if over:
            reason = LATE_LOSS_REASON if self.outcome == "loss" else FORFEIT_REASON
            return LateDecision(minutes_late, True, reason, 0)
        return LateDecision(minutes_late, False, "", minutes_late * self.clock_factor)

    @property
    def limit_text(self) -> str:
        """``迟到15分钟`` / ``迟到超过10分钟``: the limit as the 规程 writes it."""
        return f"迟到{self.minutes}分钟" if self.inclusive else f"迟到超过{self.minutes}分钟"

    @property
    def limit_text_en(self) -> str:
        return (f"{self.minutes} minutes late or more" if self.inclusive
                else f"more than {self.minutes} minutes late")


@dataclass(frozen=True)
class LateDecision:
    """The rule applied to one late arrival: whether the game is lost (and with which reason in
    the ledger), else the minutes taken from the late player's clock."""

    minutes_late: int
    loses: bool
    reason: str
    clock_minutes: int
