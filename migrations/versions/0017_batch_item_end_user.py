"""batch items name their end-user: a chat-completion request's `user`, so erasing the
end-user takes their requests and answers out of batches

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("batch_items", sa.Column("end_user", sa.String(length=200), nullable=True))
    op.execute(
        "UPDATE batch_items SET end_user = body -> 'body' ->> 'user' "
        "WHERE jsonb_typeof(body -> 'body' -> 'user') = 'string' "
        "AND length(body -> 'body' ->> 'user') <= 200"
    )
    op.create_index(
        "ix_batch_items_tenant_id_end_user", "batch_items", ["tenant_id", "end_user"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_batch_items_tenant_id_end_user", table_name="batch_items")
    op.drop_column("batch_items", "end_user")
