"""Text messages (SMS) to players as data: each kind of notice, its wording and the variables a
provider's approved template receives, the sender interface and the pure rules of the queue
(retry back-off, the daily budget's alert level).

A provider (Tencent Cloud, Alibaba Cloud) sends only templates it approved beforehand, with a
signature (签名) and the variables filled in; so a notice is stored as its kind plus its
variables, never as free text, and the same data renders the in-app text, the outbox's text and
the templates to submit for approval (``tencent_template`` / ``aliyun_template``). The sign-in
code lives here with the rest because it goes through the same queue, limits and budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from yisai.i18n import Text

SIGN_IN_CODE = "sign_in_code"
PAIRING_PUBLISHED = "pairing_published"
PLACE_TO_CONFIRM = "place_to_confirm"
CONFIRM_REMINDER = "confirm_reminder"
APPEAL_DECIDED = "appeal_decided"
FINAL_ENTRY_CONFIRMED = "final_entry_confirmed"
FEE_DUE = "fee_due"


@dataclass(frozen=True)
class NoticeKind:
    """One kind of SMS: ``zh``/``en`` are format strings over ``params`` (in this order: Tencent's
    templates number their variables {1}, {2} … in it); ``optional`` kinds can be switched off
    per event and refused by a player; the sign-in code cannot."""

    key: str
    label: Text
    zh: str
    en: str
    params: tuple[str, ...]
    optional: bool = True

    def render(self, values: Mapping[str, str]) -> Text:
        missing = [p for p in self.params if p not in values]
        if missing:
            raise KeyError(f"notice {self.key} lacks {', '.join(missing)}")
        return Text(self.zh.format(**values), self.en.format(**values))

    def tencent_template(self) -> str:
        """The wording to submit to Tencent Cloud (variables as {1}, {2} …, no signature)."""
        out = self.zh
        for i, name in enumerate(self.params, 1):
            out = out.replace("{" + name + "}", "{" + str(i) + "}")
        return out

    def aliyun_template(self) -> str:
        """The wording to submit to Alibaba Cloud (variables as ${name})."""
        out = self.zh
        for name in self.params:
            out = out.replace("{" + name + "}", "${" + name + "}")
        return out


KINDS: dict[str, NoticeKind] = {k.key: k for k in (
    NoticeKind(SIGN_IN_CODE, Text("登录验证码", "sign-in code"),
               "您的登录验证码为{code}，{minutes}分钟内有效。请勿告诉他人。",
               "Your sign-in code is {code}, valid for {minutes} minutes. Do not share it.",
               ("code", "minutes"), optional=False),
    NoticeKind(PAIRING_PUBLISHED, Text("对阵公布", "pairing published"),
               "{event}第{round}轮对阵已公布：第{table}台，您执{colour}，对手{opponent}，{time}开赛。",
               "{event} round {round} is paired: table {table}, you play {colour} against {opponent}, "
               "starting {time}.",
               ("event", "round", "table", "colour", "opponent", "time")),
    NoticeKind(PLACE_TO_CONFIRM, Text("晋级待确认", "place to confirm"),
               "恭喜您在{event}第{period}期晋级总决赛，请于{deadline}当天24:00前在参赛平台完善参赛信息，逾期视为弃权。",
               "You qualified for the final of {event} in period {period}. Complete your entry details "
               "by {deadline} 24:00 Beijing time, or the place lapses.",
               ("event", "period", "deadline")),
    NoticeKind(CONFIRM_REMINDER, Text("确认截止提醒", "confirmation reminder"),
               "提醒：您在{event}的总决赛名额须于{deadline}当天24:00前完善参赛信息，逾期默认视为弃权。",
               "Reminder: complete your final entry details for {event} by {deadline} 24:00 Beijing "
               "time, or the place lapses.",
               ("event", "deadline")),
    NoticeKind(APPEAL_DECIDED, Text("申诉裁决", "appeal decided"),
               "您在{event}提出的申诉（第{round}轮）已裁决：{result}。详情请登录查看。",
               "Your appeal in {event} (round {round}) is decided: {result}. Sign in for the reasons.",
               ("event", "round", "result")),
    NoticeKind(FINAL_ENTRY_CONFIRMED, Text("总决赛报名已确认", "final entry confirmed"),
               "您的{event}总决赛参赛信息已确认，组别：{division}。",
               "Your final entry for {event} is confirmed, division: {division}.",
               ("event", "division")),
    NoticeKind(FEE_DUE, Text("报名费待缴", "fee due"),
               "您报名的{event}尚需缴纳报名费{amount}元，请按竞赛规程规定的方式缴纳。",
               "Your entry to {event} still owes the fee of {amount} yuan; pay it as the regulation says.",
               ("event", "amount")),
)}  # fmt: skip


# One SMS part: 70 characters when the text holds any Chinese (UCS-2), the signature included;
# a longer message goes as parts of 67, each billed (the providers' rule, Tencent and Alibaba).
SMS_PART = 70
DEFAULT_SIGN = "弈赛"


def sms_length(kind: str, values: Mapping[str, str], sign: str = DEFAULT_SIGN) -> int:
    """The characters the phone receives for one notice: 【signature】 and the filled template."""
    return len(signed(KINDS[kind].render(values), sign).zh)


def signed(text: Text, sign: str = "弈赛") -> Text:
    """A message as the phone shows it: the provider puts the approved signature in front."""
    return Text(f"【{sign}】{text.zh}", f"[{sign if sign != '弈赛' else 'yisai'}] {text.en}")


def kind_of(key: str) -> NoticeKind:
    """The kind by its key (KeyError for an unknown one: a programming error, not user input)."""
    return KINDS[key]


# ----- the sender interface -----------------------------------------------------------------
@dataclass(frozen=True)
class Sms:
    """One message handed to a sender: the stored notice's id (the provider's reference for
    delivery receipts), the number, the kind and its variables."""

    notice_id: int
    phone: str
    kind: str
    params: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> Text:
        return KINDS[self.kind].render(self.params)


class SendFailed(Exception):
    """A provider refused or could not be reached: ``code`` is the provider's own code,
    ``reason`` says it in words for the operator, ``retry`` whether trying later can help
    (a network error, throttling) or not (a wrong signature, an unapproved template)."""

    def __init__(self, code: str, reason: Text, *, retry: bool) -> None:
        super().__init__(f"{code}: {reason.en}")
        self.code = code
        self.reason = reason
        self.retry = retry


class Sender(Protocol):
    """Anything that delivers an ``Sms``: returns the provider's message id, or raises
    ``SendFailed``. ``name`` is what the audit and the operator's list show."""

    name: str

    def deliver(self, sms: Sms) -> str: ...


