"""The first answer to each idempotency key, kept for a day."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class IdempotentAnswer(Base):
    """One key of one tenant: which request it named (`fingerprint`: method, route and body)
    and the answer it got, written in the same transaction as the request's work, so a retry
    finds either both or neither. `subject` / `end_user` name whose data the answer may hold,
    so forgetting them takes their stored answers too."""

    __tablename__ = "idempotent_answers"
    __table_args__ = (
        Index("ix_idempotent_answers_tenant_id_subject", "tenant_id", "subject"),
        Index("ix_idempotent_answers_tenant_id_end_user", "tenant_id", "end_user"),
        Index(None, "created_at"),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    route: Mapped[str] = mapped_column(String(200))
    subject: Mapped[str | None] = mapped_column(String(36))
    end_user: Mapped[str | None] = mapped_column(String(200))
    status_code: Mapped[int | None] = mapped_column(Integer)
    body: Mapped[Any] = mapped_column(JSON, nullable=True)
    """JSON, not JSONB: the answer is sent again with its keys in their first order."""
    created_at: Mapped[datetime] = _now()
