"""Redis cache of hot subjects (cache-aside).

Entries are keyed by the subject's version, which moves on every write, so an entry can never be
stale: a write only makes the old key unreachable (and deletes it to free memory). PostgreSQL is
the truth; when Redis is down the cache answers "miss" and writes nothing, and the API goes on.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.settings import get_settings

log = logging.getLogger(__name__)


def redis_client_url(url: str) -> str:
    """redis-py names a unix socket `unix://`; Celery's form `redis+socket://` is accepted too."""
    if url.startswith("redis+socket://"):
        return "unix://" + url.removeprefix("redis+socket://")
    return url


@lru_cache
def get_redis() -> redis.Redis:
    url = get_settings().redis_url
    if url is None:
        raise RuntimeError("DOSSIER_REDIS_URL is not set and no embedded Redis was started")
    # No retries: a cache that is down must cost a request one refused connection, not the
    # seconds of redis-py's default retry and backoff (PostgreSQL answers instead).
    return redis.Redis.from_url(
        redis_client_url(url),
        socket_timeout=0.5,
        socket_connect_timeout=0.5,
        retry=Retry(NoBackoff(), 0),
    )


class SubjectCache:
    """Cache-aside store for a subject's memory and derived data (recall indexes)."""

    def __init__(self, client: redis.Redis, ttl_seconds: int) -> None:
        self._redis = client
        self._ttl = ttl_seconds

    KINDS = ("memory", "recall", "vectors")

    @staticmethod
    def key(tenant_id: str, subject_pk: int, version: int, kind: str = "memory") -> str:
        """Keyed by the subject's row id, never reused, so a deleted and re-created subject of
        the same name can never meet the old one's entries."""
        return f"dossier:{kind}:{tenant_id}:{subject_pk}:v{version}"

    def get_json(self, key: str) -> Any | None:
        raw = self.get_bytes(key)
        return None if raw is None else json.loads(raw)

    def set_json(self, key: str, value: Any) -> None:
        self.set_bytes(key, json.dumps(value, ensure_ascii=False).encode())

    def get_bytes(self, key: str) -> bytes | None:
        try:
            value = self._redis.get(key)
        except redis.RedisError as exc:
            log.warning("cache unavailable, reading from PostgreSQL: %s", exc)
            return None
        return value if isinstance(value, bytes) else None

    def set_bytes(self, key: str, value: bytes) -> None:
        try:
            self._redis.set(key, value, ex=self._ttl)
        except redis.RedisError as exc:
            log.warning("cache unavailable, not caching: %s", exc)

    def drop_version(self, tenant_id: str, subject_pk: int, version: int) -> None:
        """Free the entries of a version that a write just made unreachable."""
        keys = [self.key(tenant_id, subject_pk, version, kind) for kind in self.KINDS]
        try:
            self._redis.delete(*keys)
        except redis.RedisError as exc:
            # Unreachable anyway (keys carry the version); they expire on their own.
            log.warning("cache unavailable, old entries will expire: %s", exc)


def get_subject_cache() -> SubjectCache:
    return SubjectCache(get_redis(), get_settings().cache_ttl_seconds)
