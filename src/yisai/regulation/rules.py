"""Scoring, tie-break and pairing settings: the parts of a 规程 the algorithms read directly.

Kept apart from the event description (schema.py) because pairing and standings import only
these, and their defaults are the ones DESIGN.md "Rules and their defaults" fixes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from yisai.i18n import Text, tr
from yisai.record.games import Game, Result
from yisai.regulation.criteria import (
    CRITERION_LABELS,
    Criterion,
    criterion_by_name,
    criterion_label,
    criterion_other_names,
)
from yisai.regulation.messages import BadValue


class Strict(BaseModel):
    """Unknown keys are errors: a misspelt setting must never be silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _code_name(value: object) -> object:
    """A Chinese criterion name in a regulation file becomes its code name (the rest is left
    for the field's own validation, which lists the allowed values)."""
    if isinstance(value, str) and (found := criterion_by_name(value)) is not None:
        return found[0].value
    return value


#: What happened to a player in one round (``Scoring.points``).
RoundKind = Literal["game", "forfeit", "bye", "absent"]


class Scoring(Strict):
    """Points per game outcome (积分). Defaults: win 2, draw 1, loss 0, bye 2."""

    win: int = Field(2, ge=0, le=100)
    draw: int = Field(1, ge=0, le=100)
    loss: int = Field(0, ge=-100, le=100)
    bye: int = Field(2, ge=0, le=100, description="轮空得分")
    forfeit_win: int = Field(2, ge=0, le=100, description="对方弃权时的得分")
    forfeit_loss: int = Field(0, ge=-100, le=100, description="弃权方得分")
    both_forfeit: int = Field(0, ge=-100, le=100, description="双方弃权各得分")
    absent: int = Field(0, ge=0, le=100, description="未参加的轮次得分")
    forfeit_counts_in_sos: bool = Field(
        False, description="未下的弃权局对手是否计入对手分(默认否, 与轮空相同)"
    )

    def points(self, kind: RoundKind, outcome: str, *, both_lose: bool = False) -> int:
        """积分 for one player's round: the one table that pairing, standings and teams read.

        ``kind`` is what happened that round ('game' over the board — a loss on time is one —,
        'forfeit' paired but not played, 'bye', 'absent'); ``outcome`` is 'W' 'D' 'L' or '?'
        (not yet entered) from the player's side; ``both_lose`` marks a 双方弃权/双方判负 result.
        A bye the referee marked lost scores as a loss; an unplayed both-lose scores
        ``both_forfeit`` for each side.
        """
        if kind == "absent":
            return self.absent
        if kind == "bye":
            return self.bye if outcome == "W" else self.loss
        if outcome == "?":
            return 0
        if kind == "forfeit":
            if both_lose:
                return self.both_forfeit
            return {"W": self.forfeit_win, "D": self.draw}.get(outcome, self.forfeit_loss)
        return {"W": self.win, "D": self.draw}.get(outcome, self.loss)

    def game_points(self, game: Game, player: str) -> int:
        """积分 ``player`` earned from one game record (a bye is a game without White)."""
        kind: RoundKind = "bye" if game.is_bye else "game" if game.played else "forfeit"
        return self.points(kind, game.outcome_for(player), both_lose=game.result == Result.BOTH_LOSE)


class CriterionSpec(Strict):
    """One entry of the ordered tie-break list, with its parameters."""

    criterion: Criterion
    from_last_round: bool = Field(
        False, description="仅用于逐轮减去对手分: 从最后一轮开始减(默认从第1轮开始)"
    )

    @field_validator("criterion", mode="before")
    @classmethod
    def _chinese_name(cls, value: object) -> object:
        return _code_name(value)


