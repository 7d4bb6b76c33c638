"""Recall indexes, built once per subject version and kept in this process and in Redis.

A version never changes once written, so an index cached under it is never stale; a process
that has not seen the subject yet takes the index from Redis instead of rebuilding it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from functools import lru_cache

from app.cache import SubjectCache, get_subject_cache
from app.recall.engine import CorruptIndex, RecallIndex, build_index

log = logging.getLogger(__name__)


class RecallIndexCache:
    def __init__(self, shared: SubjectCache, capacity: int = 256) -> None:
        self._shared = shared
        self._local: OrderedDict[str, RecallIndex] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, tenant_id: str, subject_pk: int, version: int, lines: list[str]) -> RecallIndex:
        key = self._shared.key(tenant_id, subject_pk, version, kind="recall")
        with self._lock:
            index = self._local.get(key)
            if index is not None:
                self._local.move_to_end(key)
                return index
        index = self._from_shared(key)
        if index is None or index.line_count != len(lines):
            index = build_index(lines)
            self._shared.set_bytes(key, index.to_bytes())
        with self._lock:
            self._local[key] = index
            while len(self._local) > self._capacity:
                self._local.popitem(last=False)
        return index

    def drop_subject(self, tenant_id: str, subject_pk: int) -> None:
        """Forget every local index of a subject at once (forget and delete call this)."""
        prefix = f"dossier:recall:{tenant_id}:{subject_pk}:"
        with self._lock:
            for key in [k for k in self._local if k.startswith(prefix)]:
                del self._local[key]

    def _from_shared(self, key: str) -> RecallIndex | None:
        raw = self._shared.get_bytes(key)
        if raw is None:
            return None
        try:
            return RecallIndex.from_bytes(raw)
        except CorruptIndex:
            log.warning("corrupt recall index in the cache; rebuilding it")
            return None


@lru_cache
def shared_indexes() -> RecallIndexCache:
    """One per process, so a subject's index is built once per version."""
    return RecallIndexCache(get_subject_cache())
