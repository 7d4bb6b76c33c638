"""The Celery app: queues, routes, reliability settings and the beat schedule.

Tasks are acknowledged late and rejected when their worker dies, so a task whose worker was killed
runs again on another; every task is therefore written to be safe to run twice.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from kombu import Exchange, Queue

from app.settings import get_settings

# "scheduled" holds beat's sweeps, so an expiry never waits behind a large batch's chunks.
QUEUES = ("decisions", "passes", "extraction", "ingest", "erasure", "scheduled")

# Task names are stable dotted names; the first segment after "dossier." picks the queue.
TASK_ROUTES = {
    f"dossier.{name}.*": {"queue": name, "exchange": name, "routing_key": name} for name in QUEUES
}


def broker_url(redis_url: str) -> str:
    """Celery names a Redis unix socket `redis+socket://`; redis-py names it `unix://`."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def celery_config() -> dict[str, Any]:
    settings = get_settings()
    limit = settings.task_time_limit_seconds
    return {
        "broker_url": broker_url(settings.redis_url) if settings.redis_url else None,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_time_limit": limit,
        "task_soft_time_limit": limit - min(30, limit // 10 or 1),
        # Above the longest task, so Redis never hands a running task to a second worker.
        "broker_transport_options": {"visibility_timeout": limit * 2},
        "task_queues": [Queue(name, Exchange(name), routing_key=name) for name in QUEUES],
        "task_default_queue": "decisions",
        "task_routes": TASK_ROUTES,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        "beat_schedule": {
            "expire-batches": {
                "task": "dossier.scheduled.expire_batches",
                "schedule": settings.batch_sweep_seconds,
            },
            "knowledge-sweep": {
                "task": "dossier.scheduled.knowledge_sweep",
                "schedule": settings.knowledge_sweep_seconds,
            },
            "knowledge-reextract": {
                "task": "dossier.scheduled.reextract",
                "schedule": settings.reextract_sweep_seconds,
            },
            "retention-sweep": {
                "task": "dossier.scheduled.retention_sweep",
                "schedule": settings.retention_sweep_seconds,
            },
        },
    }


def make_celery() -> Celery:
    app = Celery(
        "dossier",
        include=[
            "workers.memory",
            "workers.batches",
            "workers.passes",
            "workers.knowledge",
            "workers.learning",
            "workers.erasure",
        ],
    )
    # A module path is imported when Celery first needs its configuration, not now, so a process
    # that sets its services up first (the embedded default, the tests) configures Celery with them.
    app.config_from_object("workers.celeryconfig")
    return app


celery_app = make_celery()

# Logs and metrics of the worker, through Celery's signals (connected once the app exists).
import workers.observability  # noqa: E402, F401
