"""Row access for the fee ledger; called only by ``yisai.services.fees`` and ``services.payments``.

Every write leaves one audit line with the amounts in 分 (``entity`` ``fee`` for payments and
refunds, ``order`` for provider orders). Applying a paid order is guarded twice: the order moves
from ``open`` to ``paid`` by a conditional update (one writer wins), and a payment row is unique
per (order, subject).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yisai.store.audit_rows import audit
from yisai.store.fee_models import FeePaymentRow, FeeRefundRow, PaymentNoticeRow, PaymentOrderRow
from yisai.store.records import Stamp


@dataclass(frozen=True, slots=True)
class PaymentRecord:
    id: int
    event_id: int
    subject_kind: str
    subject_id: int
    amount_fen: int
    channel: str
    transaction_id: str | None
    order_id: int | None
    paid_at: datetime
    recorded_by: str
    note: str
    cancelled_at: datetime | None


@dataclass(frozen=True, slots=True)
class RefundRecord:
    id: int
    event_id: int
    subject_kind: str
    subject_id: int
    payment_id: int | None
    amount_fen: int
    reason: str
    decided_by: str
    decided_at: datetime
    channel: str
    out_refund_no: str | None
    provider_refund_id: str | None
    status: str  # requested | processing | done | failed (manual refunds: done)
    message: str = ""  # a refusal in the provider's words


@dataclass(frozen=True, slots=True)
class OrderRecord:
    id: int
    event_id: int
    out_trade_no: str
    provider: str
    mode: str
    team_id: int | None
    items: tuple[tuple[str, int, int], ...]  # (kind, id, amount_fen)
    amount_fen: int
    currency: str
    description: str
    status: str
    created_by: str
    created_at: datetime
    expires_at: datetime
    paid_at: datetime | None
    transaction_id: str | None
    pay_url: str


def _payment(r: FeePaymentRow) -> PaymentRecord:
    return PaymentRecord(r.id, r.event_id, r.subject_kind, r.subject_id, r.amount_fen, r.channel, r.transaction_id,
                         r.order_id, r.paid_at, r.recorded_by, r.note, r.cancelled_at)


def _refund(r: FeeRefundRow) -> RefundRecord:
    return RefundRecord(r.id, r.event_id, r.subject_kind, r.subject_id, r.payment_id, r.amount_fen, r.reason,
                        r.decided_by, r.decided_at, r.channel, r.out_refund_no, r.provider_refund_id, r.status,
                        r.message or "")


def _order(r: PaymentOrderRow) -> OrderRecord:
    items = tuple((str(k), int(i), int(a)) for k, i, a in r.items)
    return OrderRecord(r.id, r.event_id, r.out_trade_no, r.provider, r.mode, r.team_id, items, r.amount_fen,
                       r.currency, r.description, r.status, r.created_by, r.created_at, r.expires_at, r.paid_at,
                       r.transaction_id, r.pay_url)


def _payment_json(p: PaymentRecord) -> dict[str, Any]:
    return {"subject": f"{p.subject_kind}:{p.subject_id}", "amount_fen": p.amount_fen, "channel": p.channel,
            "transaction_id": p.transaction_id, "order_id": p.order_id}


# ----- payments -------------------------------------------------------------------------------------
def add_payment(s: Session, by: Stamp, event_id: int, kind: str, subject_id: int, amount_fen: int, channel: str,
                *, transaction_id: str | None = None, order_id: int | None = None, note: str = "") -> PaymentRecord:
    r = FeePaymentRow(event_id=event_id, subject_kind=kind, subject_id=subject_id, amount_fen=amount_fen,
                      channel=channel, transaction_id=transaction_id, order_id=order_id, paid_at=by.at,
                      recorded_by=by.actor, note=note)
    s.add(r)
    s.flush()
    saved = _payment(r)
    audit(s, by, event_id, "fee_paid", "fee", f"{kind}:{subject_id}", None, _payment_json(saved), note)
    return saved


def cancel_manual_payments(s: Session, by: Stamp, event_id: int, kind: str, subject_id: int, note: str = "") -> int:
    """Take back the payments recorded by hand for one subject (已缴费 unticked): kept, marked."""
    found = s.scalars(select(FeePaymentRow).where(
        FeePaymentRow.event_id == event_id, FeePaymentRow.subject_kind == kind, FeePaymentRow.subject_id == subject_id,
        FeePaymentRow.channel == "manual", FeePaymentRow.cancelled_at.is_(None))).all()
    for r in found:
        r.cancelled_at, r.cancelled_by = by.at, by.actor
        audit(s, by, event_id, "fee_cancelled", "fee", f"{kind}:{subject_id}", _payment_json(_payment(r)), None, note)
    s.flush()
    return len(found)


def carry_payments(s: Session, by: Stamp, event_id: int, source: tuple[str, int], target: tuple[str, int],
                   note: str = "") -> int:
    """Re-point one subject's payments and refunds to another (a qualifier's place paid, then
    made an entry of the final: the money now belongs to the entry, so it is not owed twice).
    Each payment moved leaves one audit line; returns how many payments moved."""
    kind, sid = source
    moved = s.scalars(select(FeePaymentRow).where(
        FeePaymentRow.event_id == event_id, FeePaymentRow.subject_kind == kind, FeePaymentRow.subject_id == sid)).all()
    for r in moved:
        before = _payment_json(_payment(r))
        r.subject_kind, r.subject_id = target
        audit(s, by, event_id, "fee_carried", "fee", f"{target[0]}:{target[1]}", before, _payment_json(_payment(r)), note)
    for f in s.scalars(select(FeeRefundRow).where(
            FeeRefundRow.event_id == event_id, FeeRefundRow.subject_kind == kind, FeeRefundRow.subject_id == sid)).all():
        f.subject_kind, f.subject_id = target
    s.flush()
    return len(moved)


def payments_of(s: Session, event_id: int, kind: str | None = None, subject_id: int | None = None) -> list[PaymentRecord]:
    q = select(FeePaymentRow).where(FeePaymentRow.event_id == event_id)
    if kind is not None:
        q = q.where(FeePaymentRow.subject_kind == kind)
    if subject_id is not None:
        q = q.where(FeePaymentRow.subject_id == subject_id)
    return [_payment(r) for r in s.scalars(q.order_by(FeePaymentRow.id))]


def refunds_of(s: Session, event_id: int, kind: str | None = None, subject_id: int | None = None) -> list[RefundRecord]:
    q = select(FeeRefundRow).where(FeeRefundRow.event_id == event_id)
    if kind is not None:
        q = q.where(FeeRefundRow.subject_kind == kind)
    if subject_id is not None:
        q = q.where(FeeRefundRow.subject_id == subject_id)
    return [_refund(r) for r in s.scalars(q.order_by(FeeRefundRow.id))]


def sums(s: Session, event_id: int) -> dict[tuple[str, int], tuple[int, int]]:
    """(kind, id) → (paid, refunded) in 分; cancelled payments and failed refunds count nothing."""
    out: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for p in payments_of(s, event_id):
        if p.cancelled_at is None:
            out[(p.subject_kind, p.subject_id)][0] += p.amount_fen
    for r in refunds_of(s, event_id):
        if r.status != "failed":
            out[(r.subject_kind, r.subject_id)][1] += r.amount_fen
    return {k: (v[0], v[1]) for k, v in out.items()}


def subject_sums(s: Session, event_id: int, kind: str, subject_id: int) -> tuple[int, int]:
    """(paid, refunded) in 分 of one subject (a row import marks thousands of entries one by one)."""
    paid = sum(p.amount_fen for p in payments_of(s, event_id, kind, subject_id) if p.cancelled_at is None)
    refunded = sum(r.amount_fen for r in refunds_of(s, event_id, kind, subject_id) if r.status != "failed")
    return paid, refunded


# ----- refunds --------------------------------------------------------------------------------------
def add_refund(s: Session, by: Stamp, event_id: int, kind: str, subject_id: int, amount_fen: int, reason: str,
               channel: str, *, payment_id: int | None = None, out_refund_no: str | None = None,
               provider_refund_id: str | None = None, status: str = "done") -> RefundRecord:
    r = FeeRefundRow(event_id=event_id, subject_kind=kind, subject_id=subject_id, payment_id=payment_id,
                     amount_fen=amount_fen, reason=reason, decided_by=by.actor, decided_at=by.at, channel=channel,
                     out_refund_no=out_refund_no, provider_refund_id=provider_refund_id, status=status)
    s.add(r)
    s.flush()
    audit(s, by, event_id, "fee_refunded", "fee", f"{kind}:{subject_id}", None,
          {"amount_fen": amount_fen, "channel": channel, "out_refund_no": out_refund_no,
           "refund_id": provider_refund_id, "status": status}, reason)
    return _refund(r)


# a refund's life: requested → processing → done | failed; never back, never out of done or failed
REFUND_SOURCES = {"processing": ("requested",), "done": ("requested", "processing"),
                  "failed": ("requested", "processing")}


def refund_by_no(s: Session, out_refund_no: str, *, lock: bool = False) -> RefundRecord | None:
    q = select(FeeRefundRow).where(FeeRefundRow.out_refund_no == out_refund_no)
    q = q.execution_options(populate_existing=True)  # a conditional UPDATE may have moved it since
    r = s.scalars(q.with_for_update() if lock else q).first()
    return _refund(r) if r is not None else None


def refunds_waiting(s: Session, statuses: tuple[str, ...], event_id: int | None = None) -> list[RefundRecord]:
    """Provider refunds not final yet (``requested``: to send; ``processing``: to ask about), of
    one event or of all (the server's timer)."""
    q = select(FeeRefundRow).where(FeeRefundRow.status.in_(statuses), FeeRefundRow.out_refund_no.is_not(None))
    if event_id is not None:
        q = q.where(FeeRefundRow.event_id == event_id)
    return [_refund(r) for r in s.scalars(q.order_by(FeeRefundRow.id).execution_options(populate_existing=True))]


def move_refund(s: Session, by: Stamp, refund: RefundRecord, to: str, *, provider_refund_id: str | None = None,
                message: str = "") -> bool:
    """Move a refund along its life by a conditional UPDATE (from the states ``to`` may follow):
    of two writers recording the same answer, one moves it and the other finds it moved (False)."""
    values: dict[str, Any] = {"status": to}
    if provider_refund_id:
        values["provider_refund_id"] = provider_refund_id[:64]
    if message:
        values["message"] = message[:500]
    moved = s.execute(update(FeeRefundRow).where(FeeRefundRow.id == refund.id,
                                                 FeeRefundRow.status.in_(REFUND_SOURCES[to]))
                      .values(**values).execution_options(synchronize_session=False)).rowcount  # type: ignore[attr-defined]
    if moved:
        audit(s, by, refund.event_id, f"fee_refund_{to}", "fee", f"{refund.subject_kind}:{refund.subject_id}",
              {"status": refund.status, "out_refund_no": refund.out_refund_no},
              {"status": to, "amount_fen": refund.amount_fen, "out_refund_no": refund.out_refund_no,
               "refund_id": provider_refund_id or refund.provider_refund_id}, message[:500])
    return bool(moved)


# ----- provider orders ------------------------------------------------------------------------------
def add_order(s: Session, by: Stamp, event_id: int, out_trade_no: str, provider: str, mode: str,
              team_id: int | None, items: list[tuple[str, int, int]], description: str,
              expires_at: datetime) -> OrderRecord:
    r = PaymentOrderRow(event_id=event_id, out_trade_no=out_trade_no, provider=provider, mode=mode, team_id=team_id,
                        items=[list(i) for i in items], amount_fen=sum(a for _, _, a in items), currency="CNY",
                        description=description, status="open", created_by=by.actor, created_at=by.at,
                        expires_at=expires_at, pay_url="")
    s.add(r)
    s.flush()
    audit(s, by, event_id, "order_created", "order", r.id, None,
          {"out_trade_no": out_trade_no, "provider": provider, "amount_fen": r.amount_fen, "items": r.items})
    return _order(r)


def set_pay_url(s: Session, order_id: int, url: str) -> None:
    r = s.get(PaymentOrderRow, order_id)
    if r is not None:
        r.pay_url = url
        s.flush()


def order_by_trade_no(s: Session, out_trade_no: str, *, lock: bool = False) -> OrderRecord | None:
    q = select(PaymentOrderRow).where(PaymentOrderRow.out_trade_no == out_trade_no)
    q = q.execution_options(populate_existing=True)  # a conditional UPDATE may have moved it since
    r = s.scalars(q.with_for_update() if lock else q).first()
    return _order(r) if r is not None else None


def order_of_payment(s: Session, payment_id: int | None) -> OrderRecord | None:
    """The provider order a payment came from (None for a payment recorded by hand)."""
    payment = s.get(FeePaymentRow, payment_id) if payment_id is not None else None
    order = s.get(PaymentOrderRow, payment.order_id) if payment is not None and payment.order_id is not None else None
    return _order(order) if order is not None else None


def orders_of(s: Session, event_id: int, team_id: int | None = None) -> list[OrderRecord]:
    q = select(PaymentOrderRow).where(PaymentOrderRow.event_id == event_id)
    if team_id is not None:
        q = q.where(PaymentOrderRow.team_id == team_id)
    return [_order(r) for r in s.scalars(q.order_by(PaymentOrderRow.id))]


def open_orders(s: Session) -> list[OrderRecord]:
    q = select(PaymentOrderRow).where(PaymentOrderRow.status == "open").order_by(PaymentOrderRow.id)
    return [_order(r) for r in s.scalars(q)]


def move_order(s: Session, by: Stamp, order: OrderRecord, to: str, *, transaction_id: str | None = None) -> bool:
    """``open`` → ``to`` (paid, closed, or failed when the provider refused to open it) if it is still open: True for the one writer that moved it."""
    values: dict[str, Any] = {"status": to}
    if to == "paid":
        values |= {"paid_at": by.at, "transaction_id": transaction_id}
    moved = s.execute(update(PaymentOrderRow).where(PaymentOrderRow.id == order.id, PaymentOrderRow.status == "open")
                      .values(**values).execution_options(synchronize_session=False)).rowcount  # type: ignore[attr-defined]
    if moved:
        audit(s, by, order.event_id, f"order_{to}", "order", order.id, {"status": "open"},
              {"status": to, "transaction_id": transaction_id, "amount_fen": order.amount_fen})
    return bool(moved)


# ----- notifications --------------------------------------------------------------------------------
def claim_notice(s: Session, provider: str, notify_id: str, out_trade_no: str, at: datetime) -> bool:
    """Keep a notification by its provider id: False when it was kept before (already applied)."""
    try:
        with s.begin_nested():
            s.add(PaymentNoticeRow(provider=provider, notify_id=notify_id, out_trade_no=out_trade_no,
                                   received_at=at, outcome="applied"))
    except IntegrityError:
        return False
    return True


def paid_orders(s: Session, provider: str, start: datetime, end: datetime) -> list[OrderRecord]:
    """Orders of every event paid through ``provider`` in [start, end): what a day's bill lists."""
    q = select(PaymentOrderRow).where(PaymentOrderRow.provider == provider, PaymentOrderRow.status == "paid",
                                      PaymentOrderRow.paid_at >= start, PaymentOrderRow.paid_at < end)
    return [_order(r) for r in s.scalars(q.order_by(PaymentOrderRow.id))]
