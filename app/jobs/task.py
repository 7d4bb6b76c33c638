"""The base of every Dossier task (Celery's `task_cls`)."""

from __future__ import annotations

from typing import Any

from celery import Task

from app.jobs.deliveries import MAX_DELIVERIES, count_delivery
from app.jobs.failures import end_row_failed


class DossierTask(Task):
    """A task whose deliveries keep killing their worker stops being run: its row ends failed.

    Tasks are acknowledged late and handed out again when their worker dies, which is right for
    a worker killed by a deploy and wrong for a task that kills every worker it meets.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        task_id = self.request.id
        if task_id and not self.request.is_eager:
            if count_delivery(task_id, self.request.retries or 0) > MAX_DELIVERIES:
                end_row_failed(
                    self.name,
                    args,
                    f"its worker stopped {MAX_DELIVERIES} times while running it "
                    "(a crash or out of memory); not tried again",
                )
                return None
        return super().__call__(*args, **kwargs)
