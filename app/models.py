"""The tables. Alembic migrations create them; tests prove the two agree."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Money = Numeric(18, 6)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _now() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), server_default=func.now(), nullable=False)


class Tenant(Base):
    __tablename__ = "tenants"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(32), default="active", server_default="active")
    """active, suspended (by an operator), deletion_requested (by the tenant: app.account),
    erasing or erased."""
    credit: Mapped[Decimal] = mapped_column(Money, default=Decimal(0), server_default="0")
    quality: Mapped[str] = mapped_column(String(16), default="fast", server_default="fast")
    """fast, balanced or best (see app.quality.tiers)."""
    temperature: Mapped[float] = mapped_column(Float, default=1.0, server_default="1")
    """Applied alike to every answer and every pass of the tenant's decisions."""
    created_at: Mapped[datetime] = _now()


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = _now()
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Subject(Base):
    """One subject of one tenant; `version` moves on every write so caches keyed by it never
    serve an old memory."""

    __tablename__ = "subjects"
    __table_args__ = (UniqueConstraint("tenant_id", "name"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(36))
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    line_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_position: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_at: Mapped[datetime] = _now()
    touched_at: Mapped[datetime] = _now()


class Line(Base):
    __tablename__ = "lines"
    __table_args__ = (UniqueConstraint("subject_id", "position"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("subjects.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _now()
    learned_request_id: Mapped[str | None] = mapped_column(String(40))
    """The decision this line was learned from (learned memory); None for a remembered line."""
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When a newer learned line replaced it: kept, listed, never recalled again."""
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    """The line's vector (app.embeddings), float16; None until one is made."""
    embedding_model: Mapped[str | None] = mapped_column(String(120))


class Rule(Base):
    __tablename__ = "rules"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    subject_id: Mapped[int] = mapped_column(
        ForeignKey("subjects.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(Text)
    pin: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    exclude: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    when: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = _now()


class Alias(Base):
    __tablename__ = "aliases"
    __table_args__ = (UniqueConstraint("subject_id", "alias"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("subjects.id", ondelete="CASCADE"))
    alias: Mapped[str] = mapped_column(String(200))


class LedgerLine(Base):
    """One priced request (or a free chat call under a thread). Keeps the subject id by design
    (see the memory seed)."""

    __tablename__ = "ledger_lines"
    __table_args__ = (
        Index(None, "tenant_id", "id"),
        Index(
            "ix_ledger_lines_tenant_id_thread",
            "tenant_id",
            "thread",
            "id",
            postgresql_where=sql_text("thread IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    route: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str | None] = mapped_column(String(36))
    thread: Mapped[str | None] = mapped_column(String(200))
    """The chat body's `thread`, the conversation the call belongs to: an id, never text."""
    units: Mapped[int] = mapped_column(Integer)
    cost: Mapped[Decimal] = mapped_column(Money)
    billed: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = _now()


class AuditEvent(Base):
    """Who did what to which ids, with counts: never the content of a line, rule or prompt."""

    __tablename__ = "audit_events"
    __table_args__ = (Index(None, "tenant_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str | None] = mapped_column(String(36))
    ids: Mapped[list[Any]] = mapped_column(JSONB, default=list, server_default="[]")
    counts: Mapped[dict[str, int]] = mapped_column(JSONB, default=dict, server_default="{}")
    created_at: Mapped[datetime] = _now()


class PassJob(Base):
    """The compare / explain / placebo passes of one decision, run on the passes queue.

    It holds what the passes need (the plan: the state, the placed lines, the rules' exclusions;
    and the answer they are measured against), so the worker recomputes nothing from a memory
    that may have changed since. It goes with its subject when the subject is deleted.

    `json`, not `jsonb`: jsonb reorders an object's keys, and the order of a state's fields and
    of a question's options is part of what the engine was asked (it breaks ties, too).
    """

    __tablename__ = "pass_jobs"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    subject_id: Mapped[int | None] = mapped_column(
        ForeignKey("subjects.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(16), default="queued", server_default="queued")
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    baseline: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
