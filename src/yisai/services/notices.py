"""SMS notices: made by the use cases that cause them (a code requested, a round published, a
place won …) inside their own transaction, sent later by a worker (``work_queue``) so no
request waits on a provider.

* ``enqueue`` stores a notice once per key with its state: ``queued``, or ``skipped`` with why
  (the event switched the kind off, the player opted out, the event's daily budget is spent);
  every notice and every delivery attempt is in the audit.
* ``work_queue`` claims due notices (exactly once across processes: see ``store.notice_rows``),
  hands each to the sender outside any transaction and records the outcome: ``sent`` with the
  provider's id; a refusal that may pass (network, throttling) goes back to the queue with
  back-off; one that cannot (wrong key, unapproved template) is ``failed`` with the provider's
  words for the operator, who can queue it again after fixing the cause.
* A claim still open after ``STALE_MINUTES`` (the worker died mid-send) is marked ``failed`` as
  "delivery unknown" rather than sent again: a second SMS costs money and confuses the player.
  Its age is measured on the sweeping worker's own clock, from the pass that first saw it
  open, never by comparing another process's claim time with this one's: workers on clocks
  apart (another host, another time zone) would otherwise close each other's live claims. A
  delivery that completes after such a sweep is still recorded as sent (never left failed,
  so never offered for 重发).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from yisai.i18n import Text
from yisai.qualifier.notices import (
    FEE_DUE,
    KINDS,
    SIGN_IN_CODE,
    NoticeLimits,
    Sender,
    SendFailed,
    Sms,
    budget_alert_due,
    retry_delay,
)
from yisai.registry.entry import EntryStatus
from yisai.services.context import Context, Work
from yisai.services.errors import InputError, NotFoundError, Refused
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Actor
from yisai.services.metrics import NOTICES
from yisai.store import EventRecord, account_rows, audit_rows, roster_rows
from yisai.store import notice_rows as rows
from yisai.store.notice_rows import NoticeRecord

log = logging.getLogger("yisai.notices")

STALE_MINUTES = 10
STATE_LABELS = {
    "queued": Text("排队中", "queued"),
    "sending": Text("发送中", "sending"),
    "sent": Text("已发送", "sent"),
    "failed": Text("发送失败", "failed"),
    "skipped": Text("未发送", "not sent"),
}
SKIP_LABELS = {
    "switched_off": Text("本赛事已关闭此类通知", "this kind is switched off for the event"),
    "opted_out": Text("选手已退订短信通知", "the player opted out"),
    "over_budget": Text("超出本赛事当日短信预算", "over the event's daily SMS budget"),
    "no_phone": Text("没有手机号码", "no mobile number"),
}


def masked(phone: str) -> str:
    return f"{phone[:3]}****{phone[-4:]}" if len(phone) >= 7 else "****"


def limits(work: Work) -> NoticeLimits:
    return work.settings.notice_limits


def budget_of(work: Work, event_id: int) -> int:
    """The event's daily SMS budget (0: unlimited): its own setting, else the site's default."""
    own = rows.settings(work.session, event_id).daily_budget
    return own if own is not None else limits(work).event_daily_budget


def gate(work: Work, key: str) -> None:
    """Hold every other worker's check of what ``key`` guards until this unit of work ends (one
    row lock: ``store.notice_rows.gate``); taken before the counts it guards are read."""
    rows.gate(work.session, key)


def budget_gate(work: Work, event_id: int) -> None:
    gate(work, f"budget:{event_id}")


def used_today(work: Work, event_id: int) -> int:
    return rows.used_on(work.session, event_id, work.now.date())


def is_queued(work: Work, notice_id: int | None) -> bool:
    """Whether a notice was stored to be sent (not held back, not a duplicate key)."""
    found = rows.get(work.session, notice_id) if notice_id is not None else None
    return found is not None and found.state == "queued"


def _tomorrow(now: datetime) -> str:
    return f"{(now.date() + timedelta(days=1)):%Y-%m-%d} 00:00"


def check_budget(work: Work, event_id: int | None) -> None:
    """Refuse a sign-in code when the event's budget for today is spent, saying when to retry."""
    if event_id is None:
        return
    budget = budget_of(work, event_id)
    if budget:
        budget_gate(work, event_id)
    if budget and rows.used_on(work.session, event_id, work.now.date()) >= budget:
        when = _tomorrow(work.now)
        raise Refused(Text(f"今日短信发送量已达本赛事上限, 请于 {when} 后再试",
                           f"today's SMS budget of this event is used up; try again after {when}"),
                      code="sms_budget", params={"retry_at": when})  # fmt: skip


