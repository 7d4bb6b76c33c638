"""Enqueue after commit: a worker must never see a row that is not there yet."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class JobQueue:
    """Tasks collected during one transaction, sent once it has committed."""

    pending: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def add(self, task_name: str, *args: Any) -> None:
        self.pending.append((task_name, args))

    def discard(self) -> None:
        self.pending.clear()

    def send(self) -> None:
        from app.observability.context import current_request_id
        from workers.celery import celery_app

        pending, self.pending = self.pending, []
        # The request (or task) that caused these jobs, so their log lines carry its id.
        request_id = current_request_id()
        headers = {"request_id": request_id} if request_id else None
        for task_name, args in pending:
            celery_app.send_task(task_name, args=list(args), headers=headers)
            log.info("enqueued %s", task_name)
