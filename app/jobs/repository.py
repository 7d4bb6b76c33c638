"""SQL of the job outbox: rows written with a unit of work, taken by the relay, counted."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlalchemy.orm import Session

from app.jobs.models import OutboxJob


def add_job(
    session: Session,
    task: str,
    args: list[Any],
    headers: dict[str, Any] | None,
    delay_seconds: float,
) -> OutboxJob:
    """One outbox row in the session's transaction, due now or `delay_seconds` from now."""
    job = OutboxJob(id=uuid.uuid4(), task=task, args=args, headers=headers)
    if delay_seconds > 0:
        # The database's clock, as the relay compares due_at with it.
        job.due_at = func.now() + timedelta(seconds=delay_seconds)
    session.add(job)
    return job


def lock_due(session: Session, ids: Sequence[uuid.UUID] | None, limit: int) -> list[OutboxJob]:
    """Up to `limit` due jobs (only `ids` when given), locked, skipping those another relay
    holds: several relays never send the same row at the same time."""
    query = (
        select(OutboxJob)
        .where(OutboxJob.due_at <= func.now())
        # Jobs that failed least first: one job the broker keeps refusing (too large, say)
        # goes to the back instead of holding up every job after it.
        .order_by(OutboxJob.attempts, OutboxJob.due_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    if ids is not None:
        query = query.where(OutboxJob.id.in_(ids))
    return list(session.scalars(query))


def delete_jobs(session: Session, ids: Sequence[uuid.UUID]) -> None:
    session.execute(delete(OutboxJob).where(OutboxJob.id.in_(ids)))


def count_jobs(connection: Connection) -> int:
    """Jobs committed and not yet taken by the broker (for the metrics gauge)."""
    return int(connection.execute(select(func.count()).select_from(OutboxJob)).scalar_one())
