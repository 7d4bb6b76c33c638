"""Tables of files: one row per file, its bytes in parts of `PART_BYTES` (bytea), so a download
reads one part at a time and no row is larger than a part."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now

PART_BYTES = 1024 * 1024


class File(Base):
    __tablename__ = "files"
    __table_args__ = (Index(None, "tenant_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    purpose: Mapped[str] = mapped_column(String(32))
    """batch (uploaded) or batch_output (a batch's output or error file)."""
    filename: Mapped[str] = mapped_column(Text)
    bytes: Mapped[int] = mapped_column(BigInteger)
    lines: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = _now()


class FilePart(Base):
    __tablename__ = "file_parts"

    file_id: Mapped[str] = mapped_column(
        ForeignKey("files.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
