"""Tables of end-user facts: end-users, their facts and events, the turns waiting for
extraction in batches, and history imports.

Everything personal hangs off `end_users` with ON DELETE CASCADE, so erasing an end-user is one
DELETE that takes their facts, their pending turns and their extraction batches with it.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Date,
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


class EndUser(Base):
    """One end-user of one tenant (the chat body's `user`). `version` moves on every change to
    their facts, so a cached recall index of them is never stale."""

    __tablename__ = "end_users"
    __table_args__ = (UniqueConstraint("tenant_id", "name"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(128))
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_at: Mapped[datetime] = _now()


class ExtractionBatch(Base):
    """A user's turns of one thread, extracted together once `due_at` has come."""

    __tablename__ = "extraction_batches"
    __table_args__ = (
        Index(None, "end_user_id", "thread", "status"),
        Index(None, "status", "due_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    end_user_id: Mapped[int] = mapped_column(ForeignKey("end_users.id", ondelete="CASCADE"))
    thread: Mapped[str] = mapped_column(String(200), default="", server_default="")
    status: Mapped[str] = mapped_column(String(12), default="pending", server_default="pending")
    """pending, done, failed or skipped."""
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    turns: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    extractor: Mapped[str | None] = mapped_column(String(60))
    error: Mapped[str | None] = mapped_column(String(200))
    import_id: Mapped[str | None] = mapped_column(
        ForeignKey("history_imports.id", ondelete="CASCADE"), index=True
    )
    """The history import this batch belongs to; None for turns from chat completions."""
    created_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class HistoryImport(Base):
    """An end-user's past conversations, imported with each turn's own date: extracted batch
    by batch, oldest first, by one job on the extraction queue."""

    __tablename__ = "history_imports"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    end_user_id: Mapped[int] = mapped_column(
        ForeignKey("end_users.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(12), default="queued", server_default="queued")
    """queued, running, done or failed."""
    turns: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    error: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ExtractionTurn(Base):
    """One user message waiting for extraction (kept `extraction_keep_days` after it, for
    re-extraction; never replayed into a call)."""

    __tablename__ = "extraction_turns"
    __table_args__ = (UniqueConstraint("batch_id", "digest"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("extraction_batches.id", ondelete="CASCADE"))
    end_user_id: Mapped[int] = mapped_column(
        ForeignKey("end_users.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(Text)
    digest: Mapped[str] = mapped_column(String(64))
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Fact(Base):
    """A durable fact (`kind` fact) or a dated event (`kind` event) about one end-user.

    A fact holds from `valid_from` (when set) and until the day before `valid_until` (when
    set). A retired fact keeps `retired_on`, the first day it no longer held; it is never
    retrieved and still exported. Events never retire. A forgotten fact is deleted.
    """

    __tablename__ = "facts"
    __table_args__ = (Index(None, "end_user_id", "status"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    end_user_id: Mapped[int] = mapped_column(ForeignKey("end_users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))
    slot: Mapped[str | None] = mapped_column(String(120))
    value: Mapped[str | None] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(8), default="active", server_default="active")
    valid_from: Mapped[date | None] = mapped_column(Date)
    valid_until: Mapped[date | None] = mapped_column(Date)
    happened_on: Mapped[date | None] = mapped_column(Date)
    said_on: Mapped[date | None] = mapped_column(Date)
    retired_on: Mapped[date | None] = mapped_column(Date)
    retired_by: Mapped[int | None] = mapped_column(BigInteger)
    batch_id: Mapped[int | None] = mapped_column(
        ForeignKey("extraction_batches.id", ondelete="SET NULL"), index=True
    )
    source: Mapped[str] = mapped_column(String(16), default="extracted", server_default="extracted")
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    """The fact text's vector (app.embeddings), float16; None until one is made."""
    embedding_model: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime] = _now()
    updated_at: Mapped[datetime] = _now()


def fact_status(fact: Fact, today: date) -> str:
    """A fact's status on `today`: retired (retired, or its end day has come), upcoming (its
    start day is still to come) or active. Here beside the table, as the rule the docstring of
    `Fact` states, so the graph, the services and exports read it from one place."""
    if fact.status == "retired" or (fact.valid_until is not None and fact.valid_until <= today):
        return "retired"
    if fact.valid_from is not None and fact.valid_from > today:
        return "upcoming"
    return "active"
