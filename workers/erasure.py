"""Erasure jobs on the erasure queue, one chunk per run; the retention sweep on beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import lead, session_scope
from app.erasure import service
from app.jobs.failures import ends_failed
from app.jobs.names import RETENTION_SWEEP, RUN_ERASURE
from workers.celery import celery_app

RETENTION_LOCK = 7_331_002
"""pg advisory lock key of the retention sweep (see app.db.lead)."""


@celery_app.task(name=RUN_ERASURE, bind=True, max_retries=5)
def run(self, job_id: str) -> str:  # type: ignore[no-untyped-def]
    try:
        with session_scope() as (session, jobs):
            return service.run_step(session, jobs, job_id)
    except Exception as exc:
        if self.request.retries >= self.max_retries:
            with session_scope() as (session, _jobs):
                service.fail(session, job_id, f"{type(exc).__name__}: {exc}")
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


@celery_app.task(name=RETENTION_SWEEP)
def retention_sweep() -> list[str]:
    with session_scope() as (session, jobs):
        if not lead(session, RETENTION_LOCK):
            return []
        return service.retention_sweep(session, jobs)


@ends_failed(RUN_ERASURE)
def _erasure_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    service.fail(session, str(args[0]), reason)
