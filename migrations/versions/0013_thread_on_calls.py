"""threads on calls: the conversation a chat completion belongs to, on its ledger line

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01

`thread` is the id the client sent in the chat body (never a message's text). The index serves
the Activity view: one tenant's lines of one thread, newest first, and its per-thread summary.
Most lines have no thread, so the index holds only those that do.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("ledger_lines", sa.Column("thread", sa.String(length=200), nullable=True))
    op.create_index(
        "ix_ledger_lines_tenant_id_thread",
        "ledger_lines",
        ["tenant_id", "thread", "id"],
        unique=False,
        postgresql_where=sa.text("thread IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_ledger_lines_tenant_id_thread", table_name="ledger_lines")
    op.drop_column("ledger_lines", "thread")
