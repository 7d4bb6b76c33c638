from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from app.deps import TenantDep, UowDep
from app.models import AuditEvent
from app.pagination import CursorQuery, LimitQuery, Page, page_of, paginate

router = APIRouter(prefix="/v1/audit", tags=["audit"])


class AuditEventOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 1042,
                    "action": "memory.delete",
                    "subject": "acme",
                    "ids": [],
                    "counts": {"lines": 2, "rules": 1, "aliases": 0},
                    "created_at": "2026-11-29T14:00:00Z",
                }
            ]
        }
    )

    id: int
    action: str
    subject: str | None
    ids: list[Any]
    counts: dict[str, int]
    created_at: datetime


@router.get("", response_model=Page[AuditEventOut])
def list_audit(
    tenant: TenantDep, uow: UowDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[AuditEventOut]:
    """What was done to which ids, with counts, newest first."""
    statement = paginate(
        select(AuditEvent).where(AuditEvent.tenant_id == tenant.id), AuditEvent.id, cursor, limit
    )
    rows = list(uow.session.scalars(statement))
    out = [
        AuditEventOut(
            id=r.id,
            action=r.action,
            subject=r.subject,
            ids=r.ids,
            counts=r.counts,
            created_at=r.created_at,
        )
        for r in rows
    ]
    return page_of(out, [r.id for r in rows], limit)
