"""Database engine and units of work: one session per request or task, committed once at the end.

Services only `flush()`; the owner of the unit (the request's endpoint thread, or the task)
commits, and the jobs written to the outbox during the work are sent once that commit succeeds.

A request's transaction carries `statement_timeout` and `lock_timeout` (`SET LOCAL`, so a task
on the same engine keeps waiting as long as its work needs), so no request waits without bound on
a lock or a slow statement; the pool is sized to the API's concurrency limit (`app.admission`)
and a request that cannot get a connection in time gets a 503, not a hang.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import Connection, Engine, create_engine, event, func, select, text
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from app.jobs import relay
from app.jobs.outbox import JobQueue
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)

POOL_SPARE = 8
"""Connections beyond the request slots: the outbox relay, readiness checks, admin tools."""

POOL_TIMEOUT_SECONDS = 10.0
"""How long a unit of work waits for a connection before it fails (a 503 in the API)."""


_BOUNDED = "dossier_bounded"
"""`Session.info` key: set on a request's session, whose transaction gets the timeouts."""


def _request_bounds(settings: Settings) -> str:
    """One statement setting this transaction's bounds on a statement and on a lock wait."""
    statement_ms = int(settings.db_statement_timeout_seconds * 1000)
    lock_ms = int(settings.db_lock_timeout_seconds * 1000)
    return (
        f"SELECT set_config('statement_timeout', '{statement_ms}', true), "
        f"set_config('lock_timeout', '{lock_ms}', true)"
    )


@event.listens_for(Session, "after_begin")
def _bound_request_transaction(
    session: Session, _transaction: SessionTransaction, connection: Connection
) -> None:
    if session.info.get(_BOUNDED):
        connection.exec_driver_sql(_request_bounds(get_settings()))


@lru_cache
def get_engine() -> Engine:
    settings = get_settings()
    if settings.database_url is None:
        raise RuntimeError("DOSSIER_DATABASE_URL is not set and no embedded PostgreSQL was started")
    return create_engine(
        settings.database_url,
        pool_size=settings.api_concurrency + POOL_SPARE,
        max_overflow=0,
        pool_timeout=POOL_TIMEOUT_SECONDS,
        pool_pre_ping=True,
    )


def _forget_parent_connections() -> None:
    """A forked process (a Celery pool process) must not use its parent's connections."""
    if get_engine.cache_info().currsize:
        get_engine().dispose(close=False)


os.register_at_fork(after_in_child=_forget_parent_connections)


@lru_cache
def _session_factory() -> sessionmaker[Session]:
    return sessionmaker(get_engine(), expire_on_commit=False)


class UnitOfWork:
    """One transaction and the jobs it writes to the outbox.

    The session opens its connection at the first statement, so making a unit costs no I/O.
    `commit()` commits and then sends the unit's jobs; `abort()` rolls back. Either ends it.
    A `bounded` unit (a request's) has the statement and lock timeouts.
    """

    def __init__(self, *, bounded: bool = False) -> None:
        self.session = _session_factory()()
        self.session.info[_BOUNDED] = bounded
        self.jobs = JobQueue(self.session)
        self.finished = False

    def commit(self) -> None:
        if self.finished:
            return
        self.finished = True
        try:
            self.session.commit()
        except BaseException:
            self._end_in_rollback()
            raise
        self.session.close()
        _send_after_commit(self.jobs)

    def abort(self) -> None:
        if not self.finished:
            self.finished = True
            self._end_in_rollback()

    def _end_in_rollback(self) -> None:
        try:
            self.session.rollback()
        finally:
            self.session.close()
            # The jobs' rows were rolled back with the work: there is nothing to send.
            self.jobs.rolled_back()


def _send_after_commit(jobs: JobQueue) -> None:
    """Hand the committed jobs to the relay; if sending fails they wait in the outbox for the
    sweep, and the work that needed them has succeeded all the same."""
    try:
        relay.after_commit(get_engine(), jobs.take())
    except Exception:
        log.warning("the outbox could not be read after commit; the sweep will send", exc_info=True)


@contextmanager
def session_scope() -> Iterator[tuple[Session, JobQueue]]:
    """A unit of work for a task or a command: commits at the end, rolls back on error."""
    unit = UnitOfWork()
    try:
        yield unit.session, unit.jobs
    except BaseException:
        unit.abort()
        raise
    unit.commit()


def lead(session: Session, lock_key: int) -> bool:
    """Take a transaction-scoped PostgreSQL advisory lock if it is free: of several beat
    processes (or workers) running the same sweep, only the one that gets it does the work."""
    return bool(session.scalar(select(func.pg_try_advisory_xact_lock(lock_key))))


def local_statement_timeout(connection: Connection, milliseconds: int) -> None:
    """Bound every statement of the connection's current transaction: a count that would read
    a large table for long fails instead (the metrics scrape answers without it)."""
    connection.execute(text(f"SET LOCAL statement_timeout = {int(milliseconds)}"))
