"""outbox of jobs not yet sent to the broker

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox_jobs",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("task", sa.String(length=100), nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=True),
        sa.Column(
            "due_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_jobs")),
    )
    op.create_index(op.f("ix_outbox_jobs_due_at"), "outbox_jobs", ["due_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_outbox_jobs_due_at"), table_name="outbox_jobs")
    op.drop_table("outbox_jobs")
