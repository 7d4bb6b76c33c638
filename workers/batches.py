"""Batch tasks on the decisions queue: thin, take ids, safe to run twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.batches import runner, service
from app.db import session_scope
from app.jobs.failures import ends_failed
from app.jobs.names import EXPIRE_BATCHES, FINISH_BATCH, RUN_CHUNK, VALIDATE_BATCH
from app.jobs.outbox import JobQueue
from workers.celery import celery_app


@celery_app.task(name=VALIDATE_BATCH)
def validate_batch(batch_id: str) -> None:
    with session_scope() as (session, jobs):
        service.validate(session, jobs, batch_id)


@celery_app.task(
    name=RUN_CHUNK,
    # A chunk that failed (a lost database connection, a time limit) rolled back whole: run it
    # again rather than leave its items pending.
    autoretry_for=(Exception,),
    retry_backoff=1,
    retry_backoff_max=60,
    max_retries=8,
)
def run_chunk(batch_id: str, first: int, last: int) -> int:
    with session_scope() as (session, jobs):
        return runner.run_chunk(session, jobs, batch_id, first, last)


@celery_app.task(
    name=FINISH_BATCH,
    # Small and idempotent: a lost connection must not leave the batch in_progress.
    autoretry_for=(Exception,),
    retry_backoff=1,
    max_retries=8,
)
def finish_batch(batch_id: str) -> None:
    with session_scope() as (session, _jobs):
        runner.finish(session, batch_id)


@celery_app.task(name=EXPIRE_BATCHES)
def expire_batches() -> list[str]:
    with session_scope() as (session, _jobs):
        return runner.expire_due(session)


@ends_failed(VALIDATE_BATCH)
def _validation_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    service.fail_validation(session, str(args[0]), reason)


@ends_failed(RUN_CHUNK)
def _chunk_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    batch_id, first, last = str(args[0]), int(args[1]), int(args[2])
    runner.fail_chunk(session, JobQueue(session), batch_id, first, last, reason)
