"""Jobs collected during one unit of work, as outbox rows in the same transaction.

A worker must never see a row that is not there yet, and a committed change must never lose the
job it needs: so the job is written with the change, and handed to the broker only after the
commit (`app.jobs.relay`). If the broker is down, the request still succeeds; the row waits.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.orm import Session

from app.jobs import repository as repo
from app.jobs.models import OutboxJob
from app.observability.context import current_request_id


class JobQueue:
    """The jobs of one transaction: rows in its session, and their ids to send after commit."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._jobs: list[OutboxJob] = []

    def add(self, task_name: str, *args: Any, delay_seconds: float = 0.0) -> None:
        """Queue `task_name(*args)`, to run no sooner than `delay_seconds` after the commit."""
        # The request (or task) that caused this job, so its log lines carry the same id.
        request_id = current_request_id()
        headers = {"request_id": request_id} if request_id else None
        job = repo.add_job(self.session, task_name, list(args), headers, delay_seconds)
        self._jobs.append(job)

    @property
    def pending(self) -> list[tuple[str, tuple[Any, ...]]]:
        """The jobs added so far, as (task, args)."""
        return [(job.task, tuple(job.args)) for job in self._jobs]

    def discard(self) -> None:
        """Take back the jobs added so far: their rows leave the transaction, none is sent."""
        for job in self._jobs:
            state = inspect(job)
            if state.pending:
                self.session.expunge(job)
            elif state.persistent:
                self.session.delete(job)
        self._jobs.clear()

    def rolled_back(self) -> None:
        """The transaction rolled back and its rows with it: there is nothing to send."""
        self._jobs.clear()

    def take(self) -> list[uuid.UUID]:
        """The ids of the jobs to send now, once: a second call returns none."""
        jobs, self._jobs = self._jobs, []
        return [job.id for job in jobs]
