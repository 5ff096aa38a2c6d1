"""Stages (赛程) and their formats: online ladder, Swiss, two-group Swiss with a same-place final,
round robin in groups (optionally followed by a knockout), knockout."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from yisai.i18n import Text
from yisai.regulation.criteria import PlaceCriterion
from yisai.regulation.findings import Finding, Path, useless
from yisai.regulation.format_base import BothLoseRule, DrawRule, KnockoutRules, StageFormat
from yisai.regulation.messages import BadValue
from yisai.regulation.rules import DisconnectionRules, Strict, TimeControl
from yisai.regulation.team_match import TeamMatchFormat

__all__ = ["BothLoseRule", "DrawRule", "KnockoutRules", "StageFormat"]  # re-exported: where they were


class Period(Strict):
    """One period (期) of the online qualifier; periods are parallel, not progressive."""

    number: int = Field(ge=1, le=1000)
    start: date
    end: date
    first_day_start: time | None = Field(None, description="首日开始时间, 如 10:00")


def _wins_only() -> list[Literal["wins"]]:
    return ["wins"]


class LadderFormat(StageFormat):
    """积分晋级制: random matching, +win/−loss, escape penalised; top N per period qualify."""

    kind: Literal["online_ladder"]
    plays_rounds: ClassVar[bool] = False
    online: ClassVar[bool] = True
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

    def findings(self, path: Path) -> list[Finding]:
        out: list[Finding] = []
        if self.loss >= self.win:
            out.append(Finding((*path, "loss"),
                               Text(f"负局得分 {self.loss} 不低于胜局得分 {self.win}",
                                    f"a loss scores {self.loss}, no less than the {self.win} for a win"),
                               Text("须 win > loss", "must be win > loss")))
        if self.escape > self.loss:
            out.append(Finding((*path, "escape"),
                               Text(f"逃跑方得分 {self.escape} 高于负局得分 {self.loss}",
                                    f"escaping a game scores {self.escape}, more than the {self.loss} "
                                    "for a loss"),
                               Text("须 escape ≤ loss", "must be escape ≤ loss")))
        if "confirm_reminder_days" in self.model_fields_set and self.confirm_within_working_days is None:
            out.append(useless((*path, "confirm_reminder_days"), "没有确认期限 (confirm_within_working_days), 无从提醒",
                               "no confirmation deadline (confirm_within_working_days) to remind of",
                               "写 confirm_within_working_days 或删去 confirm_reminder_days",
                               "set confirm_within_working_days or remove confirm_reminder_days"))
        return out


class EliminationStep(Strict):
    """第r轮后积分不高于s者淘汰 (三轮以后0分淘汰, 四轮以后2分淘汰)."""

    round: int = Field(ge=1, le=30, description="第几轮后")
    score_at_most: int = Field(ge=-100, le=1000, description="积分不高于此者淘汰 (按 [scoring] 的分值)")


class Elimination(Strict):
    """积分编排淘汰制: who stops being paired, and why. A player eliminated after round r is paired
    no more; the games played stand. The final order places the survivors first, then the
    eliminated by the round they went out (later first), each part by the ranking's criteria.
    A player who reaches ``stop_at_wins`` (已达到升段标准者不再编排) is not eliminated: they
    stop being paired and keep their place among the survivors."""

    after_rounds: list[EliminationStep] = Field(
        default_factory=list, max_length=30,
        description="第r轮后积分不高于s者淘汰, 如 [{round = 3, score_at_most = 0}, {round = 4, score_at_most = 2}]",
    )
    losses: int | None = Field(None, ge=1, le=30, description="负满N局者淘汰 (三败淘汰: 3); 弃权负计入")
    stop_at_wins: int | None = Field(
        None, ge=1, le=30, description="胜满N局者 (达到升段、升级标准) 不再参加以后各轮编排, 不算淘汰",
    )


class SwissFormat(StageFormat):
    """积分编排制 with a fixed number of rounds, or rounds decided by entries; with
    ``elimination``, 积分编排淘汰制 (the Swiss play leaves the eliminated out of the pairing)."""

    kind: Literal["swiss"]
    swiss_rules: ClassVar[bool] = True
    rounds: int | None = Field(None, ge=1, le=30, description="轮数; 不填表示视报名情况而定")
    rounds_provisional: bool = Field(False, description="暂定轮数, 具体视报名人数确定")
    elimination: Elimination | None = Field(
        None, description="积分编排淘汰制: 第r轮后低分者淘汰、负满N局淘汰、达到升段标准者不再编排",
    )

    def fixed_rounds(self) -> int | None:
        return None if self.rounds_provisional else self.rounds

    def rounds_by_entries(self) -> bool:
        return self.rounds is None

    def findings(self, path: Path) -> list[Finding]:
        out: list[Finding] = []
        if self.rounds_provisional and self.rounds is None:
            out.append(useless((*path, "rounds_provisional"), "没有写轮数 (rounds), 无所谓暂定",
                               "no rounds are given, so nothing is provisional",
                               "写 rounds = 暂定轮数, 或删去 rounds_provisional",
                               "set rounds to the provisional count, or remove rounds_provisional"))
        if self.elimination is not None:
            out += _elimination_findings((*path, "elimination"), self.elimination, self.rounds)
        return out


def _elimination_findings(path: Path, rule: Elimination, rounds: int | None) -> list[Finding]:
    """A step after the last round eliminates nobody from anything; two steps after one round
    contradict each other; a rule that states nothing does nothing."""
    out: list[Finding] = []
    if not rule.after_rounds and rule.losses is None and rule.stop_at_wins is None:
        out.append(useless(path, "淘汰规则没有写任何条件", "the elimination rule states no condition",
                           "写 after_rounds、losses 或 stop_at_wins, 或删去 elimination",
                           "set after_rounds, losses or stop_at_wins, or remove elimination"))
    seen: set[int] = set()
    for j, step in enumerate(rule.after_rounds):
        here: Path = (*path, "after_rounds", j, "round")
        if step.round in seen:
            out.append(Finding(here, Text(f"第{step.round}轮后的淘汰条件写了两次",
                                          f"two elimination conditions after round {step.round}"),
                               Text("每轮只写一条", "state one condition per round")))
        seen.add(step.round)
        if rounds is not None and step.round >= rounds:
            out.append(useless(here, f"第{step.round}轮后淘汰, 但本阶段共{rounds}轮, 之后没有编排",
                               f"eliminating after round {step.round}, but the stage has {rounds} rounds: "
                               "nothing is paired after it",
                               f"round 须小于 {rounds}", f"round must be below {rounds}"))
    for name in ("losses", "stop_at_wins"):
        count = getattr(rule, name)
        if rounds is not None and count is not None and count >= rounds:
            out.append(useless((*path, name), f"满{count}局才生效, 但本阶段共{rounds}轮, 之后没有编排",
                               f"takes effect after {count} games, but the stage has {rounds} rounds: "
                               "nothing is paired after that",
                               f"须小于 {rounds}", f"must be below {rounds}"))
    return out


class PlacementFinal(Strict):
    """同名次决赛: A1–B1 for places 1–2, A2–B2 for 3–4, … for the top ``top`` of each group."""

    round: int = Field(ge=2, le=31)
    top: int = Field(ge=1, le=10_000, description="各组前N名参加同名次决赛")
    below_rule: Literal["interleave"] = Field(
        "interleave",
        description="同名次决赛以外的名次: 按组内名次交替排列 A、B (规程未明确, 默认)",
    )


class TwoGroupSwissFormat(StageFormat):
    """分AB组积分编排, then a same-place final."""

    kind: Literal["two_group_swiss"]
    swiss_rules: ClassVar[bool] = True
    groups: list[str] = Field(default_factory=lambda: ["A", "B"], min_length=2, max_length=2)
    split: Literal["snake", "lot"] = Field("snake", description="分组: snake 按段位/等级分蛇形; lot 抽签")
    group_rounds: int = Field(ge=1, le=30)
    placement_final: PlacementFinal

    def last_round(self) -> int | None:
        return self.placement_final.round

    def swiss_group_rounds(self) -> int | None:
        return self.group_rounds

    def findings(self, path: Path) -> list[Finding]:
        final = self.placement_final.round
        if final == self.group_rounds + 1:
            return []
        return [Finding((*path, "placement_final", "round"),
                        Text(f"同名次决赛为第{final}轮, 但分组赛共{self.group_rounds}轮",
                             f"the placement final is round {final}, but the groups play "
                             f"{self.group_rounds} rounds"),
                        Text(f"应为第{self.group_rounds + 1}轮", f"should be round {self.group_rounds + 1}"))]


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


class RoundRobinFormat(StageFormat):
    """循环赛: groups by snake seeding (or lot), each a Berger-table round robin, optionally
    followed by a knockout of the groups' top places (淘汰赛, in the rounds after the groups)."""

    kind: Literal["round_robin"]
    crosstables: ClassVar[bool] = True
    round_robin_groups: ClassVar[bool] = True
    groups: list[Annotated[str, Field(pattern=r"^[A-Z]$")]] = Field(
        default_factory=lambda: ["A"], min_length=1, max_length=26,
        description="组名, 如 [\"A\", \"B\", \"C\", \"D\"]; 一组即单循环",
    )
    split: Literal["snake", "lot"] = Field("snake", description="分组: snake 按段位/等级分蛇形; lot 抽签")
    seats: Literal["lot", "seeding"] = Field(
        "lot", description="组内序号 (贝格尔表位置): lot 抽签; seeding 按种子顺序 (1号种子为1号)"
    )
    knockout: GroupKnockout | None = Field(None, description="小组赛后的淘汰赛")

    def bracket_rules(self) -> KnockoutRules | None:
        return self.knockout

    def page_label(self) -> Text:
        return Text("循环赛", "round robin") if self.knockout is None else Text("循环赛·淘汰赛", "groups · bracket")


    def findings(self, path: Path) -> list[Finding]:
        out: list[Finding] = []
        groups = self.groups
        dupes = sorted({g for g in groups if groups.count(g) > 1})
        if dupes:
            out.append(Finding((*path, "groups"), Text(f"组名重复: {', '.join(dupes)}", f"group names repeat: {', '.join(dupes)}")))
        ko = self.knockout
        if ko is None:
            if len(groups) > 1:
                out.append(Finding((*path, "groups"),
                                   Text(f"分{len(groups)}组循环但没有淘汰赛, 各组名次无法合成总名次",
                                        f"{len(groups)} round-robin groups and no knockout: the groups' places "
                                        "cannot make one final order"),
                                   Text("加 [stages.format.knockout], 或只设一组", "add [stages.format.knockout], or use one group")))
            return out
        kp: Path = (*path, "knockout")
        total = len(groups) * ko.qualifiers_per_group
        if total < 2:
            out.append(Finding((*kp, "qualifiers_per_group"),
                               Text("淘汰赛至少需要2人出线", "a knockout needs at least 2 qualifiers"),
                               Text("一组时 qualifiers_per_group ≥ 2", "with one group, qualifiers_per_group ≥ 2")))
        if ko.bracket == "cross":
            if ko.qualifiers_per_group != 2:
                out.append(Finding((*kp, "qualifiers_per_group"),
                                   Text(f"交叉对阵 (cross) 须每组2人出线, 实为{ko.qualifiers_per_group}人",
                                        f"a crossed bracket takes 2 from each group, not {ko.qualifiers_per_group}"),
                                   Text("改为 2, 或 bracket = \"seeded\"", "make it 2, or bracket = \"seeded\"")))
            n = len(groups)
            if n < 2 or n & (n - 1):
                out.append(Finding((*kp, "bracket"),
                                   Text(f"交叉对阵须有2、4、8…个小组, 本阶段{n}组",
                                        f"a crossed bracket needs 2, 4, 8 … groups, this stage has {n}"),
                                   Text("改为 bracket = \"seeded\"", "use bracket = \"seeded\"")))
        out += _places_below(kp, ko.places_below)
        if ko.third_place and 0 < total <= 2:
            out.append(Finding((*kp, "third_place"),
                               Text(f"只有{total}人出线, 没有半决赛, 季军赛无从进行",
                                    f"only {total} qualify: there are no semi-finals, so no third-place match"),
                               Text("删去 third_place", "drop third_place")))
        return out


