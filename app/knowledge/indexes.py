"""Recall indexes (and line vectors) of a user's current facts and of a collection's chunks,
cached like subject indexes (app.recall.cache): in this process and in Redis, under keys that
carry the version (and, for facts, the day: a span can start or end overnight), so a cached
index is never stale.

Each entry holds the index, the row ids of its lines and, with meaning on, their vectors, so
a query that hits the cache reads only its hits' rows from PostgreSQL. Vectors with rows still
waiting for theirs are kept here briefly and not shared (see app.recall.cache).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

import redis
from pydantic import TypeAdapter

from app.bounded_cache import BoundedCache
from app.cache import get_redis
from app.embeddings import Embedder
from app.embeddings.vectors import CorruptVectors, LineVectors
from app.errors import ServiceUnavailable
from app.recall.index import CorruptIndex, RecallIndex, build_index
from app.settings import get_settings

log = logging.getLogger(__name__)

IndexRow = tuple[int, str, bytes | None, str | None]
"""What a search index is built from: (row id, text, stored vector, model that made it)."""

ROW_IDS = TypeAdapter(list[int])
"""The row ids of an index's lines, as stored beside it in Redis (JSON)."""

Loader = Callable[[], list[IndexRow]]


@dataclass(frozen=True, slots=True)
class Entry:
    """A source's recall index, the row ids of its lines, and their vectors (None: meaning
    off)."""

    index: RecallIndex
    ids: list[int]
    vectors: LineVectors | None

    @property
    def nbytes(self) -> int:
        vectors = self.vectors.nbytes if self.vectors is not None else 0
        return self.index.nbytes + 8 * len(self.ids) + vectors


def facts_key(tenant_id: str, user_pk: int, version: int, today: date) -> str:
    return f"dossier:kfacts:{tenant_id}:{user_pk}:v{version}:{today.isoformat()}"


def user_prefix(tenant_id: str, user_pk: int) -> str:
    return f"dossier:kfacts:{tenant_id}:{user_pk}:"


def chunks_key(tenant_id: str, collection_pk: int, version: int) -> str:
    return f"dossier:kdocs:{tenant_id}:{collection_pk}:v{version}"


def collection_prefix(tenant_id: str, collection_pk: int) -> str:
    return f"dossier:kdocs:{tenant_id}:{collection_pk}:"


class KnowledgeIndexes:
    def __init__(
        self,
        client: redis.Redis,
        ttl_seconds: int,
        max_bytes: int,
        partial_seconds: float = 30.0,
    ) -> None:
        self._redis = client
        self._ttl = ttl_seconds
        self._partial_seconds = partial_seconds
        self._local: BoundedCache[str, Entry] = BoundedCache(max_bytes, lambda e: e.nbytes)

    def get(self, key: str, load: Loader, embedder: Embedder | None = None) -> Entry:
        """The entry under `key`, with vectors of `embedder`'s model when one is given;
        built from `load()` on a miss."""
        local_key = f"{key}:{embedder.name if embedder else 'words'}"
        entry = self._local.get(local_key)
        if entry is not None:
            return entry
        entry = self._from_shared(key, embedder)
        if entry is None:
            rows = load()
            vectors = None
            if embedder is not None:
                stored = [(vector, model) for _, _, vector, model in rows]
                vectors = LineVectors.from_stored(stored, embedder.name, embedder.dims)
            entry = Entry(build_index([row[1] for row in rows]), [row[0] for row in rows], vectors)
            if vectors is not None and vectors.missing:
                self._local.put(local_key, entry, ttl_seconds=self._partial_seconds)
                return entry
            self._to_shared(key, entry)
        self._local.put(local_key, entry)
        return entry

    def drop(self, prefix: str) -> int:
        """Remove every entry under `prefix`, here and in Redis; returns the Redis keys
        removed. Raises redis errors: erasure must know when it could not reach Redis."""
        self._local.drop_where(lambda key: key.startswith(prefix))
        keys = list(self._redis.scan_iter(match=prefix + "*", count=500))
        if keys:
            self._redis.delete(*keys)
        return len(keys)

    def _from_shared(self, key: str, embedder: Embedder | None) -> Entry | None:
        try:
            raw, ids, raw_vectors = self._redis.mget([key, key + ":ids", key + ":vec"])
        except redis.RedisError as exc:
            log.warning("cache unavailable, building the knowledge index: %s", exc)
            return None
        if not isinstance(raw, bytes) or not isinstance(ids, bytes):
            return None
        try:
            index = RecallIndex.from_bytes(raw)
            vectors = None
            if embedder is not None:
                if not isinstance(raw_vectors, bytes):
                    return None
                vectors = LineVectors.from_bytes(raw_vectors)
                if (
                    vectors.model != embedder.name
                    or vectors.dims != embedder.dims
                    or len(vectors.matrix) != index.line_count
                ):
                    return None
        except (CorruptIndex, CorruptVectors):
            log.warning("corrupt knowledge index in the cache; rebuilding it")
            return None
        row_ids = ROW_IDS.validate_json(ids)
        if len(row_ids) != index.line_count:
            return None
        return Entry(index, row_ids, vectors)

    def _to_shared(self, key: str, entry: Entry) -> None:
        try:
            pipe = self._redis.pipeline()
            pipe.set(key, entry.index.to_bytes(), ex=self._ttl)
            pipe.set(key + ":ids", ROW_IDS.dump_json(entry.ids), ex=self._ttl)
            if entry.vectors is not None:
                pipe.set(key + ":vec", entry.vectors.to_bytes(), ex=self._ttl)
            pipe.execute()
        except redis.RedisError as exc:
            log.warning("cache unavailable, not caching the knowledge index: %s", exc)


@lru_cache
def knowledge_indexes() -> KnowledgeIndexes:
    """One per process."""
    settings = get_settings()
    return KnowledgeIndexes(
        get_redis(),
        settings.cache_ttl_seconds,
        settings.recall_cache_mb * 1024 * 1024,
        settings.embedding_partial_seconds,
    )


def drop_or_refuse(indexes: KnowledgeIndexes, prefix: str) -> int:
    """Drop the cached indexes under `prefix` before facts are deleted; an unreachable cache
    refuses the deletion (503), so no cached index serves what was meant to be gone."""
    try:
        return indexes.drop(prefix)
    except redis.RedisError as exc:
        raise ServiceUnavailable(
            "the cache could not be reached to remove cached knowledge; nothing was "
            "deleted, try again",
            code="cache_unavailable",
        ) from exc


def drop_collection_caches(indexes: KnowledgeIndexes, tenant_id: str, collection_pk: int) -> None:
    """A collection's old indexes carry its old version in their keys, so one left behind when
    the cache is down is never read: it expires on its own."""
    try:
        indexes.drop(collection_prefix(tenant_id, collection_pk))
    except redis.RedisError as exc:
        log.warning("cache unavailable; old collection indexes expire on their own: %s", exc)
