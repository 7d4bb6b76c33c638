"""Where jobs go: the queue names, which task goes to which queue, and the broker's address.

Kept apart from the Celery app (`app.jobs.celery_app`) so code that only names or measures the
queues (metrics, readiness, the command line) does not load Celery.
"""

from __future__ import annotations

from app.settings import Settings

# "scheduled" holds beat's sweeps, so an expiry never waits behind a large batch's chunks.
# "embeddings" re-embeds rows after a model change, apart from requests' own work.
# "exports" writes organisation-wide archives, so a big tenant's export delays no erasure.
QUEUES = (
    "decisions",
    "passes",
    "extraction",
    "ingest",
    "erasure",
    "exports",
    "scheduled",
    "embeddings",
)

# Task names are stable dotted names; the first segment after "dossier." picks the queue.
TASK_ROUTES = {
    f"dossier.{name}.*": {"queue": name, "exchange": name, "routing_key": name} for name in QUEUES
}


def broker_url(redis_url: str) -> str:
    """Celery names a Redis unix socket `redis+socket://`; redis-py names it `unix://`."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def configured_broker_url(settings: Settings) -> str | None:
    """`DOSSIER_BROKER_URL` when set, else the Redis that also holds the cache."""
    if settings.broker_url:
        return settings.broker_url
    return broker_url(settings.redis_url) if settings.redis_url else None


def is_amqp(url: str | None) -> bool:
    return url is not None and url.split("://", 1)[0] in ("amqp", "amqps", "pyamqp")