# ----- the queue's pure rules ---------------------------------------------------------------
RETRY_DELAYS = (30, 120, 600, 1800, 7200)  # seconds before the 1st, 2nd … retry
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
ALERT_SHARE = 0.8  # the operator is alerted when this share of a day's budget is used


def retry_delay(attempts: int) -> timedelta | None:
    """The wait before the next try after ``attempts`` failed ones; None: give up."""
    if attempts < 1 or attempts >= MAX_ATTEMPTS:
        return None
    return timedelta(seconds=RETRY_DELAYS[attempts - 1])


def budget_alert_due(used: int, budget: int) -> bool:
    """Whether ``used`` messages of a day's ``budget`` reach the alert level (80 %)."""
    return budget > 0 and used >= budget * ALERT_SHARE


@dataclass(frozen=True)
class NoticeLimits:
    """The limits that protect the organiser's money (a site setting, passed in):
    sign-in codes per number (a minute apart, ``per_number_day`` a day), per client address per
    hour (an IPv6 client by its /64), and per hour for the whole site -- counting only codes to
    numbers that have no account yet, so a flood of codes to made-up numbers cannot lock out the
    players who signed in before; the default daily budget of SMS per event (0: none; an event
    can set its own), of which codes to numbers without an account may use at most
    ``fresh_budget_percent``, so the rest stays for known players and the event's own notices."""

    per_number_seconds: int = 60
    per_number_day: int = 10
    per_client_hour: int = 5
    site_hour: int = 300
    event_daily_budget: int = 1000
    fresh_budget_percent: int = 50


def fresh_share(budget: int, percent: int) -> int:
    """How many of a day's ``budget`` messages codes to new numbers may take (at least one while
    there is a budget and a share: 50 % of 1 is 1, not 0)."""
    if budget <= 0:
        return 0
    share = budget * min(percent, 100) // 100
    return max(share, 1) if percent > 0 else 0


__all__ = [
    "ALERT_SHARE",
    "APPEAL_DECIDED",
    "CONFIRM_REMINDER",
    "FEE_DUE",
    "FINAL_ENTRY_CONFIRMED",
    "KINDS",
    "MAX_ATTEMPTS",
    "PAIRING_PUBLISHED",
    "PLACE_TO_CONFIRM",
    "SIGN_IN_CODE",
    "NoticeKind",
    "NoticeLimits",
    "SendFailed",
    "Sender",
    "Sms",
    "budget_alert_due",
    "fresh_share",
    "kind_of",
    "retry_delay",
]  # fmt: skip
