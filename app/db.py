"""Database engine and sessions: one session per request or task, committed once at the end.

Services only `flush()`; the owner of the session (the request dependency or the task) commits,
and jobs collected during the work are sent only after that commit succeeds.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import Engine, create_engine, func, select
from sqlalchemy.orm import Session, sessionmaker

from app.settings import get_settings
from workers.enqueue import JobQueue


@lru_cache
def get_engine() -> Engine:
    url = get_settings().database_url
    if url is None:
        raise RuntimeError("DOSSIER_DATABASE_URL is not set and no embedded PostgreSQL was started")
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


@lru_cache
def _session_factory() -> sessionmaker[Session]:
    return sessionmaker(get_engine(), expire_on_commit=False)


@contextmanager
def session_scope() -> Iterator[tuple[Session, JobQueue]]:
    """A session and a job queue: commits, then sends the jobs; on error rolls back, drops them."""
    session = _session_factory()()
    jobs = JobQueue()
    try:
        yield session, jobs
        session.commit()
    except BaseException:
        session.rollback()
        # Jobs enqueued during the work reference state that was just rolled back; discard them.
        jobs.discard()
        raise
    finally:
        session.close()
    jobs.send()


def lead(session: Session, lock_key: int) -> bool:
    """Take a transaction-scoped PostgreSQL advisory lock if it is free: of several beat
    processes (or workers) running the same sweep, only the one that gets it does the work."""
    return bool(session.scalar(select(func.pg_try_advisory_xact_lock(lock_key))))
