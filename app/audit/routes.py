from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from app.audit import repository as repo
from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.pagination import CursorQuery, LimitQuery, Page, page_of

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/audit", tags=["audit"])


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


ActionQuery = Annotated[
    str | None,
    Query(max_length=64, description="an action, or a prefix ending in '.'", examples=["memory."]),
]
SubjectQuery = Annotated[str | None, Query(max_length=36, examples=["acme"])]


@router.get("", response_model=Page[AuditEventOut])
def list_audit(
    tenant: TenantDep,
    uow: UowDep,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
    action: ActionQuery = None,
    subject: SubjectQuery = None,
) -> Page[AuditEventOut]:
    """What was done to which ids, with counts, newest first; `action` (exact, or a prefix such
    as `memory.`) and `subject` narrow it."""
    rows = repo.events(
        uow.session, tenant.id, action=action, subject=subject, cursor=cursor, limit=limit
    )
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