def _alert(work: Work, event_id: int, used: int, budget: int) -> None:
    if budget_alert_due(used, budget) and rows.mark_alerted(work.session, event_id, work.now.date()):
        log.warning("event %s has used %d of its %d SMS today", event_id, used, budget)
        audit_rows.audit(work.session, work.stamp, event_id, "budget_alert", "notices", event_id, None,
                         {"used": used, "budget": budget, "day": work.now.date().isoformat()})  # fmt: skip
        work.emit("notice_budget_alert", event_id, used=used, budget=budget)


def enqueue(work: Work, kind: str, phone: str | None, params: dict[str, Any], *, key: str,
            event_id: int | None = None, account: str = "") -> int | None:  # fmt: skip
    """Store one notice (None when this key was stored before). It is queued for the worker, or
    kept as ``skipped`` with the reason when it must not cost a message."""
    spec = KINDS[kind]
    values = {p: str(params[p]) for p in spec.params}
    reason = ""
    if not phone:
        reason = "no_phone"
    elif spec.optional and event_id is not None and kind in rows.settings(work.session, event_id).off:
        reason = "switched_off"
    elif spec.optional and (rows.opted_out(work.session, int(account)) if account.isdigit()
                            else rows.phone_opted_out(work.session, phone)):  # fmt: skip
        reason = "opted_out"
    budget = budget_of(work, event_id) if event_id is not None else 0
    if budget and event_id is not None and not reason:
        budget_gate(work, event_id)  # the count below and the insert are one step for every worker
    used = rows.used_on(work.session, event_id, work.now.date()) if event_id is not None else 0
    if not reason and budget and used >= budget:
        reason = "over_budget"
    state = "skipped" if reason else "queued"
    notice = rows.add(work.session, key=key, event_id=event_id, kind=kind, phone=phone or "", account=account,
                      params=values, state=state, reason=reason, now=work.now, day=work.now.date())  # fmt: skip
    if notice is None:
        return None
    audit_rows.audit(work.session, work.stamp, event_id, "notice", "notice", notice, None,
                     {"kind": kind, "to": masked(phone or ""), "state": state, "reason": reason})  # fmt: skip
    if state == "queued" and event_id is not None and budget:
        _alert(work, event_id, used + 1, budget)
    if state == "queued":
        work.emit("notice_queued", event_id, notice=notice, notice_kind=kind)
    else:
        work.emit("notice_skipped", event_id, notice=notice, notice_kind=kind, reason=reason)
    return notice


def message_name(event: EventRecord) -> str:
    """The event's name in a notice: the regulation's ``short_name`` (one SMS part, one fee)
    when it has one, else the full name."""
    return regulation_of(event).short_name or event.name


def phone_of_account(work: Work, account: str) -> str | None:
    """The mobile number of a user account (a player's sign-in number), None without one."""
    if not account.isdigit():
        return None
    try:
        return account_rows.get_user(work.session, int(account)).phone
    except LookupError:
        return None


# ----- the worker ------------------------------------------------------------------------------
@dataclass(frozen=True)
class PassResult:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


def worker_name() -> str:
    return f"{socket.gethostname()[:30]}:{os.getpid()}"


