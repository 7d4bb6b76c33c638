"""Recall indexes and line vectors, built once per subject version and kept in this process
and in Redis.

A version never changes once written, so an index cached under it is never stale; a process
that has not seen the subject yet takes the index from Redis instead of rebuilding it. Vectors
are cached the same way, under the model that made them. Vectors with lines still waiting for
theirs (a model change being re-embedded, app.embeddings.refresh) are kept here for
`DOSSIER_EMBEDDING_PARTIAL_SECONDS` only and not shared, so recall picks up the new vectors
soon after they land.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache

from app.bounded_cache import BoundedCache
from app.cache import SubjectCache, get_subject_cache
from app.embeddings.vectors import CorruptVectors, LineVectors
from app.recall.index import CorruptIndex, RecallIndex, build_index
from app.settings import get_settings

log = logging.getLogger(__name__)

Cached = RecallIndex | LineVectors


class RecallIndexCache:
    def __init__(self, shared: SubjectCache, max_bytes: int, partial_seconds: float) -> None:
        self._shared = shared
        self._partial_seconds = partial_seconds
        self._local: BoundedCache[str, Cached] = BoundedCache(max_bytes, lambda v: v.nbytes)

    def get(self, tenant_id: str, subject_pk: int, version: int, lines: list[str]) -> RecallIndex:
        key = self._shared.key(tenant_id, subject_pk, version, kind="recall")
        index = self._local.get(key)
        if isinstance(index, RecallIndex):
            return index
        index = self._from_shared(key)
        if index is None or index.line_count != len(lines):
            index = build_index(lines)
            self._shared.set_bytes(key, index.to_bytes())
        self._local.put(key, index)
        return index

    def vectors(
        self,
        tenant_id: str,
        subject_pk: int,
        version: int,
        *,
        model: str,
        dims: int,
        line_count: int,
        load: Callable[[], LineVectors],
    ) -> LineVectors:
        """The subject's line vectors at `version` under `model`; `load()` on a miss."""
        key = self._shared.key(tenant_id, subject_pk, version, kind="vectors")
        local_key = f"{key}:{model}"
        cached = self._local.get(local_key)
        if isinstance(cached, LineVectors):
            return cached
        vectors = self._vectors_from_shared(key)
        if (
            vectors is None
            or vectors.model != model
            or vectors.dims != dims
            or len(vectors.matrix) != line_count
        ):
            vectors = load()
            if vectors.missing:
                self._local.put(local_key, vectors, ttl_seconds=self._partial_seconds)
                return vectors
            self._shared.set_bytes(key, vectors.to_bytes())
        self._local.put(local_key, vectors)
        return vectors

    def _from_shared(self, key: str) -> RecallIndex | None:
        raw = self._shared.get_bytes(key)
        if raw is None:
            return None
        try:
            return RecallIndex.from_bytes(raw)
        except CorruptIndex as unreadable:
            # after an upgrade of the index format this reads "unknown recall index version"
            log.warning("recall index in the cache unreadable (%s); rebuilding it", unreadable)
            return None

    def _vectors_from_shared(self, key: str) -> LineVectors | None:
        raw = self._shared.get_bytes(key)
        if raw is None:
            return None
        try:
            return LineVectors.from_bytes(raw)
        except CorruptVectors as unreadable:
            log.warning("line vectors in the cache unreadable (%s); loading them again", unreadable)
            return None


@lru_cache
def shared_indexes() -> RecallIndexCache:
    """One per process, so a subject's index is built once per version."""
    settings = get_settings()
    return RecallIndexCache(
        get_subject_cache(),
        settings.recall_cache_mb * 1024 * 1024,
        settings.embedding_partial_seconds,
    )
