"""The sweep of idempotency keys past their day, on beat (safe to run twice at once)."""

from __future__ import annotations

from datetime import timedelta

from app.db import session_scope
from app.idempotency import service
from app.jobs.names import IDEMPOTENCY_SWEEP
from app.settings import get_settings
from workers.celery import celery_app


@celery_app.task(name=IDEMPOTENCY_SWEEP)
def idempotency_sweep() -> int:
    kept = timedelta(hours=get_settings().idempotency_hours)
    with session_scope() as (session, _jobs):
        return service.sweep(session, kept)
