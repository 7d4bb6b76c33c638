"""The stored first answers of idempotency keys."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from app.idempotency.claims import Claim
from app.idempotency.models import IdempotentAnswer


def take(session: Session, claim: Claim, kept: timedelta) -> bool:
    """Make the key this request's (True), taking over one first used longer than `kept` ago.

    While another transaction holds the key (the first request, still running), PostgreSQL
    makes this insert wait for it to end: then the key is either that request's, answered
    (False), or free again because that request failed (True)."""
    values = {
        "tenant_id": claim.tenant_id,
        "key": claim.key,
        "fingerprint": claim.fingerprint,
        "route": claim.route,
        "subject": claim.subject,
        "end_user": claim.end_user,
    }
    statement = insert(IdempotentAnswer).values(**values)
    retaken = {
        name: statement.excluded[name] for name in values if name not in ("tenant_id", "key")
    }
    claimed = statement.on_conflict_do_update(
        index_elements=[IdempotentAnswer.tenant_id, IdempotentAnswer.key],
        set_={**retaken, "status_code": None, "body": None, "created_at": func.now()},
        where=IdempotentAnswer.created_at < func.now() - kept,
    ).returning(IdempotentAnswer.key)
    return session.execute(claimed).first() is not None


def stored(session: Session, tenant_id: uuid.UUID, key: str) -> IdempotentAnswer | None:
    return session.get(IdempotentAnswer, (tenant_id, key))


def answer(session: Session, claim: Claim, body: Any) -> None:
    session.execute(
        update(IdempotentAnswer)
        .where(IdempotentAnswer.tenant_id == claim.tenant_id, IdempotentAnswer.key == claim.key)
        .values(status_code=claim.status_code, body=body)
    )


def forget_subjects(session: Session, tenant_id: uuid.UUID, subjects: Sequence[str]) -> int:
    result = session.execute(
        delete(IdempotentAnswer).where(
            IdempotentAnswer.tenant_id == tenant_id, IdempotentAnswer.subject.in_(subjects)
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def forget_end_user(session: Session, tenant_id: uuid.UUID, end_user: str) -> int:
    result = session.execute(
        delete(IdempotentAnswer).where(
            IdempotentAnswer.tenant_id == tenant_id, IdempotentAnswer.end_user == end_user
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def delete_expired(session: Session, kept: timedelta) -> int:
    result = session.execute(
        delete(IdempotentAnswer).where(IdempotentAnswer.created_at < func.now() - kept)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
