"""The Celery app: queues, routes, reliability settings and the beat schedule.

Tasks are acknowledged late and rejected when their worker dies, so a task whose worker was killed
runs again on another; every task is therefore written to be safe to run twice.

Two brokers: Redis (the embedded default, and the cache's own server) and RabbitMQ
(`DOSSIER_BROKER_URL=amqp://…`). With Redis an unacknowledged task comes back only after the
visibility timeout; with RabbitMQ it comes back as soon as its worker's connection drops.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from kombu import Exchange, Queue

from app.jobs.names import (
    ACCOUNT_DELETIONS,
    EMBEDDINGS_SWEEP,
    EXPIRE_BATCHES,
    EXPORT_SWEEP,
    IDEMPOTENCY_SWEEP,
    KNOWLEDGE_SWEEP,
    REEXTRACT_SWEEP,
    RETENTION_SWEEP,
)
from app.queues import QUEUES, TASK_ROUTES, configured_broker_url, is_amqp
from app.settings import Settings, get_settings

SOFT_SHUTDOWN_SECONDS = 10.0
"""A stopping worker lets its running task finish this long, then hands it back to the broker."""


UNACKED_MUTEX_SECONDS = 10
"""How long a restore scan's lock in Redis outlives a worker killed while holding it."""


def _queues(amqp: bool) -> list[Queue]:
    if not amqp:
        return [Queue(name, Exchange(name), routing_key=name) for name in QUEUES]
    # Quorum queues are replicated and durable, and redeliver a message whose consumer died.
    # Topic exchanges: Celery's native delayed delivery (a retry's countdown on quorum queues)
    # binds to topic exchanges only.
    return [
        Queue(
            name,
            Exchange(name, type="topic"),
            routing_key=name,
            queue_arguments={"x-queue-type": "quorum"},
        )
        for name in QUEUES
    ]


def broker_transport_options(settings: Settings, amqp: bool) -> dict[str, Any]:
    if amqp:
        # The broker confirms every publish: the outbox marks a job sent only once it is stored.
        return {"confirm_publish": True}
    return {
        # Above the longest task, so Redis never hands a running task to a second worker.
        "visibility_timeout": settings.task_time_limit_seconds * 2,
        # A Redis that does not answer (not only one that refuses) fails a publish in seconds.
        "socket_timeout": 5,
        "socket_connect_timeout": 5,
        # Look for tasks of dead workers every 5 s (kombu's default scans every 100 s), so one
        # comes back soon after the visibility timeout, not up to 100 s later.
        "unacked_restore_interval": 5,
        "unacked_restore_throttle": 1,
        # The restore scan runs under a lock in Redis; a worker killed while it held it would
        # leave it for kombu's default 300 s, and no one would bring back a dead worker's tasks
        # for five minutes. A scan takes milliseconds.
        "unacked_mutex_expire": UNACKED_MUTEX_SECONDS,
    }


def celery_config() -> dict[str, Any]:
    settings = get_settings()
    limit = settings.task_time_limit_seconds
    url = configured_broker_url(settings)
    amqp = is_amqp(url)
    config: dict[str, Any] = {
        "broker_url": url,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_time_limit": limit,
        "task_soft_time_limit": limit - min(30, limit // 10 or 1),
        "broker_transport_options": broker_transport_options(settings, amqp),
        # A publish that cannot reach the broker fails within about a second: an outbox job
        # stays in the outbox for the relay's next sweep. A few quick tries ride out a blip,
        # which matters for a task's own retry (Celery drops a retry it could not publish).
        "task_publish_retry": True,
        "task_publish_retry_policy": {
            "max_retries": 2,
            "interval_start": 0,
            "interval_step": 0.5,
            "interval_max": 1,
        },
        "broker_connection_timeout": 2.0,
        "worker_soft_shutdown_timeout": SOFT_SHUTDOWN_SECONDS,
        "worker_enable_soft_shutdown_on_idle": False,
        "task_queues": _queues(amqp),
        "task_default_queue": "decisions",
        "task_routes": TASK_ROUTES,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        "beat_schedule": {
            "expire-batches": {
                "task": EXPIRE_BATCHES,
                "schedule": settings.batch_sweep_seconds,
            },
            "knowledge-sweep": {
                "task": KNOWLEDGE_SWEEP,
                "schedule": settings.knowledge_sweep_seconds,
            },
            "knowledge-reextract": {
                "task": REEXTRACT_SWEEP,
                "schedule": settings.reextract_sweep_seconds,
            },
            "embeddings-refresh": {
                "task": EMBEDDINGS_SWEEP,
                "schedule": settings.embedding_sweep_seconds,
            },
            "retention-sweep": {
                "task": RETENTION_SWEEP,
                "schedule": settings.retention_sweep_seconds,
            },
            "export-sweep": {
                "task": EXPORT_SWEEP,
                "schedule": settings.export_sweep_seconds,
            },
            "idempotency-sweep": {
                "task": IDEMPOTENCY_SWEEP,
                "schedule": settings.idempotency_sweep_seconds,
            },
            "account-deletions": {
                "task": ACCOUNT_DELETIONS,
                "schedule": settings.account_deletion_sweep_seconds,
            },
        },
    }
    if amqp:
        # Quorum queues have no global prefetch; Celery then counts prefetch per consumer.
        config["worker_detect_quorum_queues"] = True
    return config


def make_celery() -> Celery:
    app = Celery(
        "dossier",
        # By name: Celery imports it when the first task is made (it needs the database).
        task_cls="app.jobs.task:DossierTask",
        include=[
            "workers.batches",
            "workers.passes",
            "workers.knowledge",
            "workers.facts",
            "workers.documents",
            "workers.learning",
            "workers.erasure",
            "workers.account",
            "workers.exports",
            "workers.idempotency",
            "workers.embeddings",
        ],
    )
    # A module path is imported when Celery first needs its configuration, not now, so a process
    # that sets its services up first (the embedded default, the tests) configures Celery with them.
    app.config_from_object("app.jobs.celeryconfig")
    return app


celery_app = make_celery()
