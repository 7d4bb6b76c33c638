"""SQL of documents: collections, documents and their chunks. No business rules here: those
live in the services."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from app.documents.models import Collection, Document, DocumentChunk
from app.embeddings.storage import StoredVectors
from app.knowledge.indexes import IndexRow


def collections_of(session: Session, tenant_id: uuid.UUID) -> list[Collection]:
    return list(
        session.scalars(
            select(Collection).where(Collection.tenant_id == tenant_id).order_by(Collection.id)
        )
    )


def collection_by_slug(
    session: Session, tenant_id: uuid.UUID, slug: str, *, lock: bool = False
) -> Collection | None:
    statement = select(Collection).where(Collection.tenant_id == tenant_id, Collection.slug == slug)
    if lock:
        statement = statement.with_for_update()
    return session.scalars(statement).first()


def collections_by_slugs(
    session: Session, tenant_id: uuid.UUID, slugs: Sequence[str]
) -> list[Collection]:
    return list(
        session.scalars(
            select(Collection).where(Collection.tenant_id == tenant_id, Collection.slug.in_(slugs))
        )
    )


def collection_named(
    session: Session, tenant_id: uuid.UUID, name: str, *, other_than: int
) -> Collection | None:
    """Another collection of the tenant with this display name, in any case."""
    return session.scalars(
        select(Collection).where(
            Collection.tenant_id == tenant_id,
            func.lower(Collection.name) == name.lower(),
            Collection.id != other_than,
        )
    ).first()


def delete_collection(session: Session, collection: Collection) -> None:
    """With its documents and chunks (cascade)."""
    session.delete(collection)


def delete_document(session: Session, doc: Document) -> None:
    """With its chunks (cascade)."""
    session.delete(doc)


def document(session: Session, collection_id: int, document_id: int) -> Document | None:
    return session.scalars(
        select(Document).where(Document.collection_id == collection_id, Document.id == document_id)
    ).first()


def lock_document(session: Session, document_id: int) -> Document | None:
    return session.scalars(
        select(Document).where(Document.id == document_id).with_for_update()
    ).first()


def documents_of(
    session: Session, collection_id: int, cursor: int | None, limit: int
) -> list[Document]:
    statement = select(Document).where(Document.collection_id == collection_id)
    if cursor is not None:
        statement = statement.where(Document.id < cursor)
    return list(session.scalars(statement.order_by(Document.id.desc()).limit(limit + 1)))


def chunk_texts(session: Session, collection_id: int) -> list[IndexRow]:
    """A collection's chunks, each with its stored vector and model."""
    rows = session.execute(
        select(
            DocumentChunk.id,
            DocumentChunk.text,
            DocumentChunk.embedding,
            DocumentChunk.embedding_model,
        )
        .where(DocumentChunk.collection_id == collection_id)
        .order_by(DocumentChunk.id)
    ).all()
    return [(row[0], row[1], row[2], row[3]) for row in rows]


def chunks_of(session: Session, document_id: int) -> list[DocumentChunk]:
    return list(
        session.scalars(
            select(DocumentChunk)
            .where(DocumentChunk.document_id == document_id)
            .order_by(DocumentChunk.position)
        )
    )


def chunks_by_ids(session: Session, ids: Sequence[int]) -> list[tuple[DocumentChunk, Document]]:
    if not ids:
        return []
    rows = session.execute(
        select(DocumentChunk, Document)
        .join(Document, Document.id == DocumentChunk.document_id)
        .where(DocumentChunk.id.in_(ids))
    ).all()
    return [(row[0], row[1]) for row in rows]


def replace_chunks(
    session: Session, doc: Document, chunks: Sequence[tuple[str, int]], vectors: StoredVectors
) -> None:
    session.execute(delete(DocumentChunk).where(DocumentChunk.document_id == doc.id))
    if chunks:
        session.execute(
            pg_insert(DocumentChunk).values(
                [
                    {
                        "document_id": doc.id,
                        "collection_id": doc.collection_id,
                        "position": n,
                        "text": text,
                        "tokens": tokens,
                        "embedding": vector,
                        "embedding_model": vectors.model if vector is not None else None,
                    }
                    for n, ((text, tokens), vector) in enumerate(
                        zip(chunks, vectors.vectors, strict=True)
                    )
                ]
            )
        )


def ready_documents_exist(
    session: Session, collection_ids: Sequence[int] | None, tenant_id: uuid.UUID
) -> bool:
    statement = select(Document.id).where(
        Document.tenant_id == tenant_id, Document.status == "ready"
    )
    if collection_ids is not None:
        statement = statement.where(Document.collection_id.in_(collection_ids))
    return session.scalar(statement.limit(1)) is not None


def stored_tokens(session: Session) -> list[tuple[uuid.UUID, int]]:
    rows = session.execute(
        select(Document.tenant_id, func.coalesce(func.sum(Document.tokens), 0))
        .where(Document.status == "ready")
        .group_by(Document.tenant_id)
    ).all()
    return [(row[0], int(row[1])) for row in rows]


def bump(collection: Collection) -> None:
    """Move the collection's version: no cached index of its chunks is read again."""
    collection.version = collection.version + 1


def lock_collection(session: Session, collection_id: int) -> Collection | None:
    return session.scalars(
        select(Collection).where(Collection.id == collection_id).with_for_update()
    ).first()


def add_collection(session: Session, tenant_id: uuid.UUID, slug: str, name: str) -> Collection:
    collection = Collection(tenant_id=tenant_id, slug=slug, name=name)
    session.add(collection)
    session.flush()
    return collection


def document_counts(session: Session, tenant_id: uuid.UUID) -> dict[int, int]:
    """Documents of each of the tenant's collections, by collection id."""
    return dict(
        session.execute(
            select(Document.collection_id, func.count())
            .where(Document.tenant_id == tenant_id)
            .group_by(Document.collection_id)
        ).all()
    )


def count_documents(session: Session, collection_id: int) -> int:
    return int(
        session.scalar(
            select(func.count())
            .select_from(Document)
            .where(Document.collection_id == collection_id)
        )
        or 0
    )


def count_documents_of(session: Session, tenant_id: uuid.UUID) -> int:
    return int(
        session.scalar(
            select(func.count()).select_from(Document).where(Document.tenant_id == tenant_id)
        )
        or 0
    )


def has_collections(session: Session, tenant_id: uuid.UUID) -> bool:
    found = select(Collection.id).where(Collection.tenant_id == tenant_id).limit(1)
    return session.scalar(found) is not None


def delete_collections_of(session: Session, tenant_id: uuid.UUID) -> int:
    """Every collection of the tenant, with its documents and chunks (cascade)."""
    collections = session.execute(
        delete(Collection).where(Collection.tenant_id == tenant_id).returning(Collection.id)
    ).all()
    return len(collections)