class DoubleRoundRobinFormat(StageFormat):
    """双循环: every entrant meets every other twice on one Berger table; the second cycle repeats
    the first cycle's pairs with colours swapped on every board (上半程编号在前者执黑, 下半程编号在前者
    执白), and one table ranks both cycles."""

    kind: Literal["double_round_robin"]
    round_robin_groups: ClassVar[bool] = True
    crosstables: ClassVar[bool] = True
    games_per_pair: ClassVar[int] = 2
    seats: Literal["lot", "seeding"] = Field(
        "lot", description="序号 (贝格尔表位置): lot 抽签; seeding 按种子顺序 (1号种子为1号)"
    )
    second_cycle: Literal["colours_swapped"] = Field(
        "colours_swapped",
        description="第二循环: colours_swapped 重复第一循环的对阵, 每台双方执黑执白互换 "
        "(第一循环贝格尔表先列者执黑, 第二循环先列者执白)",
    )

    def page_label(self) -> Text:
        return Text("双循环", "double round robin")


class KnockoutFormat(KnockoutRules, StageFormat):
    """淘汰赛 on its own: the division's entrants (or its top ``players`` seeds) in a seeded
    bracket; byes go to the top seeds when the number is not a power of two."""

    kind: Literal["knockout"]
    crosstables: ClassVar[bool] = True
    seeding: Literal["rank", "lot"] = Field(
        "rank", description="种子: rank 按 [pairing].round1_seeding (段位、等级分、抽签); lot 全部抽签"
    )
    players: int | None = Field(None, ge=2, le=1024, description="只取种子顺序前N名; 不填为全部报名者")

    def bracket_rules(self) -> KnockoutRules | None:
        return self

    def page_label(self) -> Text:
        return Text("淘汰赛", "knockout")

    def findings(self, path: Path) -> list[Finding]:
        if self.players is not None and self.players < 4 and self.third_place:
            return [Finding((*path, "third_place"),
                            Text(f"只有{self.players}人, 没有半决赛, 季军赛无从进行",
                                 f"with {self.players} players there are no semi-finals: a third-place "
                                 "match cannot be played"),
                            Text("删去 third_place 或增加人数", "drop third_place or take more players"))]
        return []


