"""history imports: an end-user's past conversations, extracted with their own dates

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30

An import is a job over extraction batches made from dated turns; its batches point at it, so
its progress is a count of their statuses. Erasing the end-user takes the import with them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "history_imports",
        sa.Column("id", sa.String(length=40), primary_key=True),
        sa.Column(
            "tenant_id",
            sa.Uuid(),
            sa.ForeignKey("tenants.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "end_user_id",
            sa.BigInteger(),
            sa.ForeignKey("end_users.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("status", sa.String(length=12), nullable=False, server_default="queued"),
        sa.Column("turns", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.add_column(
        "extraction_batches",
        sa.Column(
            "import_id",
            sa.String(length=40),
            sa.ForeignKey("history_imports.id", ondelete="CASCADE"),
            nullable=True,
        ),
    )
    op.create_index(
        op.f("ix_extraction_batches_import_id"), "extraction_batches", ["import_id"], unique=False
    )


def downgrade() -> None:
    op.drop_column("extraction_batches", "import_id")
    op.drop_table("history_imports")
