"""升段/定级: promotion by wins — a player of a division holding a given rank who wins enough
games of the event is granted a higher rank ("7局胜5局升一段", "定级: 胜5局定1段")."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from yisai.regulation.messages import BadValue
from yisai.regulation.rules import Strict
from yisai.vocabulary.rank import RankField


class PromotionStep(Strict):
    """胜 ``wins`` 局 (at least): 升 ``promote`` 段/级, or 定为 ``rank`` (定级)."""

    wins: int = Field(ge=0, le=100, description="至少胜N局")
    promote: int | None = Field(None, ge=1, le=20, description="升N段(级); 与 rank 二选一")
    rank: RankField | None = Field(None, description="定为该段级位 (定级); 与 promote 二选一")

    @model_validator(mode="after")
    def _one_grant(self) -> Self:
        if (self.promote is None) == (self.rank is None):
            raise BadValue("promote (升N段) 与 rank (定为X段/级) 须写且只写一个",
                           "write exactly one of promote (steps up) and rank (the rank granted)")
        return self


class PromotionRule(Strict):
    """One sentence of the 规程's 升段/定级 section, for the players of one division whose rank
    at entry lies in ``min_rank``..``max_rank`` (or who have no rank, with ``unranked``).

    The steps are tried from the most wins down: the first one reached is the grant.
    """

    division: str
    name: str = Field("升段", min_length=1, description="如 升段, 定级")
    min_rank: RankField | None = Field(None, description="参赛时段级位不低于 (含); 不填不限")
    max_rank: RankField | None = Field(None, description="参赛时段级位不高于 (含); 不填不限")
    unranked: bool = Field(False, description="无段级位的棋手也适用 (定级)")
    ranked: bool = Field(True, description="有段级位的棋手适用 (定级赛只给无级位者时写 false)")
    rounds: int | None = Field(
        None, ge=1, le=100, description="规程所说的局数 (7局胜5局 的 7); 比赛实际轮数不同则不适用"
    )
    steps: list[PromotionStep] = Field(min_length=1, description="胜局数与授予")
    highest: RankField | None = Field(None, description="最高升至该段级位 (如 业余5段)")
    forfeit_wins_count: bool = Field(False, description="对方弃权的胜局计入胜局数")
    byes_count: bool = Field(False, description="轮空计入胜局数")
    must_play_all_rounds: bool = Field(True, description="须参加全部轮次 (本人弃权或缺席即不授予)")
    withdrawn_excluded: bool = Field(
        True, description="中途退赛或被取消资格者不予授予 (未下满N轮(中途退赛)者不予升段); 与 must_play_all_rounds 无关")
    note: str | None = Field(None, description="如 由中国围棋协会审核后颁发证书")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.min_rank is not None and self.max_rank is not None and self.min_rank > self.max_rank:
            raise BadValue(f"段级位范围颠倒: {self.min_rank} 高于 {self.max_rank}",
                           f"rank range inverted: {self.min_rank.short} above {self.max_rank.short}")
        if not self.ranked and not self.unranked:
            raise BadValue("ranked 与 unranked 都为 false: 这条规则不适用于任何人",
                           "ranked and unranked are both false: the rule applies to nobody")
        if not self.ranked and (self.min_rank is not None or self.max_rank is not None):
            raise BadValue("ranked = false (只给无段级位者) 时 min_rank/max_rank 不起作用, 请删去",
                           "with ranked = false, min_rank/max_rank have no effect: remove them")
        wins = [s.wins for s in self.steps]
        if len(set(wins)) != len(wins):
            raise BadValue(f"胜局数重复: {wins}", f"the same win count twice: {wins}")
        if self.rounds is not None and max(wins) > self.rounds:
            raise BadValue(f"胜{max(wins)}局超过局数 {self.rounds}",
                           f"{max(wins)} wins exceed the {self.rounds} games")
        if self.unranked and any(s.promote is not None for s in self.steps) and not any(
                s.rank is not None for s in self.steps):
            raise BadValue("无段级位的棋手 (unranked = true) 没有可升的段级位: promote 对他们不起作用, 请用 rank 写定为几段/级",
                           "unranked players have no rank to step up from: promote has no effect for them, "
                           "use rank")
        if self.highest is not None and all(s.rank is not None for s in self.steps):
            raise BadValue("highest (最高升至) 只对 promote 起作用; 全部为定级 rank 时请删去",
                           "highest only limits promote steps; with rank grants only, remove it")
        return self
