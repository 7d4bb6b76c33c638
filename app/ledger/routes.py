from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.models import LedgerLine
from app.pagination import CursorQuery, LimitQuery, Page, page_of, paginate

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/ledger", tags=["ledger"])


class LedgerLineOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 1042,
                    "route": "memory.remember",
                    "subject": "acme",
                    "units": 2,
                    "cost": 0.0002,
                    "billed": True,
                    "created_at": "2026-11-29T14:00:00Z",
                }
            ]
        }
    )

    id: int
    route: str
    subject: str | None
    units: int
    cost: float
    billed: bool
    created_at: datetime


@router.get("", response_model=Page[LedgerLineOut])
def list_ledger(
    tenant: TenantDep, uow: UowDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[LedgerLineOut]:
    """The tenant's priced requests, newest first."""
    statement = paginate(
        select(LedgerLine).where(LedgerLine.tenant_id == tenant.id), LedgerLine.id, cursor, limit
    )
    rows = list(uow.session.scalars(statement))
    out = [
        LedgerLineOut(
            id=r.id,
            route=r.route,
            subject=r.subject,
            units=r.units,
            cost=float(r.cost),
            billed=r.billed,
            created_at=r.created_at,
        )
        for r in rows
    ]
    return page_of(out, [r.id for r in rows], limit)
