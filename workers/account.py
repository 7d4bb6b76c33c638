"""The account deletion sweep on beat: requests past their grace period start their erasure."""

from __future__ import annotations

from app.account import service
from app.db import lead, session_scope
from app.jobs.names import ACCOUNT_DELETIONS
from workers.celery import celery_app

DELETION_LOCK = 7_331_004
"""pg advisory lock key of the account deletion sweep (see app.db.lead)."""


@celery_app.task(name=ACCOUNT_DELETIONS)
def deletion_sweep() -> list[str]:
    """The erasure jobs it started. Two beats at once: one leads, the other does nothing; and a
    request already started is not due any more, so a sweep run again starts nothing twice."""
    with session_scope() as (session, jobs):
        if not lead(session, DELETION_LOCK):
            return []
        return service.sweep(session, jobs)
