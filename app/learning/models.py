"""A decision's request waiting for the gate, and what the gate decided."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class LearningRequest(Base):
    """Holds the request's state (what the gate reads), never the engine's answer: the gate
    counts only what the request states. Goes with its subject."""

    __tablename__ = "learning_requests"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    subject_id: Mapped[int] = mapped_column(
        ForeignKey("subjects.id", ondelete="CASCADE"), index=True
    )
    state: Mapped[Any] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="queued", server_default="queued")
    probability: Mapped[float | None] = mapped_column(Float)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GateSetting(Base):
    """A tenant's gate: its wording and threshold (defaults in app.learning.gate)."""

    __tablename__ = "gate_settings"

    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    instructions: Mapped[str | None] = mapped_column(String(2000))
    true_criterion: Mapped[str | None] = mapped_column(String(2000))
    false_criterion: Mapped[str | None] = mapped_column(String(2000))
    threshold: Mapped[float] = mapped_column(Float, default=0.5, server_default="0.5")
