"""Readiness: PostgreSQL, Redis and the Celery broker each answer, within a bounded time.

The checks run side by side in threads with one deadline, so a dependency that hangs (rather
than refusing) makes `/readyz` answer 503 in about `timeout` seconds instead of never.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import redis
from kombu import Connection
from redis.backoff import NoBackoff
from redis.retry import Retry
from sqlalchemy import Engine, text

from app.cache import redis_client_url
from app.db import get_engine
from app.queues import configured_broker_url
from app.settings import get_settings

Check = Callable[[], None]

OK = "ok"

# Shared by all probes: a check stuck past its deadline keeps one thread busy until its own
# socket timeout, never the request.
_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="readyz")


@dataclass
class ReadinessProbe:
    """Named checks; each returns when its dependency answered and raises when it did not."""

    checks: dict[str, Check] = field(default_factory=dict)
    timeout: float = 2.0

    def run(self) -> dict[str, str]:
        """`{name: "ok" | what went wrong}`, in the order the checks were given."""
        futures = {name: _pool.submit(check) for name, check in self.checks.items()}
        wait(futures.values(), timeout=self.timeout)
        results = {}
        for name, future in futures.items():
            if not future.done():
                results[name] = f"no answer within {self.timeout:g} s"
            elif (error := future.exception()) is not None:
                # The first line only: SQLAlchemy appends its SQL and a link to its docs.
                reason = (str(error).strip().splitlines() or [""])[0][:200]
                results[name] = f"{type(error).__name__}: {reason}"
            else:
                results[name] = OK
        return results


def database_check(engine_factory: Callable[[], Engine]) -> Check:
    def check() -> None:
        with engine_factory().connect() as connection:
            connection.execute(text("SELECT 1"))

    return check


def redis_check(url_factory: Callable[[], str], timeout: float = 1.0) -> Check:
    """PING on a connection of its own without retries: the shared client retries with backoff
    for seconds, which is right for the cache and wrong for a probe."""

    def check() -> None:
        client = redis.Redis.from_url(
            redis_client_url(url_factory()),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )
        try:
            if not client.ping():
                raise ConnectionError("PING had no PONG")
        finally:
            client.close()

    return check


def broker_check(url_factory: Callable[[], str], timeout: float = 1.0) -> Check:
    """Opens a connection to the broker the way Celery does (kombu), with no retry."""

    def check() -> None:
        with Connection(
            url_factory(),
            connect_timeout=timeout,
            transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
        ) as connection:
            connection.ensure_connection(max_retries=0, timeout=timeout)

    return check


def default_probe() -> ReadinessProbe:
    """The checks of this process's configured services (a FastAPI dependency: tests override
    it to point an app at services that are down)."""

    def configured_redis() -> str:
        url = get_settings().redis_url
        if url is None:
            raise RuntimeError("DOSSIER_REDIS_URL is not set")
        return url

    return ReadinessProbe(
        {
            "postgresql": database_check(get_engine),
            "redis": redis_check(configured_redis),
            "broker": broker_check(_configured_broker),
        }
    )


def _configured_broker() -> str:
    """RabbitMQ when `DOSSIER_BROKER_URL` is set, else the Redis that also holds the cache."""
    url = configured_broker_url(get_settings())
    if url is None:
        raise RuntimeError("neither DOSSIER_BROKER_URL nor DOSSIER_REDIS_URL is set")
    return url