class RankingRules(Strict):
    """How a ranking list is ordered (个人名次计算)."""

    criteria: list[CriterionSpec] = Field(
        default_factory=lambda: [
            CriterionSpec(criterion=Criterion.SCORE),
            CriterionSpec(criterion=Criterion.SOS),
            CriterionSpec(criterion=Criterion.CUMULATIVE),
        ],
        min_length=1,
    )
    undefeated_champion: bool = Field(False, description="全胜者冠军")
    mini_league: bool = Field(
        False,
        description="小循环 (循环赛): 第一项指标相同的选手先比相互之间的对局积分 (两人即直胜; 须两两都已对局), "
        "分不开的再在仍相同者之间重比, 然后才用其余指标",
    )
    total_score: dict[Criterion, Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=lambda: {Criterion.SCORE: 1, Criterion.SOS: 1},
        description="总得分 = Σ 权重 × 指标 (默认 积分 + 对手分)",
    )

    @field_validator("criteria", mode="before")
    @classmethod
    def _names_to_specs(cls, value: object) -> object:
        # Allow the short form criteria = ["score", "sos"] (or ["积分", "对手分"]) as well as
        # tables; an alias such as "逐轮减去对手分(从最后一轮)" carries its parameter.
        if isinstance(value, list):
            return [_short_spec(v) if isinstance(v, str) else v for v in value]
        return value

    @field_validator("total_score", mode="before")
    @classmethod
    def _chinese_terms(cls, value: object) -> object:
        if isinstance(value, dict):
            return {_code_name(k): v for k, v in value.items()}
        return value

    @field_validator("total_score")
    @classmethod
    def _no_recursive_total(cls, value: dict[Criterion, int]) -> dict[Criterion, int]:
        bad = {Criterion.TOTAL_SCORE, Criterion.DIRECT, Criterion.LOT}
        if bad & set(value):
            raise BadValue("总得分公式不能引用 total_score、direct 或 lot",
                           "the total score formula cannot use total_score, direct or lot")
        if not value:
            raise BadValue("总得分公式至少需要一项", "the total score formula needs at least one term")
        return value


def _short_spec(name: str) -> dict[str, object]:
    found = criterion_by_name(name)
    if found is None:
        return {"criterion": name}
    crit, from_last = found
    return {"criterion": crit.value, "from_last_round": True} if from_last else {"criterion": crit.value}


Round1Method = Literal["slide", "fold", "split_lot", "random"]
InGroupMethod = Literal["split", "adjacent"]
AvoidKey = Literal["team", "province", "city", "club"]
AVOID_WORDS: dict[str, Text] = {  # 同队 / 同省 / 同市 / 同俱乐部
    "team": Text("队", "team"),
    "province": Text("省", "province"),
    "city": Text("市", "city"),
    "club": Text("俱乐部", "club"),
}


SeedKey = Literal["rank", "rating", "lot"]


def _default_seeding() -> list[SeedKey]:
    return ["rank", "rating", "lot"]


