"""WeChat and QQ sign-in: each provider identity (openid, unionid) linked to one player account.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "oauth_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("openid", sa.String(length=128), nullable=False),
        sa.Column("unionid", sa.String(length=128), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_used_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_oauth_links_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_oauth_links"),
        sa.UniqueConstraint("provider", "openid", name="uq_oauth_links_provider_openid"),
        sa.UniqueConstraint("user_id", "provider", name="uq_oauth_links_user_id_provider"),
    )
    op.create_index("ix_oauth_links_user_id", "oauth_links", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_oauth_links_user_id", table_name="oauth_links")
    op.drop_table("oauth_links")
