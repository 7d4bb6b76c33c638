"""Tasks of the passes queue: thin, take ids, safe to run twice."""

from __future__ import annotations

from app.decisions.pass_jobs import TASK, run_job
from app.engines.registry import default_engine
from workers.celery import celery_app


@celery_app.task(name=TASK)
def run(job_id: str) -> None:
    """The compare / explain / placebo passes of one decision, asked of the first engine."""
    run_job(default_engine(), job_id)
