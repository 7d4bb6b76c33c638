"""The outbox relay: hands committed jobs to the broker, and deletes each row once it is sent.

A sweep in every API process and every worker's main process sends whatever is due and still
there: woken right after each commit that wrote jobs (so a request never waits on the broker,
and answers at once while the broker is down), and every `interval` seconds for what is left (the
broker was down, a process died between commit and send, a job was delayed). A process without a
sweep of its own (a worker's pool process, a command) sends its jobs itself after the commit.

Rows are taken with `FOR UPDATE SKIP LOCKED`, so several relays never send the same row at the
same time. A row whose send succeeded but whose delete was lost is sent again: tasks are safe to
run twice, and the job's id is the Celery task id.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Sequence

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app.jobs import repository as repo
from app.jobs.celery_app import celery_app
from app.jobs.models import OutboxJob

log = logging.getLogger(__name__)

BATCH = 200
"""Rows one sweep transaction takes at most."""


class BrokerUnavailable(Exception):
    """A publish failed: the job stays in the outbox."""


def send(engine: Engine, ids: Sequence[uuid.UUID] | None = None) -> int:
    """Send due jobs (only `ids` when given); returns how many the broker took.

    Stops at the first failed publish (the broker is likely down, and the rest will wait for it)
    and raises `BrokerUnavailable` once what was sent is marked.
    """
    if ids is not None and not ids:
        return 0
    with Session(engine) as session, session.begin():
        sent: list[uuid.UUID] = []
        failure: str | None = None
        for job in repo.lock_due(session, ids, BATCH):
            try:
                _publish(job)
            except Exception as exc:  # any broker failure: the row stays for the next sweep
                failure = f"{type(exc).__name__}: {exc}"[:500]
                job.attempts += 1
                job.last_error = failure
                break
            sent.append(job.id)
        if sent:
            repo.delete_jobs(session, sent)
    if failure is not None:
        raise BrokerUnavailable(f"{len(sent)} jobs sent, then: {failure}")
    return len(sent)


def _publish(job: OutboxJob) -> None:
    celery_app.send_task(job.task, args=job.args, task_id=str(job.id), headers=job.headers)
    log.info("enqueued %s", job.task)


def after_commit(engine: Engine, ids: Sequence[uuid.UUID]) -> None:
    """Jobs just committed: wake this process's sweep, or send them here if it has none."""
    if not ids:
        return
    if _running is not None:
        _running.wake()
    else:
        send(engine, ids)


class RelayLoop:
    """A daemon thread that sweeps the outbox when woken and every `interval` seconds."""

    def __init__(self, engine: Engine, interval: float) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox-relay", daemon=True)

    def start(self) -> RelayLoop:
        global _running
        self._thread.start()
        _running = self
        return self

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        global _running
        if _running is self:
            _running = None
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            try:
                while send(self.engine) == BATCH and not self._stop.is_set():
                    pass
            except BrokerUnavailable as exc:
                log.warning("the broker did not take a job; it stays in the outbox: %s", exc)
                # Wakes come with every request that writes a job: one try a second at most.
                self._stop.wait(min(self.interval, 1.0))
            except Exception:  # the database is down: try again at the next tick
                log.warning("the outbox sweep failed; retrying", exc_info=True)


_running: RelayLoop | None = None
"""This process's sweep, if it runs one."""


def _no_sweep_in_child() -> None:
    """A forked process does not have its parent's sweep thread."""
    global _running
    _running = None


os.register_at_fork(after_in_child=_no_sweep_in_child)
