"""An in-process LRU bounded by bytes, with an optional lifetime per entry.

Recall indexes and their vectors are kept per process (app.recall.cache,
app.knowledge.indexes); a 10,000-line subject's entry is ~15 MB, a 20-line one a few KB, so
a count of entries bounds nothing. Thread-safe: requests run in threads.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """Least recently used entries go first once their sizes (`size_of`) pass `max_bytes`."""

    def __init__(self, max_bytes: int, size_of: Callable[[V], int]) -> None:
        self._entries: OrderedDict[K, tuple[V, int, float | None]] = OrderedDict()
        self._max_bytes = max_bytes
        self._size_of = size_of
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        return self._bytes

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            value, size, expires = entry
            if expires is not None and time.monotonic() >= expires:
                del self._entries[key]
                self._bytes -= size
                return None
            self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V, *, ttl_seconds: float | None = None) -> None:
        """Keep `value` (an entry larger than the whole budget is not kept)."""
        size = self._size_of(value)
        expires = None if ttl_seconds is None else time.monotonic() + ttl_seconds
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self._max_bytes:
                return
            self._entries[key] = (value, size, expires)
            self._bytes += size
            while self._bytes > self._max_bytes:
                _, (_, dropped, _) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def drop_where(self, matches: Callable[[K], bool]) -> int:
        with self._lock:
            keys = [key for key in self._entries if matches(key)]
            for key in keys:
                self._bytes -= self._entries.pop(key)[1]
            return len(keys)
