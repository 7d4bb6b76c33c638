"""Tables of documents: collections, their documents, and the chunks retrieval ranks.

A collection's documents and chunks go with it (ON DELETE CASCADE), so deleting a collection is
one DELETE.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class Collection(Base):
    """A walled-off set of documents; the slug is fixed at creation. `version` moves whenever
    its ready content changes."""

    __tablename__ = "collections"
    __table_args__ = (UniqueConstraint("tenant_id", "slug"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    slug: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_at: Mapped[datetime] = _now()


class Document(Base):
    __tablename__ = "documents"
    __table_args__ = (Index(None, "collection_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    collection_id: Mapped[int] = mapped_column(ForeignKey("collections.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(300))
    source: Mapped[str | None] = mapped_column(String(300))
    filename: Mapped[str | None] = mapped_column(String(300))
    media_type: Mapped[str] = mapped_column(String(16))
    """text, markdown or pdf."""
    status: Mapped[str] = mapped_column(
        String(12), default="processing", server_default="processing"
    )
    error: Mapped[str | None] = mapped_column(Text)
    size_bytes: Mapped[int] = mapped_column(Integer)
    tokens: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    raw: Mapped[bytes | None] = mapped_column(LargeBinary)
    """The upload until it has been read; emptied once the document is ready or failed."""
    created_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DocumentChunk(Base):
    __tablename__ = "document_chunks"
    __table_args__ = (
        UniqueConstraint("document_id", "position"),
        Index(None, "collection_id", "id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    collection_id: Mapped[int] = mapped_column(ForeignKey("collections.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    tokens: Mapped[int] = mapped_column(Integer)
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    """The chunk's vector (app.embeddings), float16; None until one is made."""
    embedding_model: Mapped[str | None] = mapped_column(String(120))
