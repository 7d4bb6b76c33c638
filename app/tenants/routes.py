"""Admin routes (DOSSIER_ADMIN_TOKEN): tenants, keys, credit, suspension."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Path
from sqlalchemy.orm import Session

from app.account import service as account
from app.account.schemas import TENANT_ID
from app.deps import AdminDep, UnitOfWorkRoute, UowDep
from app.models import Tenant
from app.settings import get_settings
from app.tenants import service
from app.tenants.schemas import (
    KEY_ID,
    CreditIn,
    KeyCreated,
    StatusIn,
    TenantCreated,
    TenantIn,
    TenantOut,
)

router = APIRouter(
    route_class=UnitOfWorkRoute, prefix="/v1/admin", tags=["admin"], dependencies=[AdminDep]
)

TenantIdPath = Annotated[uuid.UUID, Path(examples=[TENANT_ID])]
KeyIdPath = Annotated[uuid.UUID, Path(examples=[KEY_ID])]


@router.post("/tenants", response_model=TenantCreated, status_code=201)
def create_tenant(body: TenantIn, uow: UowDep) -> TenantCreated:
    """Create a tenant and its first API key (shown once)."""
    credit = body.credit if body.credit is not None else get_settings().initial_credit
    tenant, key = service.create_tenant(uow.session, body.name, credit)
    return TenantCreated(tenant_id=tenant.id, api_key=key.api_key, key_id=key.key_id)


@router.get("/tenants/{tenant_id}", response_model=TenantOut)
def get_tenant(tenant_id: TenantIdPath, uow: UowDep) -> TenantOut:
    """The tenant, with its latest account deletion request if it made one."""
    return _out(uow.session, service.get_tenant(uow.session, tenant_id))


@router.post("/tenants/{tenant_id}/keys", response_model=KeyCreated, status_code=201)
def new_key(tenant_id: TenantIdPath, uow: UowDep) -> KeyCreated:
    """Issue another API key for the tenant (shown once)."""
    key = service.issue_key(uow.session, tenant_id)
    return KeyCreated(tenant_id=tenant_id, api_key=key.api_key, key_id=key.key_id)


@router.post("/tenants/{tenant_id}/keys/{key_id}/revoke", status_code=204)
def revoke_key(tenant_id: TenantIdPath, key_id: KeyIdPath, uow: UowDep) -> None:
    """Revoke a key: requests with it answer 401 from now on."""
    service.revoke_key(uow.session, tenant_id, key_id)


@router.put("/tenants/{tenant_id}/credit", response_model=TenantOut)
def set_credit(tenant_id: TenantIdPath, body: CreditIn, uow: UowDep) -> TenantOut:
    return _out(uow.session, service.set_credit(uow.session, tenant_id, body.credit))


@router.put("/tenants/{tenant_id}/status", response_model=TenantOut)
def set_status(tenant_id: TenantIdPath, body: StatusIn, uow: UowDep) -> TenantOut:
    """Suspend or reactivate: a suspended tenant can still read, forget and delete. Reactivating
    a tenant that asked to delete its account leaves it `deletion_requested` until its request
    is withdrawn or its erasure runs."""
    return _out(uow.session, service.set_status(uow.session, tenant_id, body.status))


def _out(session: Session, tenant: Tenant) -> TenantOut:
    return TenantOut(
        tenant_id=tenant.id,
        name=tenant.name,
        status=tenant.status,
        credit=tenant.credit,
        deletion=account.describe_latest(session, tenant.id),
    )
