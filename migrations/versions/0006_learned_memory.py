"""learned memory: learned and retired lines, learning requests, the gate's setting

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("lines", sa.Column("learned_request_id", sa.String(length=40), nullable=True))
    op.add_column("lines", sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "learning_requests",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("subject_id", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="queued", nullable=False),
        sa.Column("probability", sa.Float(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["subject_id"],
            ["subjects.id"],
            name=op.f("fk_learning_requests_subject_id_subjects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_learning_requests_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_learning_requests")),
    )
    op.create_index(
        op.f("ix_learning_requests_subject_id"), "learning_requests", ["subject_id"], unique=False
    )
    op.create_index(
        op.f("ix_learning_requests_tenant_id"), "learning_requests", ["tenant_id"], unique=False
    )
    op.create_table(
        "gate_settings",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("instructions", sa.String(length=2000), nullable=True),
        sa.Column("true_criterion", sa.String(length=2000), nullable=True),
        sa.Column("false_criterion", sa.String(length=2000), nullable=True),
        sa.Column("threshold", sa.Float(), server_default="0.5", nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_gate_settings_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_gate_settings")),
    )


def downgrade() -> None:
    op.drop_table("gate_settings")
    op.drop_index(op.f("ix_learning_requests_tenant_id"), table_name="learning_requests")
    op.drop_index(op.f("ix_learning_requests_subject_id"), table_name="learning_requests")
    op.drop_table("learning_requests")
    op.drop_column("lines", "retired_at")
    op.drop_column("lines", "learned_request_id")