def _wiped(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    """The variables kept after sending: a sign-in code is not kept in clear."""
    return {**params, "code": "******"} if kind == SIGN_IN_CODE else params


def _outcome(ctx: Context, notice: NoticeRecord, token: str, sender: Sender) -> str:
    sms = Sms(notice.id, notice.phone, notice.kind, notice.params)
    try:
        provider_id = sender.deliver(sms)
    except SendFailed as exc:
        failure: SendFailed | None = exc
    except Exception as exc:  # a sender's own fault: kept, said, retried like a network error
        log.exception("SMS sender %s failed on notice %s", sender.name, notice.id)
        failure = SendFailed(type(exc).__name__, Text(f"发送程序出错: {exc}", f"the sender failed: {exc}"),
                             retry=True)  # fmt: skip
    else:
        failure = None
    with ctx.work(Actor.system()) as work:
        if failure is None:
            rows.finish_delivered(work.session, notice.id, token, state="sent", sent_at=work.now,
                                  provider=sender.name, provider_id=provider_id[:100], reason="", error="",
                                  params=_wiped(notice.kind, notice.params))  # fmt: skip
            state = "sent"
        else:
            delay = retry_delay(notice.attempts) if failure.retry else None
            state = "queued" if delay is not None else "failed"
            words = f"{failure.reason.zh} / {failure.reason.en}"
            rows.finish(work.session, notice.id, token, state=state, provider=sender.name, reason=failure.code[:32],
                        error=words, next_at=work.now + (delay or timedelta(0)),
                        params=notice.params if state == "queued" else _wiped(notice.kind, notice.params))  # fmt: skip
            log.warning("SMS notice %s %s: %s", notice.id, state, failure.reason.en)
        # Not on the event's own audit stream: its newest line is the event's change stamp (page
        # caches), and a message leaving changes no page. The line names the event instead.
        audit_rows.audit(work.session, work.stamp, None, "deliver", "notice", notice.id, {"state": "sending"},
                         {"state": state, "event": notice.event_id, "provider": sender.name, "attempt": notice.attempts,
                         **({"error": failure.code} if failure else {})})  # fmt: skip
    return state


# Claims seen open by this process: (store, notice, claim token) → this process's time of the
# first pass that saw it. Durations are taken on one clock only (see the module's docstring).
_SIGHTED: dict[tuple[str, int, str], datetime] = {}
_SIGHTED_LOCK = threading.Lock()


def _stale(store: str, open_claims: list[NoticeRecord], now: datetime) -> list[NoticeRecord]:
    """The open claims this process has seen open for ``STALE_MINUTES`` of its own clock."""
    with _SIGHTED_LOCK:
        live = {(store, r.id, r.claimed_by) for r in open_claims}
        for gone in [k for k in _SIGHTED if k[0] == store and k not in live]:
            del _SIGHTED[gone]
        out = []
        for r in open_claims:
            first = _SIGHTED.setdefault((store, r.id, r.claimed_by), now)
            if now - first >= timedelta(minutes=STALE_MINUTES):
                out.append(r)
        return out


def work_queue(ctx: Context, sender: Sender, *, limit: int = 50, worker: str = "") -> PassResult:
    """One pass of the worker: stale claims are closed, up to ``limit`` due notices are claimed
    and sent one by one, each outcome in its own transaction."""
    token = f"{worker or worker_name()}:{uuid.uuid4().hex[:10]}"
    with ctx.work(Actor.system()) as work:
        for stale in _stale(str(ctx.settings.database), rows.claims_in_flight(work.session), work.now):
            closed = rows.finish(work.session, stale.id, stale.claimed_by, state="failed", reason="unknown",
                                 params=_wiped(stale.kind, stale.params),
                                 error="发送中断, 无法确定是否送达 (未自动重发) / the worker stopped mid-send: "
                                       "delivery unknown (not resent automatically)")  # fmt: skip
            if closed:
                audit_rows.audit(work.session, work.stamp, None, "deliver", "notice", stale.id, {"state": "sending"},
                                 {"state": "failed", "event": stale.event_id, "error": "unknown"})  # fmt: skip
    with ctx.work(Actor.system()) as work:
        claimed = rows.claim(work.session, token, work.now, limit)
    counts = {"sent": 0, "queued": 0, "failed": 0}
    for notice in claimed:
        outcome = _outcome(ctx, notice, token, sender)
        counts[outcome] += 1
        NOTICES.labels(outcome).inc()
    return PassResult(counts["sent"], counts["queued"], counts["failed"])


# ----- the operator's view and controls ---------------------------------------------------------
@dataclass(frozen=True)
class NoticeView:
    id: int
    event_id: int | None
    kind: str
    to: str  # masked number
    state: str
    reason: str
    error: str
    attempts: int
    created_at: datetime
    sent_at: datetime | None
    next_at: datetime
    provider: str

    @property
    def kind_label(self) -> Text:
        return KINDS[self.kind].label

    @property
    def state_label(self) -> Text:
        return STATE_LABELS.get(self.state, Text(self.state, self.state))

    def why(self) -> Text:
        """The reason in words: a skip reason, or the provider's refusal as recorded."""
        if self.state == "skipped":
            return SKIP_LABELS.get(self.reason, Text(self.reason, self.reason))
        if self.error:
            zh, _, en = self.error.partition(" / ")
            return Text(zh, en or zh)
        return Text("", "")


def _view(r: NoticeRecord) -> NoticeView:
    return NoticeView(r.id, r.event_id, r.kind, masked(r.phone), r.state, r.reason, r.error, r.attempts,
                      r.created_at, r.sent_at, r.next_at, r.provider)  # fmt: skip


def _event_id(work: Work, event_ref: str | int | None) -> int | None:
    return None if event_ref is None else resolve_event(work, event_ref).id


def notice_list(work: Work, event_ref: str | int | None, state: str | None = None, limit: int = 200) -> list[NoticeView]:
    """The newest notices (of one event, in one state) for the operator: numbers masked."""
    work.require(Action.NOTICES)
    if state is not None and state not in STATE_LABELS:
        raise InputError(Text(f"未知状态: {state} (可用: {', '.join(STATE_LABELS)})",
                              f"unknown state: {state} (known: {', '.join(STATE_LABELS)})"), code="bad_state")
    return [_view(r) for r in rows.listing(work.session, _event_id(work, event_ref), state, limit)]


@dataclass(frozen=True)
class NoticeSummary:
    counts: dict[str, int]
    off: frozenset[str]
    budget: int  # 0: none
    used_today: int
    alerted_today: bool


def notice_summary(work: Work, event_ref: str | int) -> NoticeSummary:
    work.require(Action.NOTICES)
    event_id = resolve_event(work, event_ref).id
    saved = rows.settings(work.session, event_id)
    return NoticeSummary(rows.counts(work.session, event_id), saved.off, budget_of(work, event_id),
                         rows.used_on(work.session, event_id, work.now.date()), saved.alerted_on == work.now.date())


def requeue(work: Work, notice_id: int) -> NoticeView:
    """Send a failed notice again (after the operator fixed the cause), attempts from zero."""
    work.require(Action.NOTICES)
    found = rows.get(work.session, notice_id)
    if found is None:
        raise NotFoundError(Text(f"没有编号为{notice_id}的通知", f"no notice {notice_id}"), code="no_notice")
    work.check_event(found.event_id)
    if found.state != "failed" or found.kind == SIGN_IN_CODE:
        raise Refused(Text("只能重发发送失败的通知 (验证码请选手重新获取)",
                           "only a failed notice can be sent again (a code is requested anew by the player)"),
                      code="not_failed", params={"state": found.state})  # fmt: skip
    rows.set_state(work.session, notice_id, state="queued", attempts=0, next_at=work.now, claimed_by="")
    audit_rows.audit(work.session, work.stamp, found.event_id, "requeue", "notice", notice_id, {"state": "failed"}, {"state": "queued"})
    return _view(rows.get(work.session, notice_id) or found)


def remind_fees(work: Work, event_ref: str | int) -> int:
    """Queue a fee-due SMS to every entry (pending or approved) whose fee is not paid, at most
    one a day per entry; returns how many notices were made (queued, or held back with why)."""
    work.require(Action.NOTICES)
    event = resolve_event(work, event_ref)
    players = roster_rows.players_by_id(work.session, event.id)
    queued = 0
    for e in roster_rows.list_entries(work.session, event.id, status=(EntryStatus.PENDING, EntryStatus.APPROVED)):
        if e.fee_due <= 0 or e.fee_paid:
            continue
        person = players.get(e.player_id)
        made = enqueue(work, FEE_DUE, person.phone if person else None, {"event": message_name(event), "amount": e.fee_due},
                       key=f"fee:{event.id}:{e.id}:{work.now:%Y%m%d}", event_id=event.id)  # fmt: skip
        queued += made is not None
    return queued


def _kind(key: str) -> str:
    if key not in KINDS or not KINDS[key].optional:
        optional = [k for k, v in KINDS.items() if v.optional]
        raise InputError(Text(f"不能开关的通知类型: {key} (可用: {', '.join(optional)})",
                              f"not a switchable notice kind: {key} (known: {', '.join(optional)})"),
                         code="bad_notice_kind")  # fmt: skip
    return key


def switch_kind(work: Work, event_ref: str | int, kind: str, on: bool) -> frozenset[str]:
    """Switch one optional kind on or off for an event; returns the kinds now off."""
    work.require(Action.NOTICES)
    event_id = resolve_event(work, event_ref).id
    before = rows.settings(work.session, event_id).off
    after = (before - {_kind(kind)}) if on else (before | {_kind(kind)})
    rows.save_settings(work.session, event_id, off=after)
    audit_rows.audit(work.session, work.stamp, event_id, "notice_switch", "notices", event_id, {"off": sorted(before)}, {"off": sorted(after)})
    return frozenset(after)


def set_budget(work: Work, event_ref: str | int, budget: int | None) -> None:
    """An event's daily SMS budget (None: the site's default; 0: unlimited)."""
    work.require(Action.NOTICES)
    if budget is not None and budget < 0:
        raise InputError(Text("预算应为不小于0的整数", "the budget must be 0 or more"), code="bad_budget")
    event_id = resolve_event(work, event_ref).id
    before = rows.settings(work.session, event_id).daily_budget
    rows.save_settings(work.session, event_id, daily_budget=budget)
    audit_rows.audit(work.session, work.stamp, event_id, "notice_budget", "notices", event_id, {"daily_budget": before}, {"daily_budget": budget})


def _own_user(work: Work) -> int:
    if not work.actor.id.isdigit():
        raise Refused(Text("请先登录", "sign in first"), code="sign_in")
    return int(work.actor.id)


def my_opt_out(work: Work) -> bool:
    return rows.opted_out(work.session, _own_user(work))


def set_my_opt_out(work: Work, out: bool) -> None:
    """A signed-in player refuses (or accepts again) every notice but the sign-in code."""
    user = _own_user(work)
    before = rows.opted_out(work.session, user)
    rows.set_opt_out(work.session, user, out, work.now)
    audit_rows.audit(work.session, work.stamp, None, "notice_opt_out", "user", user, {"opted_out": before}, {"opted_out": out})


__all__ = [
    "NoticeSummary",
    "NoticeView",
    "PassResult",
    "budget_gate",
    "check_budget",
    "enqueue",
    "gate",
    "is_queued",
    "masked",
    "my_opt_out",
    "notice_list",
    "notice_summary",
    "phone_of_account",
    "remind_fees",
    "requeue",
    "set_budget",
    "set_my_opt_out",
    "switch_kind",
    "used_today",
    "work_queue",
]  # fmt: skip
