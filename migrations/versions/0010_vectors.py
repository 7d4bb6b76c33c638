"""vectors beside lines, facts and document chunks

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30

Each row that recall or knowledge search reads gets its embedding (float16 bytes) and the name
of the model that made it. Rows written before this revision have none; the `embeddings`
queue fills them in (app.embeddings.refresh), and recall uses words alone for them meanwhile.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("lines", "facts", "document_chunks")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("embedding", sa.LargeBinary(), nullable=True))
        op.add_column(table, sa.Column("embedding_model", sa.String(length=120), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        op.drop_column(table, "embedding_model")
        op.drop_column(table, "embedding")
