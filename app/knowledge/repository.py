"""SQL of the knowledge switch (the table facts and documents share) and of the tenant a
worker acts for. No business rules here: those live in the services."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from app.knowledge.models import KnowledgeSettings
from app.models import Tenant
from app.tenants.service import CurrentTenant


def settings_row(
    session: Session, tenant_id: uuid.UUID, *, lock: bool = False
) -> KnowledgeSettings:
    session.execute(
        pg_insert(KnowledgeSettings)
        .values(tenant_id=tenant_id)
        .on_conflict_do_nothing(index_elements=[KnowledgeSettings.tenant_id])
    )
    statement = select(KnowledgeSettings).where(KnowledgeSettings.tenant_id == tenant_id)
    if lock:
        statement = statement.with_for_update()
    row = session.scalars(statement).one()
    return row


def is_enabled(session: Session, tenant_id: uuid.UUID) -> bool:
    return bool(
        session.scalar(
            select(KnowledgeSettings.enabled).where(KnowledgeSettings.tenant_id == tenant_id)
        )
    )


def tenant_of(session: Session, tenant_id: uuid.UUID) -> CurrentTenant:
    """The tenant a worker's job acts for, with its status (a tenant gone reads suspended)."""
    status = session.scalar(select(Tenant.status).where(Tenant.id == tenant_id))
    return CurrentTenant(id=tenant_id, status=status or "suspended")
