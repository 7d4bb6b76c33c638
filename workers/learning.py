"""The learned-memory gate on the extraction queue: thin, takes ids, safe to run twice."""

from __future__ import annotations

from app.cache import get_subject_cache
from app.db import session_scope
from app.engines.registry import default_engine
from app.learning.service import Learner
from workers.celery import celery_app


@celery_app.task(name="dossier.extraction.learn")
def learn(request_id: str) -> None:
    with session_scope() as (session, _jobs):
        Learner(session, default_engine(), get_subject_cache()).run(request_id)
