"""Tables of batches: one row per batch, one per item with its result (a unique key, so a chunk
that runs twice writes each result once)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class Batch(Base):
    __tablename__ = "batches"
    __table_args__ = (Index(None, "tenant_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16))
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONB)
    completion_window: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    errors: Mapped[list[Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = _now()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    in_progress_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finalizing_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelling_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A batch made from an uploaded file (`POST /v1/batches {input_file_id, endpoint}`), and
    # the files it writes once it ends; all None for a batch sent as JSON or JSONL.
    endpoint: Mapped[str] = mapped_column(
        String(40), default="/v1/systemone", server_default="/v1/systemone"
    )
    input_file_id: Mapped[str | None] = mapped_column(String(40))
    output_file_id: Mapped[str | None] = mapped_column(String(40))
    error_file_id: Mapped[str | None] = mapped_column(String(40))
    outputs_written_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class BatchItem(Base):
    __tablename__ = "batch_items"
    __table_args__ = (
        UniqueConstraint("batch_id", "line"),
        Index(None, "batch_id", "status"),
        Index(None, "tenant_id", "subject"),
        Index("ix_batch_items_tenant_id_end_user", "tenant_id", "end_user"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"))
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    line: Mapped[int] = mapped_column(Integer)
    custom_id: Mapped[str | None] = mapped_column(Text)
    subject: Mapped[str | None] = mapped_column(String(36))
    end_user: Mapped[str | None] = mapped_column(String(200))
    """The end-user a chat-completion request names (`user`): erasing them takes the item."""
    body: Mapped[Any] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
