"""A refund's provider message (``fee_refunds.message``): the words of a provider that refused a
refund or closed it, kept beside the ``failed`` status for the operator. Refunds now live
``requested`` → ``processing`` → ``done`` | ``failed`` (docs/fees.md); the status column is wide
enough already.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fee_refunds") as batch:
        batch.add_column(sa.Column("message", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("fee_refunds") as batch:
        batch.drop_column("message")
