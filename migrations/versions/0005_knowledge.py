"""end-user knowledge: settings, end-users, facts, extraction batches, collections, documents

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table("collections",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("slug", sa.String(length=64), nullable=False),
    sa.Column("name", sa.String(length=200), nullable=False),
    sa.Column("version", sa.BigInteger(), server_default="0", nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_collections_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_collections")),
    sa.UniqueConstraint("tenant_id", "slug", name=op.f("uq_collections_tenant_id_slug"))
    )
    op.create_table("end_users",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("name", sa.String(length=128), nullable=False),
    sa.Column("version", sa.BigInteger(), server_default="0", nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_end_users_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_end_users")),
    sa.UniqueConstraint("tenant_id", "name", name=op.f("uq_end_users_tenant_id_name"))
    )
    op.create_table("knowledge_settings",
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("enabled", sa.Boolean(), server_default="false", nullable=False),
    sa.Column("storage_metered_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_knowledge_settings_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_knowledge_settings"))
    )
    op.create_table("documents",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("collection_id", sa.BigInteger(), nullable=False),
    sa.Column("title", sa.String(length=300), nullable=False),
    sa.Column("source", sa.String(length=300), nullable=True),
    sa.Column("filename", sa.String(length=300), nullable=True),
    sa.Column("media_type", sa.String(length=16), nullable=False),
    sa.Column("status", sa.String(length=12), server_default="processing", nullable=False),
    sa.Column("error", sa.Text(), nullable=True),
    sa.Column("size_bytes", sa.Integer(), nullable=False),
    sa.Column("tokens", sa.Integer(), server_default="0", nullable=False),
    sa.Column("raw", sa.LargeBinary(), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(["collection_id"], ["collections.id"], name=op.f("fk_documents_collection_id_collections"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_documents_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_documents"))
    )
    op.create_index(op.f("ix_documents_collection_id"), "documents", ["collection_id", "id"], unique=False)
    op.create_index(op.f("ix_documents_tenant_id"), "documents", ["tenant_id"], unique=False)
    op.create_table("extraction_batches",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("end_user_id", sa.BigInteger(), nullable=False),
    sa.Column("thread", sa.String(length=200), server_default="", nullable=False),
    sa.Column("status", sa.String(length=12), server_default="pending", nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("turns", sa.Integer(), server_default="0", nullable=False),
    sa.Column("extractor", sa.String(length=60), nullable=True),
    sa.Column("error", sa.String(length=200), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(["end_user_id"], ["end_users.id"], name=op.f("fk_extraction_batches_end_user_id_end_users"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_extraction_batches_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_extraction_batches"))
    )
    op.create_index(op.f("ix_extraction_batches_end_user_id"), "extraction_batches", ["end_user_id", "thread", "status"], unique=False)
    op.create_index(op.f("ix_extraction_batches_status"), "extraction_batches", ["status", "due_at"], unique=False)
    op.create_index(op.f("ix_extraction_batches_tenant_id"), "extraction_batches", ["tenant_id"], unique=False)
    op.create_table("document_chunks",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("document_id", sa.BigInteger(), nullable=False),
    sa.Column("collection_id", sa.BigInteger(), nullable=False),
    sa.Column("position", sa.Integer(), nullable=False),
    sa.Column("text", sa.Text(), nullable=False),
    sa.Column("tokens", sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(["collection_id"], ["collections.id"], name=op.f("fk_document_chunks_collection_id_collections"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["document_id"], ["documents.id"], name=op.f("fk_document_chunks_document_id_documents"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_document_chunks")),
    sa.UniqueConstraint("document_id", "position", name=op.f("uq_document_chunks_document_id_position"))
    )
    op.create_index(op.f("ix_document_chunks_collection_id"), "document_chunks", ["collection_id", "id"], unique=False)
    op.create_table("extraction_turns",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("batch_id", sa.BigInteger(), nullable=False),
    sa.Column("end_user_id", sa.BigInteger(), nullable=False),
    sa.Column("text", sa.Text(), nullable=False),
    sa.Column("digest", sa.String(length=64), nullable=False),
    sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(["batch_id"], ["extraction_batches.id"], name=op.f("fk_extraction_turns_batch_id_extraction_batches"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["end_user_id"], ["end_users.id"], name=op.f("fk_extraction_turns_end_user_id_end_users"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_extraction_turns")),
    sa.UniqueConstraint("batch_id", "digest", name=op.f("uq_extraction_turns_batch_id_digest"))
    )
    op.create_index(op.f("ix_extraction_turns_end_user_id"), "extraction_turns", ["end_user_id"], unique=False)
    op.create_table("facts",
    sa.Column("id", sa.BigInteger(), nullable=False),
    sa.Column("tenant_id", sa.UUID(), nullable=False),
    sa.Column("end_user_id", sa.BigInteger(), nullable=False),
    sa.Column("kind", sa.String(length=8), nullable=False),
    sa.Column("slot", sa.String(length=120), nullable=True),
    sa.Column("value", sa.Text(), nullable=True),
    sa.Column("text", sa.Text(), nullable=False),
    sa.Column("status", sa.String(length=8), server_default="active", nullable=False),
    sa.Column("valid_from", sa.Date(), nullable=True),
    sa.Column("valid_until", sa.Date(), nullable=True),
    sa.Column("happened_on", sa.Date(), nullable=True),
    sa.Column("said_on", sa.Date(), nullable=True),
    sa.Column("retired_on", sa.Date(), nullable=True),
    sa.Column("retired_by", sa.BigInteger(), nullable=True),
    sa.Column("batch_id", sa.BigInteger(), nullable=True),
    sa.Column("source", sa.String(length=16), server_default="extracted", nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    sa.ForeignKeyConstraint(["batch_id"], ["extraction_batches.id"], name=op.f("fk_facts_batch_id_extraction_batches"), ondelete="SET NULL"),
    sa.ForeignKeyConstraint(["end_user_id"], ["end_users.id"], name=op.f("fk_facts_end_user_id_end_users"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_facts_tenant_id_tenants"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_facts"))
    )
    op.create_index(op.f("ix_facts_batch_id"), "facts", ["batch_id"], unique=False)
    op.create_index(op.f("ix_facts_end_user_id"), "facts", ["end_user_id", "status"], unique=False)
    op.create_index(op.f("ix_facts_tenant_id"), "facts", ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_facts_tenant_id"), table_name="facts")
    op.drop_index(op.f("ix_facts_end_user_id"), table_name="facts")
    op.drop_index(op.f("ix_facts_batch_id"), table_name="facts")
    op.drop_table("facts")
    op.drop_index(op.f("ix_extraction_turns_end_user_id"), table_name="extraction_turns")
    op.drop_table("extraction_turns")
    op.drop_index(op.f("ix_document_chunks_collection_id"), table_name="document_chunks")
    op.drop_table("document_chunks")
    op.drop_index(op.f("ix_extraction_batches_tenant_id"), table_name="extraction_batches")
    op.drop_index(op.f("ix_extraction_batches_status"), table_name="extraction_batches")
    op.drop_index(op.f("ix_extraction_batches_end_user_id"), table_name="extraction_batches")
    op.drop_table("extraction_batches")
    op.drop_index(op.f("ix_documents_tenant_id"), table_name="documents")
    op.drop_index(op.f("ix_documents_collection_id"), table_name="documents")
    op.drop_table("documents")
    op.drop_table("knowledge_settings")
    op.drop_table("end_users")
    op.drop_table("collections")
