"""A task that failed for good (after its retries, or past a time limit) ends its row failed,
through the row failers the domains registered (`app.jobs.failures`)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import signals

from app.jobs.failures import end_row_failed, reason_of

log = logging.getLogger(__name__)


@signals.task_failure.connect
def _end_its_row(
    sender: Any = None,
    exception: BaseException | None = None,
    args: Any = None,
    **_: Any,
) -> None:
    name = getattr(sender, "name", None)
    if not name:
        return
    report = (name, list(args or ()), reason_of(exception))
    if type(exception).__name__ == "TimeLimitExceeded":
        # A hard time limit is reported in the worker's main process before the pool process
        # that ran the task is killed, and that process may hold the row's lock: mark the row
        # from a thread, once the pool process (and its transaction) is gone.
        threading.Timer(HARD_LIMIT_DELAY_SECONDS, _end_quietly, report).start()
    else:
        _end_quietly(*report)


HARD_LIMIT_DELAY_SECONDS = 1.0


def _end_quietly(name: str, args: list[Any], reason: str) -> None:
    try:
        end_row_failed(name, args, reason)
    except Exception:  # the database is away or the row stays locked: logged, left for a sweep
        log.exception("could not mark the row of %s failed", name)