class AnnouncedLaterFormat(StageFormat):
    """组织形式另行通知: the regulation defers the format to a supplementary notice."""

    kind: Literal["announced_later"]
    plays_rounds: ClassVar[bool] = False
    note: str = "组织形式另行通知"


def _places_below(kp: Path, rules: list[PlacesBelow]) -> list[Finding]:
    """Each range must be a range, and no place may be ordered by two rules."""
    out: list[Finding] = []
    taken: list[tuple[int, float, int]] = []
    for j, r in enumerate(rules):
        top = float("inf") if r.place_to is None else r.place_to
        if r.place_to is not None and r.place_to < r.place_from:
            out.append(Finding((*kp, "places_below", j, "to"),
                               Text(f"第{r.place_from}名到第{r.place_to}名: 止于起点之前",
                                    f"places {r.place_from} to {r.place_to}: the range ends before it starts"),
                               Text(f"to ≥ {r.place_from}, 或不写 (到最后)", f"to ≥ {r.place_from}, or none (to the end)")))
            continue
        for lo, hi, k in taken:
            if r.place_from <= hi and lo <= top:
                out.append(Finding((*kp, "places_below", j, "from"),
                                   Text(f"名次范围与第{k + 1}条重叠", f"the places overlap rule {k + 1}'s"),
                                   Text("每个名次只由一条规则排定", "order each place by one rule only")))
        taken.append((r.place_from, top, j))
    return out


Format = Annotated[
    LadderFormat | SwissFormat | TwoGroupSwissFormat | RoundRobinFormat | DoubleRoundRobinFormat
    | KnockoutFormat | AnnouncedLaterFormat | TeamMatchFormat,
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
                                            | DoubleRoundRobinFormat | KnockoutFormat | AnnouncedLaterFormat
                                            | TeamMatchFormat):
        return self.formats_by_division.get(division, self.format)
