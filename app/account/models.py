"""A tenant's request to delete its own account: pending through the grace period, then answered
by a whole-tenant erasure job (app.erasure), or withdrawn."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class AccountDeletion(Base):
    """pending (the tenant is `deletion_requested`: it reads, forgets and deletes, and writes
    nothing) → started (`erasure_id` is the erasure job, whose proof answers the request), or
    pending → withdrawn by the tenant. One pending request per tenant."""

    __tablename__ = "account_deletions"
    __table_args__ = (
        Index(
            "uq_account_deletions_pending",
            "tenant_id",
            unique=True,
            postgresql_where=text("status = 'pending'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    requested_at: Mapped[datetime] = _now()
    erase_after: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    """The end of the grace period: the first sweep after it starts the erasure."""
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_by: Mapped[str | None] = mapped_column(String(16))
    """`schedule` (the sweep, once the grace period ended) or `operator` (run at once)."""
    erasure_id: Mapped[str | None] = mapped_column(
        ForeignKey("erasure_jobs.id", ondelete="SET NULL")
    )
