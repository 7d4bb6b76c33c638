"""Vectors for rows being written: made inline by a fast embedder, or left to the queue.

A static model embeds 10,000 lines in about a tenth of a second, so a write stores its rows'
vectors in the same transaction. A sentence encoder is 100 times slower: its rows are written
without, and the `embeddings` queue fills them in (app.embeddings.refresh); recall uses their
words meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.embeddings.base import to_stored
from app.embeddings.loader import current_embedder
from app.jobs.names import REEMBED
from app.jobs.outbox import JobQueue


@dataclass(frozen=True, slots=True)
class StoredVectors:
    """One vector per text (or None each), and the model that made them."""

    vectors: Sequence[bytes | None]
    model: str | None


def passage_for_meaning(title: str, text: str) -> str:
    """What a document chunk's vector is made of: the chunk under its document's title, so a
    passage means what it means in its document ("Returns: within 30 days" is about refunds).
    The stored and searched text stays the chunk's own."""
    return f"{title}\n{text}"


def vectors_for_write(texts: Sequence[str], jobs: JobQueue) -> StoredVectors:
    embedder = current_embedder()
    if embedder is None or not texts:
        return StoredVectors([None] * len(texts), None)
    if not embedder.inline:
        jobs.add(REEMBED)
        return StoredVectors([None] * len(texts), None)
    return StoredVectors(to_stored(embedder.encode(texts)), embedder.name)
