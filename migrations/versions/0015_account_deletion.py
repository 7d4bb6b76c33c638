"""account deletions: a tenant's request to delete its own account

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02

A request is pending through its grace period (the tenant's status is then
`deletion_requested`), then started (its whole-tenant erasure job in `erasure_id`) or withdrawn.
The partial unique index keeps one pending request per tenant. A tenant's status gets room for
the new `deletion_requested`.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # "deletion_requested" is longer than the 16 characters the statuses had so far.
    op.alter_column(
        "tenants",
        "status",
        existing_type=sa.String(length=16),
        type_=sa.String(length=32),
        existing_nullable=False,
        existing_server_default="active",
    )
    op.create_table(
        "account_deletions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="pending", nullable=False),
        sa.Column(
            "requested_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("erase_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_by", sa.String(length=16), nullable=True),
        sa.Column("erasure_id", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_account_deletions_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["erasure_id"],
            ["erasure_jobs.id"],
            name=op.f("fk_account_deletions_erasure_id_erasure_jobs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_deletions")),
    )
    op.create_index(
        op.f("ix_account_deletions_tenant_id"), "account_deletions", ["tenant_id"], unique=False
    )
    op.create_index(
        op.f("ix_account_deletions_erase_after"),
        "account_deletions",
        ["erase_after"],
        unique=False,
    )
    op.create_index(
        "uq_account_deletions_pending",
        "account_deletions",
        ["tenant_id"],
        unique=True,
        postgresql_where=sa.text("status = 'pending'"),
    )


def downgrade() -> None:
    op.drop_table("account_deletions")
    # A tenant that asked to be deleted was suspended by it: it stays suspended.
    op.execute("UPDATE tenants SET status = 'suspended' WHERE status = 'deletion_requested'")
    op.alter_column(
        "tenants",
        "status",
        existing_type=sa.String(length=32),
        type_=sa.String(length=16),
        existing_nullable=False,
        existing_server_default="active",
    )
