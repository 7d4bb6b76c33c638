"""The Celery app the workers run (`celery -A workers.celery:celery_app`): the shared app of
`app.jobs.celery_app`, plus the worker's logs, metrics and outbox relay through Celery's signals."""

from __future__ import annotations

# The worker's signal handlers: logs and metrics, the outbox sweep, rows of failed tasks.
import workers.failures  # noqa: F401
import workers.observability  # noqa: F401
import workers.relay  # noqa: F401
from app.jobs.celery_app import celery_app, make_celery

__all__ = ["celery_app", "make_celery"]
