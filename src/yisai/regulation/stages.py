"""Stages (赛程) and their formats: online ladder, Swiss, two-group Swiss with a same-place final,
round robin in groups (optionally followed by a knockout), knockout."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Annotated, Literal

from pydantic import Field, model_validator

from yisai.regulation.criteria import PlaceCriterion
from yisai.regulation.messages import BadValue
from yisai.regulation.rules import DisconnectionRules, Strict, TimeControl
from yisai.regulation.team_match import TeamMatchFormat


class Period(Strict):
    """One period (期) of the online qualifier; periods are parallel, not progressive."""

    number: int = Field(ge=1, le=1000)
    start: date
    end: date
    first_day_start: time | None = Field(None, description="首日开始时间, 如 10:00")


def _wins_only() -> list[Literal["wins"]]:
    return ["wins"]


class LadderFormat(Strict):
    """积分晋级制: random matching, +win/−loss, escape penalised; top N per period qualify."""

    kind: Literal["online_ladder"]
    matching: Literal["random"] = "random"
    win: int = Field(2, ge=1, le=100)
    loss: int = Field(-2, ge=-100, le=100)
    escape: int = Field(-2, ge=-100, le=100, description="逃跑方得分")
    escape_opponent: int = Field(2, ge=0, le=100, description="逃跑方的对手得分")
    escape_win_counts: bool = Field(
        False,
        description="对手逃跑的一局是否计入胜局数 (积分相同比胜局数时); 种子规程只写'对手得2分', "
                    "未称胜局, 默认不计",
    )
    pools: dict[str, list[str]] = Field(
        default_factory=dict, description="合并录取的组别, 如 youth = [\"junior\", \"kids\"] (少儿组)"
    )
    qualifiers: dict[str, Annotated[int, Field(ge=1, le=1_000_000)]] = Field(description="每期录取名额, 键为组别 id 或 pools 的键, 如 open = 38")
    tie_break: list[Literal["wins"]] = Field(default_factory=_wins_only)
    all_tied_qualify: bool = Field(True, description="仍相同则并列一同晋级")
    confirm_within_working_days: int | None = Field(
        None, ge=1, le=365, description="晋级选手须在N个工作日内完善参赛信息, 逾期视为弃权"
    )
    confirm_reminder_days: list[Annotated[int, Field(ge=0, le=60)]] = Field(
        default_factory=lambda: [3, 1], max_length=10,
        description="确认截止日前N天 (日历日) 各提醒一次; 空列表表示不提醒 (规程未规定, 平台设置)",
    )
    may_replay_next_period: bool = Field(True, description="可重新参加下一期")
    earlier_qualifier_place: Literal["kept", "passed_on"] = Field(
        "kept",
        description="前期已晋级的棋手在本期名列前茅时: kept 占用名额 (名额不顺延), passed_on 名额顺延给下一名",
    )
    guardian_under_age: int | None = Field(
        18, ge=1, le=30, description="未满此年龄 (按总决赛首日) 的晋级选手须填写监护人; 不填表示不要求"
    )
    play_hours: str = Field("全天任意时段", description="比赛时段")
    qualifies_for: str | None = Field(None, description="晋级到的阶段 id")


class SwissFormat(Strict):
    """积分编排制 with a fixed number of rounds, or rounds decided by entries."""

    kind: Literal["swiss"]
    rounds: int | None = Field(None, ge=1, le=30, description="轮数; 不填表示视报名情况而定")
    rounds_provisional: bool = Field(False, description="暂定轮数, 具体视报名人数确定")


class PlacementFinal(Strict):
    """同名次决赛: A1–B1 for places 1–2, A2–B2 for 3–4, … for the top ``top`` of each group."""

    round: int = Field(ge=2, le=31)
    top: int = Field(ge=1, le=10_000, description="各组前N名参加同名次决赛")
    below_rule: Literal["interleave"] = Field(
        "interleave",
        description="同名次决赛以外的名次: 按组内名次交替排列 A、B (规程未明确, 默认)",
    )


class TwoGroupSwissFormat(Strict):
    """分AB组积分编排, then a same-place final."""

    kind: Literal["two_group_swiss"]
    groups: list[str] = Field(default_factory=lambda: ["A", "B"], min_length=2, max_length=2)
    split: Literal["snake", "lot"] = Field("snake", description="分组: snake 按段位/等级分蛇形; lot 抽签")
    group_rounds: int = Field(ge=1, le=30)
    placement_final: PlacementFinal


DrawRule = Literal["replay", "black_wins", "white_wins", "higher_seed"]
BothLoseRule = Literal["replay", "higher_seed", "both_out"]


class KnockoutRules(Strict):
    """淘汰赛 settings shared by a stand-alone knockout and the knockout after groups.

    A game must send exactly one player on. With komi 7.5 there is no jigo, but a drawn result
    (integer komi, referee's decision) and 双方弃权/双方判负 can still be entered: what happens
    then is stated here, never guessed.
    """

    third_place: bool = Field(False, description="季军赛: 半决赛负者争第3、4名 (否则并列第3名)")
    on_draw: DrawRule = Field(
        "replay",
        description="和棋 (无胜负) 时: replay 重赛 (重赛结果作为本局成绩的更正录入); black_wins 和棋黑胜; "
        "white_wins 和棋白胜; higher_seed 种子序号靠前者晋级",
    )
    on_both_lose: BothLoseRule = Field(
        "both_out",
        description="双方弃权/双方判负时: both_out 两人都淘汰, 下一轮对手轮空晋级; "
        "higher_seed 种子序号靠前者晋级; replay 重赛",
    )


class PlacesBelow(Strict):
    """How the players the bracket leaves on places ``from``..``to`` are ordered, e.g.
    第5–8名按小组赛积分、对手分 (the quarter-final losers) or 第9名以后按小组名次、小组积分、对手分
    (those who did not qualify). Every value is of the group stage; still equal → shared place."""

    place_from: int = Field(ge=2, le=100_000, alias="from", description="从第N名起")
    place_to: int | None = Field(None, ge=2, le=100_000, alias="to", description="到第N名止; 不填为到最后")
    criteria: list[PlaceCriterion] = Field(
        min_length=1,
        description="依次比较: group_place 小组名次; score 小组赛积分; sos 对手分; sodos 胜对手分; "
        "wins 胜局数; cumulative 累进分; lot 抽签 (均按小组赛的对局)",
    )

    model_config = Strict.model_config | {"populate_by_name": True}


class GroupKnockout(KnockoutRules):
    """The knockout after a round-robin group stage: who qualifies and how the bracket is seeded."""

    places_below: list[PlacesBelow] = Field(
        default_factory=list,
        description="淘汰赛以下名次的排法, 如 第5–8名按小组赛积分、对手分; 不写则同一轮负者并列 (八强负者并列第5名), "
        "未出线者按小组名次并列 (各组第3名并列第9名 …)",
    )

    qualifiers_per_group: int = Field(ge=1, le=64, description="各组前N名出线")
    bracket: Literal["cross", "seeded"] = Field(
        "cross",
        description="cross: 相邻两组交叉 (A1–B2、C1–D2 在上半区, B1–A2、D1–C2 在下半区), 须每组2人出线且组数为偶数; "
        "seeded: 各组第1名为1…G号种子, 第2名接着排, 按标准种子位置排入对阵表 (1对N, 种子多时高位种子轮空)",
    )


class RoundRobinFormat(Strict):
    """循环赛: groups by snake seeding (or lot), each a Berger-table round robin, optionally
    followed by a knockout of the groups' top places (淘汰赛, in the rounds after the groups)."""

    kind: Literal["round_robin"]
    groups: list[Annotated[str, Field(pattern=r"^[A-Z]$")]] = Field(
        default_factory=lambda: ["A"], min_length=1, max_length=26,
        description="组名, 如 [\"A\", \"B\", \"C\", \"D\"]; 一组即单循环",
    )
    split: Literal["snake", "lot"] = Field("snake", description="分组: snake 按段位/等级分蛇形; lot 抽签")
    seats: Literal["lot", "seeding"] = Field(
        "lot", description="组内序号 (贝格尔表位置): lot 抽签; seeding 按种子顺序 (1号种子为1号)"
    )
    knockout: GroupKnockout | None = Field(None, description="小组赛后的淘汰赛")


class KnockoutFormat(KnockoutRules):
    """淘汰赛 on its own: the division's entrants (or its top ``players`` seeds) in a seeded
    bracket; byes go to the top seeds when the number is not a power of two."""

    kind: Literal["knockout"]
    seeding: Literal["rank", "lot"] = Field(
        "rank", description="种子: rank 按 [pairing].round1_seeding (段位、等级分、抽签); lot 全部抽签"
    )
    players: int | None = Field(None, ge=2, le=1024, description="只取种子顺序前N名; 不填为全部报名者")


class AnnouncedLaterFormat(Strict):
    """组织形式另行通知: the regulation defers the format to a supplementary notice."""

    kind: Literal["announced_later"]
    note: str = "组织形式另行通知"


Format = Annotated[
    LadderFormat | SwissFormat | TwoGroupSwissFormat | RoundRobinFormat | KnockoutFormat
    | AnnouncedLaterFormat | TeamMatchFormat,
    Field(discriminator="kind"),
]

class TimetableEntry(Strict):
    """One line of the 竞赛日程 printed in the 秩序册: a round, or another item (报到, 开幕式,
    颁奖仪式) at a date and time. The regulation usually leaves these to the 秩序册."""

    at: datetime = Field(description="日期和时间, 如 2025-05-02T08:30:00")
    round: int | None = Field(None, ge=1, le=31, description="第几轮 (各组同时进行)")
    what: str | None = Field(None, description="内容, 如 报到、开幕式、颁奖仪式; 轮次可不填")
    place: str | None = Field(None, description="地点; 不填则为本阶段地点")

    @model_validator(mode="after")
    def _round_or_what(self) -> TimetableEntry:
        if self.round is None and not self.what:
            raise BadValue("日程每一项须写明轮次 (round) 或内容 (what)",
                           "each timetable line needs a round or a what")
        return self


StageKind = Literal["online_qualifier", "regional", "semi_final", "final", "main"]


class Stage(Strict):
    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    kind: StageKind
    phase: int = Field(1, ge=1, le=100, description="第几阶段")
    divisions: list[str] = Field(min_length=1)
    start: date | None = None
    end: date | None = None
    check_in: date | None = Field(None, description="报到日")
    departure: str | None = Field(None, description="离会时间, 如 2025-05-04 中午")
    venue: str | None = None
    platforms: dict[str, str] = Field(default_factory=dict, description="各组别线上平台")
    periods: list[Period] = Field(default_factory=list)
    entry_note: str | None = Field(None, description="本阶段参赛资格说明, 如 全国业余围棋爱好者均可报名参赛")
    fee_note: str | None = None
    format: Format
    formats_by_division: dict[str, Format] = Field(
        default_factory=dict, description="某些组别使用不同的赛制"
    )
    time_control: TimeControl | None = None
    disconnection: DisconnectionRules | None = None
    details_note: str | None = Field(None, description="如 具体比赛细则将在《竞赛补充规定》中另行公布")
    timetable: list[TimetableEntry] = Field(
        default_factory=list, description="竞赛日程 (秩序册): 每轮及报到、开幕式、颁奖等的时间",
    )

    def format_for(self, division: str) -> (LadderFormat | SwissFormat | TwoGroupSwissFormat | RoundRobinFormat
                                            | KnockoutFormat | AnnouncedLaterFormat | TeamMatchFormat):
        return self.formats_by_division.get(division, self.format)
