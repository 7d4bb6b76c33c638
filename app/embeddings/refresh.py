"""Re-embedding: rows without a vector of the current model get one, a chunk at a time.

Rows written before meaning was on, under another model (DOSSIER_EMBEDDINGS or
DOSSIER_EMBEDDING_MODEL changed), or by a slow encoder that is not run inline, wait here. The
`embeddings` queue takes them in chunks of `DOSSIER_EMBEDDING_CHUNK` rows, each chunk its own
transaction with its rows locked (SKIP LOCKED: two workers share the work, and a row being
rewritten meanwhile is done after its writer commits). Recall reads what is there meanwhile:
a row without its vector is found by words (`meaning_partial` on a decision).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.embeddings.base import Embedder, to_stored
from app.embeddings.repository import TABLES, Table, lock_waiting, store_vectors

__all__ = ["TABLES", "refresh_chunk"]
"""`TABLES`: the tables a refresh walks, in order (their rows and SQL are the repository's)."""


def refresh_chunk(
    session: Session, embedder: Embedder, table: Table, limit: int, after: int = 0
) -> tuple[int, int]:
    """Embed up to `limit` waiting rows of `table` with ids above `after`; returns how many
    were done and the last id (the next chunk starts after it, so a long re-embed never
    walks the rows it already did)."""
    rows = lock_waiting(session, table, embedder.name, after=after, limit=limit)
    if not rows:
        return 0, after
    vectors = to_stored(embedder.encode([row.text for row in rows]))
    store_vectors(
        session,
        table,
        embedder.name,
        [(row.id, vector) for row, vector in zip(rows, vectors, strict=True)],
    )
    return len(rows), rows[-1].id
