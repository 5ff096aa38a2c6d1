"""团体赛: a stage played team against team on a fixed number of boards.

Each round pairs teams (Swiss by 场分 with no rematch, or a round robin); each team puts a
line-up (出场名单) of its registered players on the boards; the board results give 局分 (board
points) and the match result gives 场分 (match points). The ranking it feeds is the
``teams.competitions`` entry named by ``competition`` (method ``match_points``).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from yisai.regulation.format_base import StageFormat
from yisai.regulation.rules import Strict

MAX_BOARDS = 20
BoardPrizeRule = Literal["board_points", "percentage", "wins"]
BoardPrizeTieBreak = Literal["team_place", "board_points", "percentage", "wins", "lot"]


class MatchPoints(Strict):
    """场分 of one team match, from its board points: more 局分 wins the match."""

    win: int = Field(2, ge=0, le=100, description="胜一场得分")
    draw: int = Field(1, ge=0, le=100, description="平一场得分 (局分相同)")
    loss: int = Field(0, ge=0, le=100, description="负一场得分")


class BoardPoints(Strict):
    """局分 of one board: a forfeited board (缺人或弃权) is a loss for the side that forfeits."""

    win: float = Field(1, ge=0, le=100, allow_inf_nan=False, description="每盘胜局得局分")
    draw: float = Field(0.5, ge=0, le=100, allow_inf_nan=False, description="和棋得局分")
    loss: float = Field(0, ge=0, le=100, allow_inf_nan=False, description="负局(含弃权)得局分")

    def of(self, outcome: str) -> float:
        """局分 for one board's outcome letter ('W' 'D' 'L'; '?' not finished: nothing yet)."""
        return {"W": self.win, "D": self.draw, "L": self.loss}.get(outcome, 0.0)


class BoardPrize(Strict):
    """台次奖 (最佳主将, 最佳第二台 …): the best record on one board over the stage."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str = Field(description="如 最佳主将")
    board: int = Field(ge=1, le=MAX_BOARDS, description="台次, 1 = 主将台")
    places: int = Field(1, ge=1, le=100, description="评选名额")
    rule: BoardPrizeRule = Field(
        "board_points",
        description="board_points 在该台所得局分最多; percentage 该台胜率最高; wins 该台胜局最多 "
        "(须至少下满 min_games 盘)",
    )
    tie_breaks: list[BoardPrizeTieBreak] = Field(
        default_factory=list,
        description="评选指标相同时依次比较: team_place 所在队团体名次 (靠前者列前); board_points 该台局分; "
        "percentage 该台胜率; wins 该台胜局数; lot 抽签. 如 胜局相同比较所在队团体名次 = [\"team_place\"]",
    )
    single: bool = Field(
        False, description="规程写明只评 places 名 (如 最佳主将1名): 比完 tie_breaks 仍相同时抽签, 不并列获奖",
    )
    min_games: int = Field(1, ge=1, le=100, description="至少在该台出场的盘数")
    played_only: bool = Field(
        False, description="只计实际出场下完的对局: 对方缺人而判胜的台次不计局分、不计盘数 (规程: 按出场…计算)",
    )
    amount: int | None = Field(None, ge=0, le=100_000_000, description="奖金 (元)")
    gift: str | None = Field(None, description="奖品, 如 奖杯")


class AgeQuota(Strict):
    """每场至少N名M岁以下棋手出场: a per-match quota of young players in every line-up."""

    players: int = Field(1, ge=1, le=MAX_BOARDS, description="每场出场阵容中至少几名")
    under_age: int = Field(
        ge=1, le=100,
        description="不满此周岁 (按本阶段开始日期 start 计) 的棋手计入, 如 18岁以下 = 18; 规程若含本数 (含18岁) 写 19",
    )


class TeamMatchFormat(StageFormat):
    """团体赛 (team against team on ``boards`` boards)."""

    kind: Literal["team_match"]
    swiss_rules: ClassVar[bool] = True
    system: Literal["swiss", "round_robin", "double_round_robin"] = Field(
        description="swiss 按场分积分编排 (不重复相遇); round_robin 单循环 (贝格尔编排); double_round_robin 双循环 "
        "(第二循环重复第一循环的对阵, 每台双方执黑执白互换)"
    )
    rounds: int | None = Field(
        None, ge=1, le=60, description="轮数; swiss 必填; round_robin/double_round_robin 由队数决定 (填写则须相符)"
    )
    boards: int = Field(ge=1, le=MAX_BOARDS, description="每场台数, 如 3")
    seating: Literal["lot", "registered_order"] = Field(
        "lot", description="队号 (单循环的贝格尔表位置; 积分编排第一轮的排序): lot 按比赛种子抽签; "
        "registered_order 按报名顺序"
    )
    competition: str = Field(description="本阶段产生的团体名次: teams.competitions 的 id (method = match_points)")
    match_points: MatchPoints = Field(default_factory=MatchPoints, description="场分: 胜/平/负")
    board_points: BoardPoints = Field(default_factory=BoardPoints, description="局分: 胜/和/负")
    colours: Literal["alternate"] = Field(
        "alternate",
        description="alternate: 对阵表上方的队在单数轮单数台执黑、双数台执白, 双数轮相反",
    )
    fixed_order: bool = Field(
        True, description="台次顺序固定: 出场队员须按报名顺序排台 (可跳过替补, 不可颠倒)"
    )
    min_women: int = Field(0, ge=0, le=MAX_BOARDS, description="每场出场阵容中至少几名女棋手")
    lineup_by: Literal["leader_or_director", "director"] = Field(
        "leader_or_director", description="出场名单由谁提交: 领队或裁判长 / 只由裁判长"
    )
    youth_quota: AgeQuota | None = Field(
        None, description="每场出场阵容中至少几名某年龄以下的棋手, 如 每场至少1名18岁以下棋手出场",
    )
    lineup_deadline_minutes: int | None = Field(
        None, ge=1, le=7 * 24 * 60,
        description="出场名单须在该轮开始前N分钟提交 (按本阶段日程 timetable 中该轮的时间), 如 赛前30分钟提交 = 30; "
        "逾时不再受理, 未提交的队按 lineup_default 出场",
    )
    leader_may_play: bool = Field(
        True, description="领队可兼任队员出场; false: 报名为领队的人 (按姓名) 不得列入出场名单",
    )
    lineup_default: Literal["registered_order"] = Field(
        "registered_order",
        description="编排该轮时仍未提交出场名单的队: 按报名顺序取前 boards 名 (满足 min_women 与 youth_quota, "
        "不含不得出场的领队)",
    )
    bye: Literal["match_win_all_boards"] = Field(
        "match_win_all_boards", description="队数为单数时轮空的队: 记胜一场, 各台均记胜局的局分"
    )
    board_prizes: list[BoardPrize] = Field(default_factory=list, description="台次奖, 如 最佳主将")

    @property
    def cycles(self) -> int:
        """Berger cycles a round-robin system plays (双循环: 2); 0 for Swiss."""
        return {"swiss": 0, "round_robin": 1, "double_round_robin": 2}[self.system]
