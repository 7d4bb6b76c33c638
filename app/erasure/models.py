"""An erasure job: what to erase, how far it got, and the proof."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class ErasureJob(Base):
    """`targets` holds the ids resolved when the job started, so a job resumed by another
    worker erases the same things; `samples` holds a few of the erased texts for the residue
    scan while the job runs, and is emptied when it finishes."""

    __tablename__ = "erasure_jobs"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    scope: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="queued", server_default="queued")
    targets: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    samples: Mapped[list[str] | None] = mapped_column(JSON)
    before: Mapped[dict[str, int] | None] = mapped_column(JSON)
    progress: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    proof: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _now()
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RetentionSetting(Base):
    """A tenant's retention period: subjects and end-users untouched that long are erased."""

    __tablename__ = "retention_settings"

    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    days: Mapped[int] = mapped_column()
