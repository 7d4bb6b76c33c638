"""idempotent answers: the first answer to each Idempotency-Key of a tenant, kept for a day

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-30

Written in the same transaction as the request's work, so a retry finds the work and its answer
together or neither. `subject` and `end_user` say whose data an answer may quote, so forgetting
them takes the answer too.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "idempotent_answers",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("route", sa.String(length=200), nullable=False),
        sa.Column("subject", sa.String(length=36), nullable=True),
        sa.Column("end_user", sa.String(length=200), nullable=True),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_idempotent_answers_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", "key", name=op.f("pk_idempotent_answers")),
    )
    op.create_index(
        op.f("ix_idempotent_answers_tenant_id_subject"),
        "idempotent_answers",
        ["tenant_id", "subject"],
        unique=False,
    )
    op.create_index(
        op.f("ix_idempotent_answers_tenant_id_end_user"),
        "idempotent_answers",
        ["tenant_id", "end_user"],
        unique=False,
    )
    op.create_index(
        op.f("ix_idempotent_answers_created_at"), "idempotent_answers", ["created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_table("idempotent_answers")
