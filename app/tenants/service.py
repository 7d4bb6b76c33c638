"""Tenants and their API keys. Keys are shown once and stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy.orm import Session

from app.account.repository import deletion_pending
from app.errors import Conflict, Forbidden, NotFound, Unauthorized
from app.models import ApiKey, Tenant
from app.tenants import repository as repo

KEY_PREFIX = "dsk_"


@dataclass(frozen=True)
class IssuedKey:
    key_id: uuid.UUID
    api_key: str


SUSPENDED = ("suspended", "deletion_requested")
"""Statuses that read, forget and delete, and change nothing else: an operator's suspension, and
a tenant's own deletion request until its erasure runs (app.account)."""

WITHDRAW_HINT = "withdraw the request with DELETE /v1/account/deletion to keep the account"


@dataclass(frozen=True)
class CurrentTenant:
    """The tenant a request acts for, as authenticated."""

    id: uuid.UUID
    status: str

    @property
    def suspended(self) -> bool:
        return self.status in SUSPENDED

    def refusal(self, what: str | None = None) -> Forbidden:
        """The 403 of a write this tenant may not make, saying why and what still works."""
        change = f"{what} cannot change; " if what else ""
        if self.status == "deletion_requested":
            return Forbidden(
                f"this account is to be deleted: {change}reads, forget and deletes still work "
                f"until it is erased; {WITHDRAW_HINT}",
                code="deletion_requested",
            )
        return Forbidden(
            f"this tenant is suspended: {change}reads, forget and deletes still work",
            code="tenant_suspended",
        )

    def ensure_active(self, what: str) -> None:
        """A suspended tenant reads, forgets and deletes, and changes nothing else."""
        if self.suspended:
            raise self.refusal(what)


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


def create_tenant(session: Session, name: str, credit: Decimal) -> tuple[Tenant, IssuedKey]:
    tenant = Tenant(id=uuid.uuid4(), name=name, credit=credit, status="active")
    session.add(tenant)
    session.flush()
    return tenant, issue_key(session, tenant.id)


def issue_key(session: Session, tenant_id: uuid.UUID) -> IssuedKey:
    _not_erased(get_tenant(session, tenant_id, lock=True))
    api_key = KEY_PREFIX + secrets.token_urlsafe(32)
    row = ApiKey(
        id=uuid.uuid4(), tenant_id=tenant_id, key_hash=hash_key(api_key), prefix=api_key[:10]
    )
    session.add(row)
    session.flush()
    return IssuedKey(key_id=row.id, api_key=api_key)


def revoke_key(session: Session, tenant_id: uuid.UUID, key_id: uuid.UUID) -> None:
    if not repo.revoke_key(session, tenant_id, key_id, datetime.now(UTC)):
        raise NotFound("no active key with this id for this tenant", field="key_id")


def get_tenant(session: Session, tenant_id: uuid.UUID, *, lock: bool = False) -> Tenant:
    tenant = session.get(Tenant, tenant_id, with_for_update=lock)
    if tenant is None:
        raise NotFound("no tenant with this id", field="tenant_id")
    return tenant


def set_credit(session: Session, tenant_id: uuid.UUID, credit: Decimal) -> Tenant:
    tenant = _not_erased(get_tenant(session, tenant_id, lock=True))
    tenant.credit = credit
    session.flush()
    return tenant


def set_status(session: Session, tenant_id: uuid.UUID, status: str) -> Tenant:
    """The operator's suspension, kept apart from the tenant's own deletion request: lifting it
    leaves a tenant that asked to be deleted suspended by its request, until it withdraws it."""
    tenant = _not_erased(get_tenant(session, tenant_id, lock=True))
    if status == "active" and deletion_pending(session, tenant_id):
        status = "deletion_requested"
    tenant.status = status
    session.flush()
    return tenant


ERASED = ("erasing", "erased")


def _not_erased(tenant: Tenant) -> Tenant:
    """Erased is terminal: no status, credit or key brings an erased tenant back (its proof
    says its data is gone, and new data would make the proof false)."""
    if tenant.status in ERASED:
        raise Conflict("this tenant is being erased or was erased", code="tenant_erased")
    return tenant


def authenticate(session: Session, api_key: str) -> CurrentTenant:
    row = repo.key_owner(session, hash_key(api_key))
    if row is not None and row.status == "erasing":
        raise Forbidden("this tenant is being erased", code="tenant_erased")
    # Once erased, its keys are keys of nothing: the same answer as a key never issued.
    if row is None or row.revoked_at is not None or row.status == "erased":
        raise Unauthorized("unknown or revoked API key")
    return CurrentTenant(id=row.id, status=row.status)
