"""录取名次与奖励: prize tables per ranking list, special awards, participation awards."""

from __future__ import annotations

from datetime import date
from typing import Literal, Self

from pydantic import Field, model_validator

from yisai.regulation.messages import BadValue
from yisai.regulation.rules import Strict
from yisai.vocabulary import Gender

PrizeKind = Literal["cash", "ecard", "gift", "honour"]
MAX_PLACE = 1_000_000  # places and counts: far above any field
MAX_AMOUNT = 100_000_000  # yuan per prize (1亿)


class PrizeRow(Strict):
    """Places ``from``..``to`` (inclusive) each receive ``amount`` yuan (or the gift)."""

    place_from: int = Field(ge=1, le=MAX_PLACE, alias="from")
    place_to: int = Field(ge=1, le=MAX_PLACE, alias="to")
    amount: int | None = Field(None, ge=0, le=MAX_AMOUNT, description="每人金额/价值 (元)")
    gift: str | None = Field(None, description="实物奖励")

    model_config = Strict.model_config | {"populate_by_name": True}


class EntrantRule(Strict):
    """参赛不足 ``below`` 人时: 只录取前 ``places`` 名 (不足16人只录取前6名), or the number of
    entrants minus ``minus`` (不足8人按总人数减1录取)."""

    below: int = Field(ge=2, le=MAX_PLACE, description="参赛人数少于此数时适用")
    places: int | None = Field(None, ge=0, le=MAX_PLACE, description="录取前N名")
    minus: int | None = Field(None, ge=1, le=MAX_PLACE, description="按参赛人数减N录取")

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.places is None) == (self.minus is None):
            raise BadValue("places (录取前N名) 与 minus (按人数减N录取) 须写且只写一个",
                           "write exactly one of places and minus")
        return self


class PrizeList(Strict):
    """One 录取 list: the top ``places`` of a ranking receive ``items`` and the table's value."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    division: str
    ranking: str | None = Field(None, description="组别内名次表 id")
    team_competition: str | None = Field(None, description="团体名次: teams.competitions 的 id")
    places: int = Field(ge=1, le=MAX_PLACE, description="录取前N名")
    kind: PrizeKind = "cash"
    items: list[str] = Field(default_factory=list, description="奖牌, 奖杯, 荣誉证书 ...")
    rows: list[PrizeRow] = Field(default_factory=list)
    gender: Gender | None = Field(
        None, description="名单所指性别, 名次仍按 ranking 的混合排名 (如 男子个人录取前32名, 名次按男女混合排名); "
                          "只与 others_keep_place 一起用"
    )
    others_keep_place: bool = Field(
        False, description="如有女子选手进入, 名次不再顺延(她占该名次并获奖, 其他人不后移): 名单按性别 "
                           "(gender, 或 ranking 是按性别的名次表) 而名次读不分性别的名次表"
    )
    cumulative_with: list[str] = Field(
        default_factory=list, description="可与这些奖项累积 (如女子奖金与混合名次奖金)"
    )
    fewer_entrants: Literal["all", "n_minus_1"] = Field(
        "all", description="参赛人数不足N人时: all 全部录取; n_minus_1 按总人数减1录取"
    )
    by_entrants: list[EntrantRule] = Field(
        default_factory=list,
        description="按参赛人数确定录取名额, 如 不足16人只录取前6名; 多条时取 below 最小的适用条",
    )

    def entrant_rules(self) -> list[EntrantRule]:
        """The list's conditional rules, ``fewer_entrants = n_minus_1`` being the rule
        "fewer than ``places`` entrants: n − 1"."""
        rules = list(self.by_entrants)
        if self.fewer_entrants == "n_minus_1":
            rules.append(EntrantRule(below=self.places, minus=1))
        return rules


class SpecialAward(Strict):
    """单设奖项: best female of a division, or the top N of an age band (60岁以上前8名)."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    division: str
    ranking: str = Field(description="从哪个名次表中选取")
    gender: Gender | None = None
    min_age: int | None = Field(None, ge=0, le=120)
    age_reference: str | None = Field(
        None, description="计算年龄的日期: 阶段 id 表示该阶段首日, 或 YYYY-MM-DD"
    )
    places: int = Field(1, ge=1, le=MAX_PLACE)
    kind: PrizeKind = "cash"
    amount: int | None = Field(None, ge=0, le=MAX_AMOUNT)
    gift: str | None = None
    cumulative: bool = Field(True, description="可与名次奖累积")


