"""Refunds through a provider, never inside the decision's transaction (issue 46).

A refund is decided in a transaction (an appeal upheld, the 退款 form, ``yisai fees refund``):
there its rows are written ``requested``, our ``out_refund_no`` fixed, and the provider is not
asked. After the commit the front end calls ``send_requested_refunds``: the provider is asked with
no transaction open (on SQLite an open write transaction holds the file's lock for everyone), and
each answer is recorded in a transaction of its own. So a decision rolled back never leaves money
gone that the ledger does not show, and a slow provider blocks no other writer.

A refund's life: ``requested`` → ``processing`` → ``done`` | ``failed``.
* provider not reached (network, server error, too many requests): stays ``requested``; the web
  server's timer (``settle_refunds``) sends it again. Both providers refund one ``out_refund_no``
  once however often it is sent, so sending again is safe — after a crash between the commit and
  the call as well.
* the provider refused: ``failed``, its words kept in ``message``.
* the provider answered SUCCESS: ``done``; PROCESSING (WeChat Pay) or ``fund_change = N`` (Alipay):
  ``processing``, asked about by the timer (``Provider.refund_query``) until it is final; a WeChat
  Pay refund notification says the same and is recorded once (``apply_refund_notice``).
* ABNORMAL or CLOSED (WeChat Pay): ``failed``.

In the ledger ``requested``, ``processing`` and ``done`` count as refunded (the money is given back
or on its way: the refund limit never lets the same 分 go twice), ``failed`` counts nothing and a
new refund of that money may be made (``store.fee_rows.sums``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection
from dataclasses import dataclass

from yisai.i18n import Text
from yisai.services.context import Context, Refused, Work
from yisai.services.events import resolve_event
from yisai.services.identity import Action, Actor
from yisai.services.payments.base import (
    APPLIED,
    DUPLICATE,
    MISMATCH,
    NOT_PAID,
    REFUND_ABNORMAL,
    REFUND_CLOSED,
    REFUND_NOT_FOUND,
    REFUND_PROCESSING,
    REFUND_SUCCESS,
    Provider,
    ProviderError,
    ProviderUnreachable,
    RefundNotice,
    RefundResult,
)
from yisai.services.settings import Settings
from yisai.store import EventRecord, audit_rows
from yisai.store import fee_rows as rows
from yisai.store.fee_rows import PaymentRecord, RefundRecord
from yisai.vocabulary.money import yuan_text

REQUESTED, PROCESSING, DONE, FAILED = "requested", "processing", "done", "failed"
LEDGER_STATUS = {REFUND_SUCCESS: DONE, REFUND_PROCESSING: PROCESSING, REFUND_ABNORMAL: FAILED, REFUND_CLOSED: FAILED}
FINAL_WORDS = {  # what a failed refund's message says when the provider gave no words of its own
    REFUND_ABNORMAL: "退款异常: 原路退回失败 (如付款人的银行卡已注销或冻结), 请在商户平台处理此笔退款",
    REFUND_CLOSED: "退款关闭",
}
STATUS_LABELS = {REQUESTED: Text("已申请, 待支付平台受理", "requested, not yet taken by the provider"),
                 PROCESSING: Text("退款处理中", "being refunded"), DONE: Text("已退款", "refunded"),
                 FAILED: Text("退款失败", "failed")}
log = logging.getLogger("yisai.payments")


# ----- in the decision's transaction ----------------------------------------------------------------
def refund_payments(work: Work, event: EventRecord, kind: str, subject_id: int, amount: int,
                    reason: str) -> list[RefundRecord]:
    """Give ``amount`` 分 back from the subject's payments, newest first: a provider's payment is
    written ``requested`` (sent after the commit by ``send_requested_refunds``), a manual one
    recorded as given back by hand (``done``)."""
    payments = [p for p in rows.payments_of(work.session, event.id, kind, subject_id) if p.cancelled_at is None]
    given: dict[int | None, int] = {}
    for r in rows.refunds_of(work.session, event.id, kind, subject_id):
        if r.status != FAILED:
            given[r.payment_id] = given.get(r.payment_id, 0) + r.amount_fen
    made: list[RefundRecord] = []
    left = amount
    for p in reversed(payments):
        if left <= 0:
            break
        part = min(left, p.amount_fen - given.get(p.id, 0))
        if part <= 0:
            continue
        if p.channel == "manual" or p.order_id is None:
            made.append(rows.add_refund(work.session, work.stamp, event.id, kind, subject_id, part, reason,
                                        "manual", payment_id=p.id))
        else:
            made.append(_request(work, event, p, part, reason))
        left -= part
    return made


def _request(work: Work, event: EventRecord, payment: PaymentRecord, part: int, reason: str) -> RefundRecord:
    order = rows.order_of_payment(work.session, payment.id)
    if order is None or order.event_id != event.id:
        raise Refused(Text("找不到该笔付款的订单, 无法原路退款", "the payment's order is gone: cannot refund"),
                      code="order_missing")
    provider = work.settings.payments.named(order.provider)  # this process must be able to send it
    out_refund_no = f"RF{order.out_trade_no[2:18]}{secrets.token_hex(6).upper()}"[:64]
    return rows.add_refund(work.session, work.stamp, event.id, payment.subject_kind, payment.subject_id, part,
                           reason, provider.name, payment_id=payment.id, out_refund_no=out_refund_no,
                           status=REQUESTED)


# ----- after the commit: ask the provider, record each answer ---------------------------------------
@dataclass(frozen=True)
class _Pending:
    """A refund read in a transaction, and what its provider is asked about it outside one."""

    refund: RefundRecord
    out_trade_no: str
    total_fen: int


def _pending(work: Work, statuses: tuple[str, ...], event_id: int | None,
             only: Collection[int] | None = None) -> list[_Pending]:
    out: list[_Pending] = []
    for r in rows.refunds_waiting(work.session, statuses, event_id):
        if only is not None and r.id not in only:
            continue
        order = rows.order_of_payment(work.session, r.payment_id)
        if order is not None:
            out.append(_Pending(r, order.out_trade_no, order.amount_fen))
    return out


def _ask(settings: Settings, pending: _Pending) -> RefundResult | None:
    """The provider's word on one refund, with no transaction open: the refund sent (``requested``)
    or asked about (``processing``; sent again, same number, when the provider has no such refund).
    None: nothing to record (not reached; a query refused)."""
    r = pending.refund
    provider = settings.payments.get(r.channel)
    if provider is None or r.out_refund_no is None:
        return None
    try:
        if r.status == PROCESSING:
            found = provider.refund_query(pending.out_trade_no, r.out_refund_no)
            if found.status != REFUND_NOT_FOUND:
                return found
        return provider.refund(pending.out_trade_no, r.out_refund_no, r.amount_fen, pending.total_fen, r.reason)
    except ProviderUnreachable:
        log.info("refund not answered, asked again later: %s", r.out_refund_no)
        return None
    except ProviderError as exc:
        if r.status == REQUESTED:  # the provider refused this refund: it is not made
            return RefundResult("", REFUND_CLOSED, exc.text.zh)
        log.warning("refund query refused, asked again later: %s %s", r.out_refund_no, exc.code)
        return None


def _record(ctx: Context, actor: Actor | None, pending: _Pending, result: RefundResult) -> str | None:
    """The answer, in a transaction of its own; the status it moved to, or None when it did not
    move (the same state, or another writer recorded it first)."""
    to = LEDGER_STATUS.get(result.status)
    if to is None or to == pending.refund.status:
        return None
    with ctx.work(actor=actor) as work:
        current = rows.refund_by_no(work.session, pending.refund.out_refund_no or "", lock=True)
        if current is None:
            return None
        if result.refund_fen is not None and result.refund_fen != current.amount_fen:  # not the ledger's refund
            audit_rows.audit(work.session, work.stamp, current.event_id, "refund_mismatch", "fee",
                             current.out_refund_no or "", None,
                             {"out_refund_no": current.out_refund_no, "refund_fen": result.refund_fen,
                              "status": result.status})
            return None
        message = result.message or (FINAL_WORDS.get(result.status, "") if to == FAILED else "")
        if not rows.move_refund(work.session, work.stamp, current, to, provider_refund_id=result.refund_id or None,
                                message=message):
            return None
        work.emit("fee_refund_settled", current.event_id, refund=current.id, status=to, amount_fen=current.amount_fen)
    return to


UNCHANGED = "unchanged"


def _settle(ctx: Context, actor: Actor | None, pending: list[_Pending]) -> dict[str, int]:
    """How many refunds moved to each state; ``unchanged``: the provider not reached, the refund
    still processing, or its answer recorded by another worker first."""
    counts = {PROCESSING: 0, DONE: 0, FAILED: 0, UNCHANGED: 0}
    for p in pending:
        result = _ask(ctx.settings, p)
        moved = _record(ctx, actor, p, result) if result is not None else None
        counts[moved or UNCHANGED] += 1
    return counts


def send_requested_refunds(ctx: Context, actor: Actor | None, event_ref: str | None,
                           only: Collection[int] | None = None) -> list[RefundRecord]:
    """After the decision's commit: send the event's ``requested`` refunds (``only`` these ids when
    given) and record each answer. Returns those refunds as they are now (done, processing,
    failed, or still requested when the provider could not be reached: the timer retries)."""
    with ctx.work(actor=actor) as work:
        work.require(Action.SETTLE_PAYMENTS)
        event = resolve_event(work, event_ref)
        work.check_event(event.id)
        pending = _pending(work, (REQUESTED,), event.id, only)
    _settle(ctx, actor, pending)
    with ctx.work(actor=actor) as work:
        ids = {p.refund.id for p in pending} | set(only or ())
        return [r for r in rows.refunds_of(work.session, event.id) if r.id in ids]


def settle_refunds(ctx: Context, actor: Actor | None = None) -> dict[str, int]:
    """The server's timer: every ``requested`` refund sent (again), every ``processing`` one asked
    about; how many moved to each state (``_settle``)."""
    with ctx.work(actor=actor) as work:
        work.require(Action.SETTLE_PAYMENTS)
        pending = _pending(work, (REQUESTED, PROCESSING), None)
    return _settle(ctx, actor, pending)


# ----- a provider's refund notification (WeChat Pay REFUND.*) ---------------------------------------
def apply_refund_notice(work: Work, provider: Provider, notice: RefundNotice) -> str:
    """A verified refund notification, compared with the refund row of its ``out_refund_no`` (the
    order, the amount, the merchant) and recorded once (its id claimed like a payment's)."""
    if not notice.notify_id or not rows.claim_notice(work.session, provider.name, notice.notify_id,
                                                     notice.out_trade_no[:32], work.now):
        return DUPLICATE
    refund = rows.refund_by_no(work.session, notice.out_refund_no, lock=True)
    order = rows.order_of_payment(work.session, refund.payment_id) if refund is not None else None
    if refund is None or order is None or refund.channel != provider.name or notice.refund_fen != refund.amount_fen \
            or notice.total_fen != order.amount_fen or notice.out_trade_no != order.out_trade_no \
            or notice.merchant_id != provider.merchant_id:
        audit_rows.audit(work.session, work.stamp, refund.event_id if refund else None, "refund_mismatch", "fee",
                         notice.out_refund_no[:64], None,
                         {"out_trade_no": notice.out_trade_no, "out_refund_no": notice.out_refund_no,
                          "refund_fen": notice.refund_fen, "total_fen": notice.total_fen,
                          "merchant": notice.merchant_id, "status": notice.status})
        return MISMATCH
    to = LEDGER_STATUS.get(notice.status)
    if to is None or to == PROCESSING:
        return NOT_PAID
    message = FINAL_WORDS.get(notice.status, "") if to == FAILED else ""
    if not rows.move_refund(work.session, work.stamp, refund, to, provider_refund_id=notice.refund_id or None,
                            message=message):
        return DUPLICATE
    work.emit("fee_refund_settled", refund.event_id, refund=refund.id, status=to, amount_fen=refund.amount_fen)
    return APPLIED


def summary(made: list[RefundRecord]) -> Text:
    """What the one who decided a refund is told, by status (amounts in 元)."""
    by: dict[str, int] = {}
    for r in made:
        by[r.status] = by.get(r.status, 0) + r.amount_fen
    zh, en = [], []
    if by.get(DONE):
        zh.append(f"已退款 {yuan_text(by[DONE])} 元")
        en.append(f"refunded {yuan_text(by[DONE])} yuan")
    if by.get(PROCESSING):
        zh.append(f"退款处理中 {yuan_text(by[PROCESSING])} 元 (支付平台处理完后自动更新)")
        en.append(f"{yuan_text(by[PROCESSING])} yuan being refunded (updated when the provider is done)")
    if by.get(REQUESTED):
        zh.append(f"退款已记录 {yuan_text(by[REQUESTED])} 元, 支付平台暂时无法连接, 系统每分钟自动重试")
        en.append(f"{yuan_text(by[REQUESTED])} yuan recorded; the provider cannot be reached now, retried every minute")
    for r in made:
        if r.status == FAILED:
            zh.append(f"退款 {yuan_text(r.amount_fen)} 元失败: {r.message}")
            en.append(f"the refund of {yuan_text(r.amount_fen)} yuan failed: {r.message}")
    return Text("; ".join(zh) or "没有退款", "; ".join(en) or "nothing refunded")
