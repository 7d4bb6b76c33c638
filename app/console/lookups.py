"""Read-only listings the console needs and no domain offered yet: the tenant's end-users with
their fact counts (`GET /v1/users`) and the key's own account with its credit (`GET /v1/account`).

Not billed, like the ledger and audit listings; they read counts and names, never a fact's text.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from app.account import service as account_service
from app.account.schemas import PENDING_EXAMPLE, DeletionOut
from app.console import repository as repo
from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.errors import Invalid
from app.models import Tenant
from app.pagination import CursorQuery

router = APIRouter(route_class=UnitOfWorkRoute, tags=["console"])

_USER = re.compile(r"^[A-Za-z0-9_.@:+-]{1,128}$")


class EndUserSummary(BaseModel):
    user: str
    fact_count: int
    """Every fact held, retired ones included."""
    retired_fact_count: int
    created_at: datetime


class EndUsersPage(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "user": "user-4821",
                            "fact_count": 3,
                            "retired_fact_count": 1,
                            "created_at": "2026-11-29T12:53:38Z",
                        }
                    ],
                    "next_cursor": None,
                }
            ]
        }
    )

    data: list[EndUserSummary]
    next_cursor: str | None


class AccountOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "tenant_id": "3f6c1f0e-8d0a-4c53-9a43-2a1f4f0c9b7e",
                    "name": "acme",
                    "status": "active",
                    "credit": 9.9871,
                    "deletion": None,
                },
                {
                    "tenant_id": "3f6c1f0e-8d0a-4c53-9a43-2a1f4f0c9b7e",
                    "name": "acme",
                    "status": "deletion_requested",
                    "credit": 9.9871,
                    "deletion": PENDING_EXAMPLE,
                },
            ]
        }
    )

    tenant_id: str
    name: str
    status: str
    credit: float
    deletion: DeletionOut | None
    """The pending account deletion request, if the account asked to be deleted."""


@router.get("/v1/users", response_model=EndUsersPage)
def list_users(
    tenant: TenantDep,
    uow: UowDep,
    cursor: CursorQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EndUsersPage:
    """The tenant's end-users by id, with how many facts each holds; `next_cursor` pages on."""
    today = datetime.now(UTC).date()
    if cursor is not None:
        # The cursor is the last id of the previous page: ids are unique per tenant.
        if not _USER.match(cursor):
            raise Invalid("cursor is not one this API gave out", field="cursor")
    rows = repo.users_with_fact_counts(
        uow.session, tenant.id, after=cursor, limit=limit, today=today
    )
    data = [
        EndUserSummary(
            user=name, fact_count=count, retired_fact_count=retired_count, created_at=created_at
        )
        for name, count, retired_count, created_at in rows[:limit]
    ]
    more = len(rows) > limit
    return EndUsersPage(data=data, next_cursor=data[-1].user if more else None)


@router.get("/v1/account", response_model=AccountOut)
def account(tenant: TenantDep, uow: UowDep) -> AccountOut:
    """The tenant this key acts for: its name, status (active, suspended, or
    deletion_requested with its pending `deletion`) and credit."""
    row = uow.session.get(Tenant, tenant.id)
    assert row is not None  # the key was just authenticated against it
    deletion = account_service.describe_pending(uow.session, tenant.id)
    return AccountOut(
        tenant_id=str(row.id),
        name=row.name,
        status=row.status,
        credit=float(row.credit),
        deletion=DeletionOut.model_validate(deletion) if deletion else None,
    )
