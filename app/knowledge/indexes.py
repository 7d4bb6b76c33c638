"""Recall indexes of a user's current facts and of a collection's chunks, cached like subject
indexes (app.recall.cache): in this process and in Redis, under keys that carry the version
(and, for facts, the day: a span can start or end overnight), so a cached index is never stale.

Each entry holds the index and the row ids of its lines, so a query that hits the cache reads
only its hits' rows from PostgreSQL.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import date
from functools import lru_cache

import redis

from app.cache import get_redis
from app.recall.engine import CorruptIndex, RecallIndex, build_index
from app.settings import get_settings

log = logging.getLogger(__name__)

Loader = Callable[[], list[tuple[int, str]]]


def facts_key(tenant_id: str, user_pk: int, version: int, today: date) -> str:
    return f"dossier:kfacts:{tenant_id}:{user_pk}:v{version}:{today.isoformat()}"


def user_prefix(tenant_id: str, user_pk: int) -> str:
    return f"dossier:kfacts:{tenant_id}:{user_pk}:"


def chunks_key(tenant_id: str, collection_pk: int, version: int) -> str:
    return f"dossier:kdocs:{tenant_id}:{collection_pk}:v{version}"


def collection_prefix(tenant_id: str, collection_pk: int) -> str:
    return f"dossier:kdocs:{tenant_id}:{collection_pk}:"


class KnowledgeIndexes:
    def __init__(self, client: redis.Redis, ttl_seconds: int, capacity: int = 256) -> None:
        self._redis = client
        self._ttl = ttl_seconds
        self._local: OrderedDict[str, tuple[RecallIndex, list[int]]] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, key: str, load: Loader) -> tuple[RecallIndex, list[int]]:
        """The index under `key` and its lines' row ids; built from `load()` on a miss."""
        with self._lock:
            entry = self._local.get(key)
            if entry is not None:
                self._local.move_to_end(key)
                return entry
        entry = self._from_shared(key)
        if entry is None:
            rows = load()
            entry = (build_index([text for _, text in rows]), [row_id for row_id, _ in rows])
            self._to_shared(key, entry)
        with self._lock:
            self._local[key] = entry
            while len(self._local) > self._capacity:
                self._local.popitem(last=False)
        return entry

    def drop(self, prefix: str) -> int:
        """Remove every entry under `prefix`, here and in Redis; returns the Redis keys
        removed. Raises redis errors: erasure must know when it could not reach Redis."""
        with self._lock:
            for key in [k for k in self._local if k.startswith(prefix)]:
                del self._local[key]
        keys = list(self._redis.scan_iter(match=prefix + "*", count=500))
        if keys:
            self._redis.delete(*keys)
        return len(keys)

    def _from_shared(self, key: str) -> tuple[RecallIndex, list[int]] | None:
        try:
            raw, ids = self._redis.mget([key, key + ":ids"])
        except redis.RedisError as exc:
            log.warning("cache unavailable, building the knowledge index: %s", exc)
            return None
        if not isinstance(raw, bytes) or not isinstance(ids, bytes):
            return None
        try:
            index = RecallIndex.from_bytes(raw)
        except CorruptIndex:
            log.warning("corrupt knowledge index in the cache; rebuilding it")
            return None
        row_ids = json.loads(ids)
        if len(row_ids) != index.line_count:
            return None
        return index, row_ids

    def _to_shared(self, key: str, entry: tuple[RecallIndex, list[int]]) -> None:
        try:
            pipe = self._redis.pipeline()
            pipe.set(key, entry[0].to_bytes(), ex=self._ttl)
            pipe.set(key + ":ids", json.dumps(entry[1]).encode(), ex=self._ttl)
            pipe.execute()
        except redis.RedisError as exc:
            log.warning("cache unavailable, not caching the knowledge index: %s", exc)


@lru_cache
def knowledge_indexes() -> KnowledgeIndexes:
    """One per process."""
    return KnowledgeIndexes(get_redis(), get_settings().cache_ttl_seconds)
