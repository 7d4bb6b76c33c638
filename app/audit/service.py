"""The audit log: ids and counts only, never the text of a line, rule, fact or prompt."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.models import AuditEvent
from app.tenants.service import CurrentTenant


def record(
    session: Session,
    tenant: CurrentTenant,
    action: str,
    *,
    subject: str | None = None,
    ids: list[Any] | None = None,
    counts: dict[str, int] | None = None,
) -> None:
    session.add(
        AuditEvent(
            tenant_id=tenant.id,
            action=action,
            subject=subject,
            ids=list(ids or []),
            counts=dict(counts or {}),
        )
    )
