"""SQL of account deletion requests."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.account.models import AccountDeletion
from app.erasure.models import ErasureJob


def deletion_pending(session: Session, tenant_id: uuid.UUID) -> bool:
    return pending(session, tenant_id) is not None


def pending(
    session: Session, tenant_id: uuid.UUID, *, lock: bool = False
) -> AccountDeletion | None:
    statement = select(AccountDeletion).where(
        AccountDeletion.tenant_id == tenant_id, AccountDeletion.status == "pending"
    )
    return session.scalars(statement.with_for_update() if lock else statement).first()


def latest(session: Session, tenant_id: uuid.UUID, *, lock: bool = False) -> AccountDeletion | None:
    statement = (
        select(AccountDeletion)
        .where(AccountDeletion.tenant_id == tenant_id)
        .order_by(AccountDeletion.requested_at.desc(), AccountDeletion.id.desc())
        .limit(1)
    )
    return session.scalars(statement.with_for_update() if lock else statement).first()


def due(session: Session, now: datetime, limit: int) -> list[AccountDeletion]:
    """Pending requests past their grace period, locked; one a concurrent sweep (or an operator
    running it at once) holds is skipped here and started there."""
    return list(
        session.scalars(
            select(AccountDeletion)
            .where(AccountDeletion.status == "pending", AccountDeletion.erase_after <= now)
            .order_by(AccountDeletion.erase_after, AccountDeletion.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
    )


def all_pending(session: Session, limit: int) -> list[AccountDeletion]:
    return list(
        session.scalars(
            select(AccountDeletion)
            .where(AccountDeletion.status == "pending")
            .order_by(AccountDeletion.erase_after, AccountDeletion.id)
            .limit(limit)
        )
    )


def erasure_status(session: Session, erasure_id: str | None) -> str | None:
    if erasure_id is None:
        return None
    return session.scalar(select(ErasureJob.status).where(ErasureJob.id == erasure_id))


def tenant_erasure(session: Session, tenant_id: uuid.UUID) -> ErasureJob | None:
    """The tenant's latest whole-tenant erasure that has not failed (running or done)."""
    return session.scalars(
        select(ErasureJob)
        .where(
            ErasureJob.tenant_id == tenant_id,
            ErasureJob.kind == "tenant",
            ErasureJob.status != "failed",
        )
        .order_by(ErasureJob.created_at.desc())
        .limit(1)
    ).first()
