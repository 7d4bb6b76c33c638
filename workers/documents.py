"""Document tasks: ingest (read, chunk, index). Thin, take ids, safe to run twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import session_scope
from app.documents.service import IngestService
from app.jobs.failures import ends_failed
from app.jobs.names import INGEST_DOCUMENT
from app.jobs.outbox import JobQueue
from app.knowledge.indexes import knowledge_indexes
from app.settings import get_settings
from workers.celery import celery_app


@celery_app.task(
    name=INGEST_DOCUMENT,
    # A read that failed half-way rolled back whole: read the document again.
    autoretry_for=(OSError,),
    retry_backoff=1,
    max_retries=5,
)
def ingest_document(document_id: int) -> None:
    with session_scope() as (session, jobs):
        IngestService(session, jobs, get_settings(), knowledge_indexes()).ingest(document_id)


@ends_failed(INGEST_DOCUMENT)
def _document_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    IngestService(session, JobQueue(session), get_settings(), knowledge_indexes()).fail(
        int(args[0]), reason
    )
