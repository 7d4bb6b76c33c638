"""The learned-memory gate on the extraction queue: thin, takes ids, safe to run twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.cache import get_subject_cache
from app.db import session_scope
from app.engines.registry import default_engine
from app.jobs.failures import ends_failed
from app.jobs.names import LEARN
from app.learning.lasting import current_probe
from app.learning.service import Learner, fail_request
from workers.celery import celery_app


@celery_app.task(name=LEARN)
def learn(request_id: str) -> None:
    with session_scope() as (session, jobs):
        Learner(session, jobs, default_engine(), current_probe(), get_subject_cache()).run(
            request_id
        )


@ends_failed(LEARN)
def _request_failed(session: Session, args: Sequence[Any], reason: str) -> None:
    fail_request(session, str(args[0]), reason)
