"""SQL of tenants and their API keys."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Row, select, update
from sqlalchemy.orm import Session

from app.models import ApiKey, Tenant


def status_of(session: Session, tenant_id: uuid.UUID) -> str | None:
    """The tenant's status, read without a lock (None when there is no such tenant)."""
    return session.scalar(select(Tenant.status).where(Tenant.id == tenant_id))


def revoke_key(
    session: Session, tenant_id: uuid.UUID, key_id: uuid.UUID, revoked_at: datetime
) -> bool:
    """Revoke the tenant's key if it is active; False when it has no such active key."""
    result = session.execute(
        update(ApiKey)
        .where(ApiKey.id == key_id, ApiKey.tenant_id == tenant_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=revoked_at)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def revoke_all_keys(session: Session, tenant_id: uuid.UUID, revoked_at: datetime) -> None:
    """Revoke every active key of the tenant."""
    session.execute(
        update(ApiKey)
        .where(ApiKey.tenant_id == tenant_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=revoked_at)
    )


def key_owner(session: Session, key_hash: str) -> Row[uuid.UUID, str, datetime | None] | None:
    """The tenant of the key with this hash: its `id`, `status`, and the key's `revoked_at`
    (None when no key has this hash)."""
    return session.execute(
        select(Tenant.id, Tenant.status, ApiKey.revoked_at)
        .join(ApiKey, ApiKey.tenant_id == Tenant.id)
        .where(ApiKey.key_hash == key_hash)
    ).first()
