"""Facts tasks: extraction (live, imported history, re-extraction) and beat's re-extraction
sweep. Thin, take ids, safe to run twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import session_scope
from app.errors import UpstreamFailed, UpstreamTimeout
from app.facts import sweeps
from app.facts.extractors import current_extractor
from app.facts.history import fail_import, run_import
from app.facts.service import ExtractionService, fail_extraction
from app.jobs.failures import ends_failed
from app.jobs.names import EXTRACT_BATCH, IMPORT_HISTORY, REEXTRACT_BATCH, REEXTRACT_SWEEP
from app.knowledge.indexes import knowledge_indexes
from app.settings import get_settings
from workers.celery import celery_app


@celery_app.task(
    name=EXTRACT_BATCH,
    # An upstream extractor that failed, timed out or answered unreadably (even repaired):
    # nothing was applied or billed (the transaction rolled back), so ask again later. After
    # the last retry the batch ends failed, its turns kept for re-extraction.
    autoretry_for=(UpstreamFailed, UpstreamTimeout),
    retry_backoff=2,
    retry_jitter=False,
    max_retries=3,
)
def run_batch(batch_id: int) -> None:
    """Extract a thread's batch once its delay has passed (until then it waits, delayed)."""
    with session_scope() as (session, jobs):
        service = ExtractionService(session, jobs, get_settings(), knowledge_indexes())
        wait = service.run_batch(batch_id, current_extractor())
        if wait is not None:
            # Delayed through the outbox, not the broker's ETA: nothing held in a worker's memory.
            jobs.add(EXTRACT_BATCH, batch_id, delay_seconds=max(wait, 0.05))


@celery_app.task(
    name=IMPORT_HISTORY,
    # As run_batch: the batch that failed rolled back, the next delivery goes on from it.
    autoretry_for=(UpstreamFailed, UpstreamTimeout),
    retry_backoff=2,
    retry_jitter=False,
    max_retries=3,
)
def import_history(import_id: str) -> None:
    """Extract a history import's batches, oldest first, each in a unit of its own."""
    extractor = current_extractor()

    def extract_batch(batch_id: int) -> None:
        with session_scope() as (session, jobs):
            service = ExtractionService(session, jobs, get_settings(), knowledge_indexes())
            service.run_batch(batch_id, extractor)

    run_import(session_scope, import_id, extract_batch)


@celery_app.task(name=REEXTRACT_BATCH)
def rerun_batch(batch_id: int) -> None:
    with session_scope() as (session, jobs):
        service = ExtractionService(session, jobs, get_settings(), knowledge_indexes())
        service.rerun_batch(batch_id, current_extractor())


@celery_app.task(name=REEXTRACT_SWEEP)
def reextract() -> int:
    with session_scope() as (session, jobs):
        return sweeps.reextract(session, jobs, current_extractor().name)


@ends_failed(EXTRACT_BATCH)
def _extraction_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    fail_extraction(session, int(args[0]), reason)


@ends_failed(IMPORT_HISTORY)
def _import_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    fail_import(session, str(args[0]), reason)
