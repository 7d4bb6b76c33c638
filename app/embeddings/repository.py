"""SQL of re-embedding: rows whose vector is not of the current model, counted, taken in
chunks and given their vector.

Textual SQL over the three tables that hold vectors (`TABLES`): one statement shape for all of
them, the table's name chosen from that fixed list, never from input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import Connection, Row, text
from sqlalchemy.orm import Session

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


def lock_waiting(
    session: Session, table: Table, model: str, *, after: int, limit: int
) -> Sequence[Row[Any]]:
    """Up to `limit` rows of `table` with ids above `after` whose vector is not of `model`, as
    (id, text), locked, skipping rows another worker (or a writer) holds."""
    params = {"model": model, "limit": limit, "after": after}
    return session.execute(text(_WAITING[table]), params).all()


def store_vectors(
    session: Session, table: Table, model: str, vectors: Sequence[tuple[int, bytes]]
) -> None:
    """Each (id, vector) of `table`, marked as `model`'s."""
    session.execute(
        text(f"UPDATE {table} SET embedding = :vector, embedding_model = :model WHERE id = :id"),
        [{"id": id_, "vector": vector, "model": model} for id_, vector in vectors],
    )
