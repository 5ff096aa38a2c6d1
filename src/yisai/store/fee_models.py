"""Tables of the fee ledger (migration 0023): payments, refunds, provider orders and the
provider notifications already applied. Every amount is an integer of 分.

What is due is not stored (the regulation and the entry, team or appeal give it); a payment
and a refund name their subject by kind and id. ``unique(order_id, subject_kind, subject_id)``
lets an order's items be applied once, and ``unique(provider, notify_id)`` a notification.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from yisai.store.models import Base


class PaymentOrderRow(Base):
    """One attempt to pay through a provider: open → paid, or closed after its timeout."""

    __tablename__ = "payment_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    out_trade_no: Mapped[str] = mapped_column(String(32), unique=True)
    provider: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(16))  # native | h5
    team_id: Mapped[int | None] = mapped_column(Integer)  # the team it pays for, if any (who may see it)
    items: Mapped[list[Any]] = mapped_column(JSON)  # [[kind, id, amount_fen], ...]
    amount_fen: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    description: Mapped[str] = mapped_column(String(127))
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | paid | closed | failed
    created_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    paid_at: Mapped[datetime | None] = mapped_column(DateTime)
    transaction_id: Mapped[str | None] = mapped_column(String(64))
    pay_url: Mapped[str] = mapped_column(Text, default="")  # the QR code's text or the H5 link


class FeePaymentRow(Base):
    """Money received for one subject: by hand (``manual``) or through a provider's order."""

    __tablename__ = "fee_payments"
    __table_args__ = (UniqueConstraint("order_id", "subject_kind", "subject_id",
                                       name="uq_fee_payments_order_subject"),)  # fmt: skip

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    subject_kind: Mapped[str] = mapped_column(String(16))  # entry | team | appeal
    subject_id: Mapped[int] = mapped_column(Integer)
    amount_fen: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(16))  # manual | wechat | alipay
    transaction_id: Mapped[str | None] = mapped_column(String(64))
    order_id: Mapped[int | None] = mapped_column(ForeignKey("payment_orders.id", ondelete="SET NULL"))
    paid_at: Mapped[datetime] = mapped_column(DateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text, default="")
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime)  # a manual mark taken back
    cancelled_by: Mapped[str | None] = mapped_column(String(100))


class FeeRefundRow(Base):
    """Money given back for one subject: who decided, why, and the provider's refund."""

    __tablename__ = "fee_refunds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    subject_kind: Mapped[str] = mapped_column(String(16))
    subject_id: Mapped[int] = mapped_column(Integer)
    payment_id: Mapped[int | None] = mapped_column(ForeignKey("fee_payments.id", ondelete="SET NULL"))
    amount_fen: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    decided_by: Mapped[str] = mapped_column(String(100))
    decided_at: Mapped[datetime] = mapped_column(DateTime)
    channel: Mapped[str] = mapped_column(String(16))
    out_refund_no: Mapped[str | None] = mapped_column(String(64), unique=True)
    provider_refund_id: Mapped[str | None] = mapped_column(String(64))
    # requested (ours, not yet answered) → processing → done | failed; docs/fees.md "a refund's life"
    status: Mapped[str] = mapped_column(String(16), default="done")
    message: Mapped[str] = mapped_column(Text, default="", server_default="")  # a refusal in the provider's words (0025)


class PaymentNoticeRow(Base):
    """A provider's notification that passed its signature check, kept so it is applied once."""

    __tablename__ = "payment_notifications"
    __table_args__ = (UniqueConstraint("provider", "notify_id", name="uq_payment_notifications_provider_notify_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    provider: Mapped[str] = mapped_column(String(16))
    notify_id: Mapped[str] = mapped_column(String(64))
    out_trade_no: Mapped[str] = mapped_column(String(32))
    received_at: Mapped[datetime] = mapped_column(DateTime)
    outcome: Mapped[str] = mapped_column(String(32), default="")
