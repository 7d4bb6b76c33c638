"""Tasks of the memory domain: thin, take ids, safe to run twice."""

from __future__ import annotations

import uuid

from app.batches.repository import delete_subject_items
from app.db import session_scope
from app.memory import service
from workers.celery import celery_app


@celery_app.task(name="dossier.erasure.subject_deleted")
def subject_deleted(tenant_id: str, subject: str) -> None:
    """Clean what still refers to a deleted subject outside its own tables."""
    with session_scope() as (session, _jobs):
        removed = delete_subject_items(session, uuid.UUID(tenant_id), subject)
        service.clean_after_subject_delete(session, tenant_id, subject, {"batch_items": removed})
