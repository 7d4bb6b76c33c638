"""SQL of learning requests and of the gate's per-tenant setting."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.learning.models import GateSetting, LearningRequest


def lock_request(session: Session, request_id: str) -> LearningRequest | None:
    """The learning request, locked for this transaction: two runs of its task never decide
    it both."""
    return session.scalars(
        select(LearningRequest).where(LearningRequest.id == request_id).with_for_update()
    ).first()


def gate_setting(session: Session, tenant_id: uuid.UUID) -> GateSetting | None:
    return session.get(GateSetting, tenant_id)


def gate_setting_for_write(session: Session, tenant_id: uuid.UUID) -> GateSetting:
    """The tenant's gate setting, made (and added to the unit of work) when it has none."""
    row = session.get(GateSetting, tenant_id) or GateSetting(tenant_id=tenant_id)
    session.add(row)
    return row
