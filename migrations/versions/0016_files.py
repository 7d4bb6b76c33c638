"""files: uploads and batch output files in PostgreSQL; batches from a file, OpenAI-shaped

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02

A file's bytes are kept in parts of 1 MiB (`file_parts`, bytea), deleted with their file by
ON DELETE CASCADE and with their tenant. A batch made from a file keeps the endpoint it runs,
the file it was made from, the output and error files it wrote, and when it wrote them.
(0014 is another branch's; the two are chained when they merge.)
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "files",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("purpose", sa.String(length=32), nullable=False),
        sa.Column("filename", sa.Text(), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_files_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_files")),
    )
    op.create_index(op.f("ix_files_tenant_id"), "files", ["tenant_id", "created_at"], unique=False)
    op.create_table(
        "file_parts",
        sa.Column("file_id", sa.String(length=40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["file_id"], ["files.id"], name=op.f("fk_file_parts_file_id_files"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("file_id", "seq", name=op.f("pk_file_parts")),
    )
    op.add_column(
        "batches",
        sa.Column("endpoint", sa.String(length=40), server_default="/v1/systemone", nullable=False),
    )
    op.add_column("batches", sa.Column("input_file_id", sa.String(length=40), nullable=True))
    op.add_column("batches", sa.Column("output_file_id", sa.String(length=40), nullable=True))
    op.add_column("batches", sa.Column("error_file_id", sa.String(length=40), nullable=True))
    op.add_column(
        "batches", sa.Column("outputs_written_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    for column in ("outputs_written_at", "error_file_id", "output_file_id", "input_file_id", "endpoint"):
        op.drop_column("batches", column)
    op.drop_table("file_parts")
    op.drop_index(op.f("ix_files_tenant_id"), table_name="files")
    op.drop_table("files")
