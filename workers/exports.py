"""Export jobs on the exports queue, one step per run; the expiry sweep on beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import lead, session_scope
from app.exports import service
from app.jobs.failures import ends_failed
from app.jobs.names import EXPORT_SWEEP, RUN_EXPORT
from workers.celery import celery_app

SWEEP_LOCK = 7_331_003
"""pg advisory lock key of the export sweep (see app.db.lead)."""


@celery_app.task(
    name=RUN_EXPORT,
    # A step that failed rolled back and its part is written again: try it again, a little
    # later each time. After the last retry the export ends failed (app.jobs.failures).
    autoretry_for=(OSError,),
    retry_backoff=2,
    retry_jitter=False,
    max_retries=3,
)
def run(export_id: str) -> str:
    with session_scope() as (session, jobs):
        return service.run_step(session, jobs, export_id)


@celery_app.task(name=EXPORT_SWEEP)
def export_sweep() -> list[str]:
    with session_scope() as (session, _jobs):
        if not lead(session, SWEEP_LOCK):
            return []
        return service.sweep(session)


@ends_failed(RUN_EXPORT)
def _export_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    service.fail(session, str(args[0]), reason)
