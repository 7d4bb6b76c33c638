"""SQL of a tenant's quality setting (two columns of its row)."""

from __future__ import annotations

import uuid

from sqlalchemy import Row, select, update
from sqlalchemy.orm import Session

from app.models import Tenant


def quality_row(session: Session, tenant_id: uuid.UUID) -> Row[str, float] | None:
    """The tenant's `quality` and `temperature` (None when there is no such tenant)."""
    return session.execute(
        select(Tenant.quality, Tenant.temperature).where(Tenant.id == tenant_id)
    ).first()


def set_quality(session: Session, tenant_id: uuid.UUID, level: str, temperature: float) -> None:
    session.execute(
        update(Tenant).where(Tenant.id == tenant_id).values(quality=level, temperature=temperature)
    )
