"""SQL of the audit log."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AuditEvent
from app.pagination import paginate


def events(
    session: Session,
    tenant_id: uuid.UUID,
    *,
    action: str | None,
    subject: str | None,
    cursor: str | None,
    limit: int,
) -> list[AuditEvent]:
    """Newest first, one more than `limit`; `action` is exact, or a prefix when it ends in '.'
    (matched literally: '%' and '_' in it are no wildcards)."""
    query = select(AuditEvent).where(AuditEvent.tenant_id == tenant_id)
    if action:
        query = query.where(
            AuditEvent.action.startswith(action, autoescape=True)
            if action.endswith(".")
            else AuditEvent.action == action
        )
    if subject:
        query = query.where(AuditEvent.subject == subject)
    return list(session.scalars(paginate(query, AuditEvent.id, cursor, limit)))
