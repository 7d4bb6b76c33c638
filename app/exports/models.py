"""An export job: how far it got, what it wrote, and where its archive is."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class Export(Base):
    """queued → running (one section's page per step, `progress` holding the cursor) →
    completed (the archive `file`, under the export folder, until `expires_at`) → expired
    (the sweep removed the file); or failed. `counts` holds rows per archive file, never text."""

    __tablename__ = "exports"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(16), default="queued", server_default="queued")
    progress: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    counts: Mapped[dict[str, int] | None] = mapped_column(JSON)
    file: Mapped[str | None] = mapped_column(String(200))
    """The archive's name in the export folder (not a path: the folder is a setting)."""
    size_bytes: Mapped[int | None] = mapped_column(BigInteger)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _now()
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
