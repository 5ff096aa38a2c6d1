"""The fee ledger (issue 46): payments, refunds, provider orders and applied notifications, in 分.

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "payment_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("out_trade_no", sa.String(length=32), nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("items", sa.JSON(), nullable=False),
        sa.Column("amount_fen", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("description", sa.String(length=127), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("paid_at", sa.DateTime(), nullable=True),
        sa.Column("transaction_id", sa.String(length=64), nullable=True),
        sa.Column("pay_url", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_payment_orders_event_id_events",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_payment_orders"),
        sa.UniqueConstraint("out_trade_no", name="uq_payment_orders_out_trade_no"),
    )
    op.create_index("ix_payment_orders_event_id", "payment_orders", ["event_id"])
    op.create_table(
        "fee_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("subject_kind", sa.String(length=16), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("amount_fen", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("transaction_id", sa.String(length=64), nullable=True),
        sa.Column("order_id", sa.Integer(), nullable=True),
        sa.Column("paid_at", sa.DateTime(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(), nullable=True),
        sa.Column("cancelled_by", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_fee_payments_event_id_events",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["order_id"], ["payment_orders.id"], name="fk_fee_payments_order_id_payment_orders",
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_fee_payments"),
        sa.UniqueConstraint("order_id", "subject_kind", "subject_id", name="uq_fee_payments_order_subject"),
    )
    op.create_index("ix_fee_payments_event_id", "fee_payments", ["event_id"])
    op.create_table(
        "fee_refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("subject_kind", sa.String(length=16), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=True),
        sa.Column("amount_fen", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("out_refund_no", sa.String(length=64), nullable=True),
        sa.Column("provider_refund_id", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_fee_refunds_event_id_events",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["payment_id"], ["fee_payments.id"], name="fk_fee_refunds_payment_id_fee_payments",
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_fee_refunds"),
        sa.UniqueConstraint("out_refund_no", name="uq_fee_refunds_out_refund_no"),
    )
    op.create_index("ix_fee_refunds_event_id", "fee_refunds", ["event_id"])
    op.create_table(
        "payment_notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("notify_id", sa.String(length=64), nullable=False),
        sa.Column("out_trade_no", sa.String(length=32), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_payment_notifications"),
        sa.UniqueConstraint("provider", "notify_id", name="uq_payment_notifications_provider_notify_id"),
    )


def downgrade() -> None:
    op.drop_table("payment_notifications")
    op.drop_index("ix_fee_refunds_event_id", table_name="fee_refunds")
    op.drop_table("fee_refunds")
    op.drop_index("ix_fee_payments_event_id", table_name="fee_payments")
    op.drop_table("fee_payments")
    op.drop_index("ix_payment_orders_event_id", table_name="payment_orders")
    op.drop_table("payment_orders")
