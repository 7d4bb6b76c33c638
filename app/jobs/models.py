"""The outbox: a job is a row, written in the transaction of the change that needs it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text, func
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base


class OutboxJob(Base):
    """A task not yet handed to the broker. The relay deletes the row once the broker has it;
    a row that stays (broker down, process killed between commit and send) is sent again by the
    sweep. Its id is the Celery task id, so a job sent twice is recognisable as one.
    """

    __tablename__ = "outbox_jobs"
    __table_args__ = (Index(None, "due_at"),)

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    task: Mapped[str] = mapped_column(String(100))
    args: Mapped[list[Any]] = mapped_column(JSON)
    headers: Mapped[dict[str, str] | None] = mapped_column(JSON)
    due_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), nullable=False
    )
    """Not sent before this time: how a job is delayed without the broker's ETA."""
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), nullable=False
    )