class PairingRules(Strict):
    """积分编排 settings (DESIGN.md defaults)."""

    round1_seeding: list[SeedKey] = Field(
        default_factory=_default_seeding,
        description="第一轮排序依据: 段位, 等级分, 抽签",
    )
    round1_method: Round1Method = Field(
        "slide",
        description="第一轮: slide 上半区对下半区(1对n/2+1); fold 折叠(1对n); "
        "split_lot 上下半区抽签配对; random 完全随机",
    )
    in_group: InGroupMethod = Field("split", description="同分组内: split 上半对下半; adjacent 相邻")
    avoid_same: AvoidKey | None = Field(None, description="回避同队/同省/同市/同俱乐部")
    avoid_rounds: int | Literal["all"] = Field(
        0, description="前k轮回避(0=不回避); \"all\" = 每轮都尽量回避",
    )
    colour_balance: bool = Field(True, description="平衡黑白次数, 避免连续三次同色")

    @field_validator("avoid_rounds", mode="before")
    @classmethod
    def _avoid_rounds_range(cls, value: object) -> object:
        if isinstance(value, bool) or (isinstance(value, str) and value != "all") or (
                isinstance(value, int) and not 0 <= value <= 50):
            raise BadValue(f"回避轮数须在0到50之间或为 \"all\": {value}",
                           f"avoidance rounds must be 0 to 50 or \"all\": {value}")
        return value

    def avoid_in(self, round_no: int) -> AvoidKey | None:
        """The affiliation avoided in round ``round_no`` (None: no avoidance that round).

        Avoidance is one priority level below the score difference (DESIGN.md), so "always"
        still only avoids a teammate when the score groups allow it."""
        if self.avoid_same is None:
            return None
        if self.avoid_rounds == "all" or round_no <= self.avoid_rounds:
            return self.avoid_same
        return None

    def avoid_policy(self) -> str:
        """The avoidance setting in words (regulation summary, ``--explain``); "" when off."""
        if self.avoid_same is None or not self.avoid_rounds:
            return ""
        what = AVOID_WORDS[self.avoid_same]
        if self.avoid_rounds == "all":
            return tr(f"每轮尽量回避同{what.zh}(不破坏积分分组, 不重复对局)",
                      f"players of the same {what.en} avoided in every round when possible "
                      "(never at the cost of the score groups or a rematch)")
        return tr(f"前{self.avoid_rounds}轮尽量回避同{what.zh}(不破坏积分分组, 不重复对局)",
                  f"players of the same {what.en} avoided in the first {self.avoid_rounds} rounds "
                  "when possible (never at the cost of the score groups or a rematch)")


class TimeControl(Strict):
    """比赛用时: main time, then byo-yomi periods; overrunning the last period loses on time."""

    main_minutes: int = Field(ge=0, le=600, description="基本用时(分钟)")
    byoyomi_periods: int = Field(0, ge=0, le=10, description="读秒次数")
    byoyomi_seconds: int = Field(0, ge=0, le=300, description="每次读秒秒数")
    loss_on_time: bool = Field(True, description="超时判负")


class DisconnectionRules(Strict):
    """断线与逃跑 (online play). Defaults are seed 000's: >60 s is one disconnection; more than
    2 disconnections, or more than 120 s absent in total, is an escape."""

    disconnection_after_seconds: int = Field(60, ge=1, le=3600, description="每次中断超过N秒即算断线")
    max_disconnections: int = Field(2, ge=0, le=100, description="断线次数大于N次即视为逃跑")
    max_total_absence_seconds: int = Field(
        120, ge=1, le=36000, description="断线总时长超过N秒即视为逃跑"
    )
    absence_definition: str = Field(
        "与对局没有实时连接即算中断", description="何为“不在平台中”(规程未明确, 此为默认解释)"
    )
    short_absences_count_in_total: bool = Field(
        True, description="总时长是否计入不足60秒的短暂中断(规程未明确, 默认计入)"
    )


class PlayRules(Strict):
    """Rules of play (中国围棋竞赛规则): area scoring, komi in points (7.5 = 3¾ 子)."""

    board_size: int = Field(19, ge=2, le=25)
    komi: float = Field(7.5, ge=-50, le=50, allow_inf_nan=False)
    superko: Literal["positional", "simple_ko"] = Field(
        "positional", description="positional 全局同形禁止(网络对局); simple_ko 仅禁止打劫立即提回"
    )
    cycle_result: Literal["void", "draw"] = Field(
        "void", description="simple_ko 下出现循环劫时: void 无胜负(重赛) 或 draw 和棋"
    )
    suicide_allowed: bool = False
    rules_text: str = "中国围棋协会审定的最新围棋竞赛规则"


__all__ = [
    "AVOID_WORDS",
    "CRITERION_LABELS",
    "Criterion",
    "CriterionSpec",
    "DisconnectionRules",
    "PairingRules",
    "PlayRules",
    "RankingRules",
    "Scoring",
    "Strict",
    "TimeControl",
    "criterion_by_name",
    "criterion_label",
    "criterion_other_names",
]
