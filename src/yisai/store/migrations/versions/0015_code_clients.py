"""Sign-in codes remember the client address that asked for them, so requests are limited per
address and for the whole site, not only per number.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("live_codes") as batch:
        batch.add_column(sa.Column("client", sa.String(length=64), nullable=False, server_default=""))
        batch.create_index("ix_live_codes_client_created", ["client", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("live_codes") as batch:
        batch.drop_index("ix_live_codes_client_created")
        batch.drop_column("client")
