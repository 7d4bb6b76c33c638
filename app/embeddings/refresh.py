"""Re-embedding: rows without a vector of the current model get one, a chunk at a time.

Rows written before meaning was on, under another model (DOSSIER_EMBEDDINGS or
DOSSIER_EMBEDDING_MODEL changed), or by a slow encoder that is not run inline, wait here. The
`embeddings` queue takes them in chunks of `DOSSIER_EMBEDDING_CHUNK` rows, each chunk its own
transaction with its rows locked (SKIP LOCKED: two workers share the work, and a row being
rewritten meanwhile is done after its writer commits). Recall reads what is there meanwhile:
a row without its vector is found by words (`meaning_partial` on a decision).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from app.embeddings.base import Embedder, to_stored

Table = Literal["lines", "facts", "document_chunks"]
TABLES: tuple[Table, ...] = ("lines", "facts", "document_chunks")


def waiting(session: Session | Connection, model: str) -> dict[str, int]:
    """Rows per table whose vector is not of `model` (none, or another model's)."""
    return {
        table: session.execute(
            text(f"SELECT count(*) FROM {table} WHERE embedding_model IS DISTINCT FROM :model"),
            {"model": model},
        ).scalar_one()
        for table in TABLES
    }


# What each table's vector is made of (a chunk under its document's title, as
# app.embeddings.storage.passage_for_meaning makes it when written).
_WAITING = {
    "lines": (
        "SELECT id, text FROM lines WHERE id > :after "
        "AND embedding_model IS DISTINCT FROM :model "
        "ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED"
    ),
    "facts": (
        "SELECT id, text FROM facts WHERE id > :after "
        "AND embedding_model IS DISTINCT FROM :model "
        "ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED"
    ),
    "document_chunks": (
        "SELECT c.id, d.title || E'\\n' || c.text AS text FROM document_chunks c "
        "JOIN documents d ON d.id = c.document_id "
        "WHERE c.id > :after AND c.embedding_model IS DISTINCT FROM :model "
        "ORDER BY c.id LIMIT :limit FOR UPDATE OF c SKIP LOCKED"
    ),
}


def refresh_chunk(
    session: Session, embedder: Embedder, table: Table, limit: int, after: int = 0
) -> tuple[int, int]:
    """Embed up to `limit` waiting rows of `table` with ids above `after`; returns how many
    were done and the last id (the next chunk starts after it, so a long re-embed never
    walks the rows it already did)."""
    params = {"model": embedder.name, "limit": limit, "after": after}
    rows = session.execute(text(_WAITING[table]), params).all()
    if not rows:
        return 0, after
    vectors = to_stored(embedder.encode([row.text for row in rows]))
    session.execute(
        text(f"UPDATE {table} SET embedding = :vector, embedding_model = :model WHERE id = :id"),
        [
            {"id": row.id, "vector": vector, "model": embedder.name}
            for row, vector in zip(rows, vectors, strict=True)
        ],
    )
    return len(rows), rows[-1].id
