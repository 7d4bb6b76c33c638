"""When a task gives up, the row it works on ends in a terminal state with the reason.

One mechanism for every task, not one per task: each domain registers, for the task names whose
rows it owns, a function that marks such a row failed (`@ends_failed(INGEST_DOCUMENT)`);
the worker calls it when a task fails for good (an exception after its retries, a soft or a hard
time limit: Celery's `task_failure` signal) and when a task's deliveries keep killing their
worker (`DeliveryCount`, a crash or an out-of-memory kill would otherwise redeliver it for ever).
A row already in a terminal state is left as it is, so a late report changes nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app.db import UnitOfWork

log = logging.getLogger(__name__)

RowFailer = Callable[[Session, Sequence[Any], str], None]
"""Marks the row of a task's arguments failed with a reason (within the given session)."""

_FAILERS: dict[str, RowFailer] = {}


def ends_failed(task_name: str) -> Callable[[RowFailer], RowFailer]:
    """Register the function that ends `task_name`'s row failed."""

    def register(failer: RowFailer) -> RowFailer:
        _FAILERS[task_name] = failer
        return failer

    return register


TIME_LIMITS = ("SoftTimeLimitExceeded", "TimeLimitExceeded")


def _chain(exception: BaseException) -> list[BaseException]:
    """The exception and those it was raised from or while handling."""
    seen: list[BaseException] = []
    current: BaseException | None = exception
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def reason_of(exception: BaseException | None) -> str:
    """What the row's reader sees: the kind of failure, never a stack trace or the data."""
    if exception is None:
        return "the task failed"
    if any(type(e).__name__ in TIME_LIMITS for e in _chain(exception)):
        # Often surfaced as what the limit interrupted (a query's rollback, say): the cause.
        return "it took longer than the task time limit (DOSSIER_TASK_TIME_LIMIT_SECONDS)"
    name = type(exception).__name__
    first_line = str(exception).splitlines()[0] if str(exception) else ""
    return f"{name}: {first_line}"[:300]


ATTEMPTS = 4
RETRY_SECONDS = 2.0


def end_row_failed(task_name: str, args: Sequence[Any], reason: str) -> bool:
    """Mark the row of this task's arguments failed; False when the task owns no row.

    The row may still be locked by the task's own transaction (a time limit cuts a task off in
    the middle of its work, and its connection goes only when its process does): each try waits
    at most the lock timeout, and a few tries follow, so this never waits for ever.
    """
    failer = _FAILERS.get(task_name)
    if failer is None:
        return False
    for attempt in range(1, ATTEMPTS + 1):
        unit = UnitOfWork(bounded=True)
        try:
            failer(unit.session, args, reason)
            unit.commit()
        except OperationalError:
            unit.abort()
            if attempt == ATTEMPTS:
                raise
            time.sleep(RETRY_SECONDS)
            continue
        except BaseException:
            unit.abort()
            raise
        log.warning("%s%s gave up: %s", task_name, tuple(args), reason)
        return True
    return False
