"""The tenant's own account deletion (its API key), and the operator's view of the requests
(DOSSIER_ADMIN_TOKEN)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.account import service
from app.account.schemas import DeletionIn, DeletionOut, DeletionsList
from app.deps import AdminDep, NoQueryString, TenantDep, UnitOfWorkRoute, UowDep
from app.tenants.routes import TenantIdPath

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/account", tags=["account"])
admin_router = APIRouter(
    route_class=UnitOfWorkRoute, prefix="/v1/admin", tags=["admin"], dependencies=[AdminDep]
)


@router.post("/deletion", status_code=202, response_model=DeletionOut, dependencies=[NoQueryString])
def request_deletion(body: DeletionIn, tenant: TenantDep, uow: UowDep) -> DeletionOut:
    """Delete this account: `confirm` is its name or tenant id. The account is suspended at once
    (writes answer 403 `deletion_requested`; reads, forget and deletes still work) and erased,
    with a proof, after the grace period (`erase_after`); until then DELETE withdraws it."""
    deletion = service.request(uow.session, tenant, body.confirm)
    return DeletionOut.model_validate(service.describe(uow.session, deletion))


@router.get("/deletion", response_model=DeletionOut)
def get_deletion(tenant: TenantDep, uow: UowDep) -> DeletionOut:
    """This account's latest deletion request: pending (with when it will be erased) or
    withdrawn. 404 when it never asked."""
    deletion = service.latest(uow.session, tenant.id)
    return DeletionOut.model_validate(service.describe(uow.session, deletion))


@router.delete("/deletion", response_model=DeletionOut, dependencies=[NoQueryString])
def withdraw_deletion(tenant: TenantDep, uow: UowDep) -> DeletionOut:
    """Withdraw the pending request during the grace period: the account is active again (still
    suspended if an operator suspended it)."""
    deletion = service.withdraw(uow.session, tenant)
    return DeletionOut.model_validate(service.describe(uow.session, deletion))


@admin_router.get("/account-deletions", response_model=DeletionsList)
def pending_deletions(
    uow: UowDep, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> DeletionsList:
    """Pending account deletion requests, the soonest erased first."""
    rows = service.pending_requests(uow.session, limit)
    return DeletionsList(
        data=[DeletionOut.model_validate(service.describe(uow.session, d)) for d in rows]
    )


@admin_router.post(
    "/tenants/{tenant_id}/deletion/run",
    status_code=202,
    response_model=DeletionOut,
    dependencies=[NoQueryString],
)
def run_deletion(tenant_id: TenantIdPath, uow: UowDep) -> DeletionOut:
    """Start a tenant's requested erasure now, before its grace period ends (or again, after
    its erasure failed). The erasure job (`erasure_id`) runs on the erasure queue."""
    deletion = service.run_now(uow.session, uow.jobs, tenant_id)
    return DeletionOut.model_validate(service.describe(uow.session, deletion))
