"""Everything around the games: fees, registration, appeals, obligations, officials, conduct."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal, Self

from pydantic import Field, model_validator

from yisai.regulation.messages import BadValue
from yisai.regulation.rules import Strict


class Fee(Strict):
    name: str
    amount: int = Field(ge=0, le=100_000_000, description="元")
    per: Literal["entry", "team"] = Field(
        "entry", description="entry 每名报名棋手缴纳; team 每支参赛队缴纳一次 (不计入个人报名费)"
    )
    applies_to: list[str] = Field(default_factory=list, description="阶段或组别 id; 空为全部")
    refundable_if_absent: bool = Field(True, description="报名后无故不参加比赛是否退还")
    note: str | None = None


class Fees(Strict):
    items: list[Fee] = Field(default_factory=list)
    self_paid: list[str] = Field(default_factory=list, description="自理费用: 交通、食宿 …")
    notes: list[str] = Field(default_factory=list)


class RegistrationWindow(Strict):
    """报名时间. With ``enforce`` an entry to the divisions named (all if none) is refused
    before ``opens`` and after ``closes`` (a date closes at its end of day); without it the
    window is the regulation's wording, shown but not applied (teams have their own window in
    ``teams.registration_from``/``registration_to``)."""

    who: str
    opens: date | datetime | None = None
    closes: date | datetime | None = None
    channel: str | None = Field(None, description="报名途径")
    note: str | None = None
    enforce: bool = Field(False, description="据此拒绝时间以外的个人报名")
    divisions: list[str] = Field(default_factory=list, description="enforce 适用的组别; 空为全部组别")

    @model_validator(mode="after")
    def _effective(self) -> Self:
        if self.enforce and self.opens is None and self.closes is None:
            raise BadValue("enforce = true 但没有写 opens 或 closes: 没有可执行的报名时间",
                           "enforce = true without opens or closes: there is no window to apply")
        if self.divisions and not self.enforce:
            raise BadValue("divisions 只在 enforce = true 时起作用: 请加 enforce = true 或删去 divisions",
                           "divisions only matter with enforce = true: add it or remove divisions")
        return self


PaperKind = Literal["pdf", "jpeg", "png"]


def _all_paper_kinds() -> list[PaperKind]:
    return ["pdf", "jpeg", "png"]


class Attachments(Strict):
    """报名附件: the stamped entry form and each player's identity proof, uploaded by a deadline.

    ``name_pattern`` is the regulation's file name with ``XXX队`` standing for the team.
    """

    kinds: list[PaperKind] = Field(default_factory=_all_paper_kinds,
                                   min_length=1, description="允许的文件类型 (按内容识别)")
    max_mb: float = Field(10, gt=0, le=1024, description="每个文件的大小上限 (MB)")
    name_pattern: str = Field("XXX队_报名表", min_length=1, description="附件名称, XXX队 为队名")
    entry_form: bool = Field(True, description="须上传盖章的报名表")
    identity_proofs: bool = Field(True, description="须上传每名棋手的身份证明")
    deadline: datetime | None = Field(None, description="上传截止时间 (北京时间)")
    deadline_wording: str | None = Field(None, description="规程原文, 截止后拒绝上传时引用")


class Arrival(Strict):
    """报到: the day and place teams arrive; a player not checked in sits out round 1."""

    day: date = Field(description="报到日期")
    place: str | None = None
    check_in_required: bool = Field(True, description="第一轮编排只编已报到的棋手")
    insurance_required: bool = Field(False, description="报到时确认人身意外保险")
    insurance_wording: str | None = None
    late_entry_from_round: int = Field(2, ge=2, le=99, description="未报到者最早从第几轮起补入")


class Registration(Strict):
    windows: list[RegistrationWindow] = Field(default_factory=list)
    required_documents: list[str] = Field(default_factory=list)
    contacts: list[str] = Field(default_factory=list)
    check_in: str | None = None
    approval_required: bool = False
    notes: list[str] = Field(default_factory=list)
    attachments: Attachments | None = None
    arrival: Arrival | None = None
    capacity: int | None = Field(None, ge=1, le=100_000,
                                 description="全部组别合计限报人数, 如 限报40名; 组别各自的限额写在 divisions[].capacity")
    close_when_full: bool = Field(True, description="额满提前截止: 满额后的报名不予接受 (false: 满额后的报名候补, 待审)")

    @model_validator(mode="before")
    @classmethod
    def _one_name_pattern(cls, data: object) -> object:
        """Attachment names are set in one field, the one the upload enforces."""
        if isinstance(data, dict) and "attachment_name_pattern" in data:
            raise BadValue(
                "attachment_name_pattern 已不再使用: 附件命名写在 [registration.attachments] 的 name_pattern"
                " (上传时按它检查), 请把该行移到那里",
                "attachment_name_pattern is no longer read: attachment names go in [registration.attachments]"
                " name_pattern (the upload checks it); move the line there")
        return data


class Appeals(Strict):
    """申诉: written, within N minutes after the round ends, with a fee refunded if upheld."""

    window_minutes: int = Field(ge=1, le=10_080, description="该轮比赛结束后N分钟内")
    written: bool = True
    fee: int = Field(ge=0, le=100_000_000, description="申诉费(元)")
    refunded_if_upheld: bool = True
    handled_by: str = "组委会"
    non_referee_disputes: str = "提交组委会或中国围棋协会处理"


class Obligation(Strict):
    duty: str
    penalties: list[str] = Field(default_factory=list)


class Official(Strict):
    """One named official for the 秩序册 (裁判长 张三, 副裁判长 …)."""

    role: str = Field(min_length=1, description="职务, 如 裁判长、副裁判长、裁判员、技术性仲裁")
    name: str = Field(min_length=1)
    unit: str | None = Field(None, description="单位")


class Officials(Strict):
    chief_referee: str = "由中国围棋协会选派"
    others: str = "由承办单位从一级以上裁判员中推荐, 报中国围棋协会确认"
    roles: list[str] = Field(default_factory=list)
    people: list[Official] = Field(default_factory=list, description="已选派的技术官员 (印入秩序册)")


class Organisers(Strict):
    hosts: list[str] = Field(min_length=1, description="主办单位")
    supporters: list[str] = Field(default_factory=list, description="支持单位")
    title_sponsors: list[str] = Field(default_factory=list, description="冠名单位")
    organisers: list[str] = Field(default_factory=list, description="承办单位")
    co_organisers: list[str] = Field(default_factory=list, description="协办单位")


class OpenPoint(Strict):
    """A question the regulation leaves open, and the default this file chooses."""

    topic: str
    choice: str
    question: str | None = Field(None, description="须由裁判长/主办方回答的问题 (规程起草器写入)")
    field: str | None = Field(None, description="该默认值所在的字段, 如 stages.final.time_control")


class Issued(Strict):
    by: str
    on: date
