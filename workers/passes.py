"""Tasks of the passes queue: thin, take ids, safe to run twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.decisions.pass_jobs import finish_job, run_job
from app.engines.registry import default_engine
from app.jobs.failures import ends_failed
from app.jobs.names import RUN_PASSES
from workers.celery import celery_app


@celery_app.task(name=RUN_PASSES)
def run(job_id: str) -> None:
    """The compare / explain / placebo passes of one decision, asked of the first engine."""
    run_job(default_engine(), job_id)


@ends_failed(RUN_PASSES)
def _passes_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    finish_job(session, str(args[0]), status="failed", error=f"internal: {reason}")
