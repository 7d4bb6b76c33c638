"""Knowledge-wide tasks: an erased user's caches dropped again, and beat's knowledge sweep
(facts and documents under one lock). Thin, take ids, safe to run twice."""

from __future__ import annotations

import redis

from app.db import session_scope
from app.jobs.names import ERASE_USER_CACHES, KNOWLEDGE_SWEEP
from app.knowledge import sweeps
from app.knowledge.indexes import knowledge_indexes, user_prefix
from app.settings import get_settings
from workers.celery import celery_app


@celery_app.task(
    name=ERASE_USER_CACHES,
    autoretry_for=(redis.RedisError,),
    retry_backoff=1,
    max_retries=10,
)
def user_caches(tenant_id: str, user_pk: int) -> int:
    """Drop an erased user's cached indexes again, now that the deletion has committed."""
    return knowledge_indexes().drop(user_prefix(tenant_id, user_pk))


@celery_app.task(name=KNOWLEDGE_SWEEP)
def knowledge_sweep() -> dict[str, int]:
    with session_scope() as (session, jobs):
        return sweeps.sweep(session, jobs, get_settings())