class ParticipationAward(Strict):
    """参赛奖: everyone not otherwise placed in the lists named receives it."""

    divisions: list[str]
    excluding_lists: list[str] = Field(description="已在这些录取名单中的棋手不再获参赛奖")
    kind: PrizeKind = "ecard"
    amount: int = Field(ge=0, le=MAX_AMOUNT)


TiedPlaces = Literal["each_full", "share"]


class CeremonyAbsence(Strict):
    """未参加颁奖仪式者扣除部分奖金: ``fixed`` docks ``percent``% of each prize outright; ``decided``
    lets the chief referee decide how much, at most ``percent``% (his decision is audited)."""

    docking: Literal["decided", "fixed"] = Field(
        description="decided 由裁判长视情况决定扣除金额 (不超过 percent%); fixed 一律扣除 percent%",
    )
    percent: int = Field(ge=1, le=100, description="扣除比例 (%): fixed 为扣除比例, decided 为最多可扣比例")


class JudgedAward(Strict):
    """最佳进步奖, 体育道德风尚奖: given by the chief referee's judgement, not by place; he names
    at most ``count`` winners (each named, audited)."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    division: str | None = Field(None, description="组别 id; 不填则全体参赛者均可获得")
    count: int = Field(1, ge=1, le=MAX_PLACE, description="最多评出几名")
    kind: PrizeKind = "honour"
    amount: int | None = Field(None, ge=0, le=MAX_AMOUNT)
    gift: str | None = None


class Grade(Strict):
    """One grade of a graded award (一等奖 …): by win count (``min_wins``..``max_wins``) or by
    share of entrants (``percent``: the next ``percent``% of the ranking after the grades above)."""

    name: str = Field(description="如 一等奖")
    min_wins: int | None = Field(None, ge=0, le=MAX_PLACE)
    max_wins: int | None = Field(None, ge=0, le=MAX_PLACE)
    percent: int | None = Field(None, ge=1, le=100, description="占参赛人数的百分比")
    amount: int | None = Field(None, ge=0, le=MAX_AMOUNT)
    gift: str | None = None


class GradedAward(Strict):
    """等级奖: "7胜 一等奖, 4–6胜 二等奖" (``by = "wins"``, the player's wins in the division's
    games) or "前5%一等奖, 10%二等奖, 15%三等奖" (``by = "share"``: counts of the ranking, the
    percentage of entrants rounded as ``rounding`` says; a tied place takes the higher grade)."""

    id: str = Field(pattern=r"^[a-z0-9_\-]+$")
    name: str
    division: str
    ranking: str | None = Field(None, description="按比例评奖时的名次表 id; 不填为组别总名次")
    by: Literal["wins", "share"]
    rounding: Literal["nearest", "down", "up"] = Field(
        "nearest", description="按比例: 人数不是整数时 nearest 四舍五入, down 舍去, up 进一")
    grades: list[Grade] = Field(min_length=1)
    kind: PrizeKind = "honour"


class Prizes(Strict):
    currency: Literal["CNY"] = "CNY"
    tied_places: TiedPlaces = Field(
        "each_full",
        description="名次并列时: each_full 各得该名次奖金; share 合并所占各名次的奖金平均分配",
    )
    pre_tax: bool = Field(True, description="奖金均为税前")
    pool: int | None = Field(
        None, ge=0, le=MAX_AMOUNT * 100,
        description="规程写明的奖金总额 (元), 如 总奖金20500元: 各奖项 (名次奖、特别奖、台次奖、参赛奖) "
        "可能发出的金额之和不得超过它 (regulation check 时按最多可发的金额检查, 计算奖金时按实发金额检查)",
    )
    value_note: str | None = Field(None, description="如 奖励相应价值电商卡")
    lists: list[PrizeList] = Field(default_factory=list)
    special: list[SpecialAward] = Field(default_factory=list)
    participation: list[ParticipationAward] = Field(default_factory=list)
    ceremony_absence: CeremonyAbsence | None = Field(
        None, description="未参加颁奖仪式者扣除部分奖金 (规程: 扣除部分奖金)")
    tax_withheld_percent: int | None = Field(
        None, ge=1, le=100, description="代扣个人所得税的税率 (%): 奖金 (cash) 扣除后按此代扣, 列出税前、扣税与实发",
    )
    souvenir: str | None = Field(None, min_length=1, description="每名参赛棋手的纪念品, 如 参赛棋手均发给纪念品")
    judged: list[JudgedAward] = Field(default_factory=list, description="裁判长评定的奖项 (最佳进步奖等)")
    graded: list[GradedAward] = Field(default_factory=list, description="等级奖: 按胜局数或按参赛人数比例")
    award_day: date | None = Field(
        None, description="颁奖日期, 证书落款日期; 不填则为最后一个阶段的结束日期",
    )
