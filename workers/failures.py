"""A task that failed for good (after its retries, or past a time limit) ends its row failed,
through the row failers the domains registered (`app.jobs.failures`)."""

from __future__ import annotations

import logging
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
    try:
        end_row_failed(name, list(args or ()), reason_of(exception))
    except Exception:  # the database is away: the row's sweep or the next delivery settles it
        log.exception("could not mark the row of %s failed", name)
