"""SQL of end-user knowledge. No business rules here: those live in the services."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from app.embeddings.storage import StoredVectors
from app.knowledge.models import (
    Collection,
    Document,
    DocumentChunk,
    EndUser,
    ExtractionBatch,
    ExtractionTurn,
    Fact,
    KnowledgeSettings,
)

# Switch


def settings_row(
    session: Session, tenant_id: uuid.UUID, *, lock: bool = False
) -> KnowledgeSettings:
    session.execute(
        pg_insert(KnowledgeSettings)
        .values(tenant_id=tenant_id)
        .on_conflict_do_nothing(index_elements=[KnowledgeSettings.tenant_id])
    )
    statement = select(KnowledgeSettings).where(KnowledgeSettings.tenant_id == tenant_id)
    if lock:
        statement = statement.with_for_update()
    row = session.scalars(statement).one()
    return row


def is_enabled(session: Session, tenant_id: uuid.UUID) -> bool:
    return bool(
        session.scalar(
            select(KnowledgeSettings.enabled).where(KnowledgeSettings.tenant_id == tenant_id)
        )
    )


# End-users


def find_user(session: Session, tenant_id: uuid.UUID, name: str) -> EndUser | None:
    return session.scalars(
        select(EndUser).where(EndUser.tenant_id == tenant_id, EndUser.name == name)
    ).first()


def lock_user(session: Session, tenant_id: uuid.UUID, name: str, *, create: bool) -> EndUser | None:
    """The end-user's row, locked for this transaction: writers of one user's facts (requests,
    extraction, erasure) go one at a time."""
    if create:
        session.execute(
            pg_insert(EndUser)
            .values(tenant_id=tenant_id, name=name)
            .on_conflict_do_nothing(index_elements=[EndUser.tenant_id, EndUser.name])
        )
    return session.scalars(
        select(EndUser)
        .where(EndUser.tenant_id == tenant_id, EndUser.name == name)
        .with_for_update()
    ).first()


def lock_user_by_id(session: Session, user_id: int) -> EndUser | None:
    return session.scalars(select(EndUser).where(EndUser.id == user_id).with_for_update()).first()


def bump(row: EndUser | Collection) -> None:
    row.version = row.version + 1


# Facts


def current(today: date) -> Any:
    """Facts that hold on `today`: active, started, not ended."""
    return and_(
        Fact.status == "active",
        or_(Fact.valid_from.is_(None), Fact.valid_from <= today),
        or_(Fact.valid_until.is_(None), Fact.valid_until > today),
    )


def retired(today: date) -> Any:
    return or_(
        Fact.status == "retired",
        and_(Fact.valid_until.is_not(None), Fact.valid_until <= today),
    )


IndexRow = tuple[int, str, bytes | None, str | None]
"""What a search index is built from: (row id, text, stored vector, model that made it)."""


def retrievable_facts(session: Session, user_id: int, today: date) -> list[IndexRow]:
    """The facts search reads today, each with its stored vector and model."""
    rows = session.execute(
        select(Fact.id, Fact.text, Fact.embedding, Fact.embedding_model)
        .where(Fact.end_user_id == user_id, current(today))
        .order_by(Fact.id)
    ).all()
    return [(row[0], row[1], row[2], row[3]) for row in rows]


def active_facts(session: Session, user_id: int) -> list[Fact]:
    """Facts reconciliation compares against: every fact not retired (upcoming ones too)."""
    return list(
        session.scalars(
            select(Fact)
            .where(Fact.end_user_id == user_id, Fact.status == "active")
            .order_by(Fact.id)
        )
    )


def facts_by_ids(session: Session, ids: Sequence[int]) -> list[Fact]:
    if not ids:
        return []
    return list(session.scalars(select(Fact).where(Fact.id.in_(ids))))


def list_facts(
    session: Session,
    user_id: int,
    *,
    today: date,
    text: str | None,
    status: str,
    oldest_first: bool,
    cursor: int | None,
    limit: int,
) -> list[Fact]:
    statement = _with_status(select(Fact).where(Fact.end_user_id == user_id), status, today)
    if text:
        statement = statement.where(_contains(Fact.text, text))
    if cursor is not None:
        statement = statement.where(Fact.id > cursor if oldest_first else Fact.id < cursor)
    order = Fact.id.asc() if oldest_first else Fact.id.desc()
    return list(session.scalars(statement.order_by(order).limit(limit + 1)))


def tenant_facts(
    session: Session,
    tenant_id: uuid.UUID,
    *,
    today: date,
    text: str | None,
    user: str | None,
    status: str,
    sort: str,
    after: tuple[str, int] | None,
    limit: int,
) -> list[tuple[Fact, str]]:
    """Every end-user's facts with their end-user's id, one more than `limit`. `text` is found
    in the fact or in the end-user's id; `user` is one end-user exactly. `sort`: newest,
    oldest (by id), or user (by end-user id, each one's newest first); `after` is the
    (end-user, fact id) of the last row of the previous page."""
    statement = _with_status(
        select(Fact, EndUser.name)
        .join(EndUser, EndUser.id == Fact.end_user_id)
        .where(Fact.tenant_id == tenant_id),
        status,
        today,
    )
    if user is not None:
        statement = statement.where(EndUser.name == user)
    if text:
        statement = statement.where(or_(_contains(Fact.text, text), _contains(EndUser.name, text)))
    if sort == "user":
        if after is not None:
            name, fact_id = after
            statement = statement.where(
                or_(EndUser.name > name, and_(EndUser.name == name, Fact.id < fact_id))
            )
        statement = statement.order_by(EndUser.name.asc(), Fact.id.desc())
    elif sort == "oldest":
        if after is not None:
            statement = statement.where(Fact.id > after[1])
        statement = statement.order_by(Fact.id.asc())
    else:
        if after is not None:
            statement = statement.where(Fact.id < after[1])
        statement = statement.order_by(Fact.id.desc())
    return [(fact, name) for fact, name in session.execute(statement.limit(limit + 1)).all()]


def _with_status(statement: Any, status: str, today: date) -> Any:
    if status == "active":
        return statement.where(
            Fact.status == "active", or_(Fact.valid_until.is_(None), Fact.valid_until > today)
        )
    if status == "retired":
        return statement.where(retired(today))
    return statement


def _contains(column: Any, text: str) -> Any:
    """Case-insensitive substring, with LIKE's wildcards in `text` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.ilike(f"%{escaped}%", escape="\\")


def all_facts(session: Session, user_id: int) -> list[Fact]:
    return list(session.scalars(select(Fact).where(Fact.end_user_id == user_id)))


def get_fact(session: Session, user_id: int, fact_id: int) -> Fact | None:
    return session.scalars(
        select(Fact).where(Fact.end_user_id == user_id, Fact.id == fact_id)
    ).first()


def delete_fact(session: Session, fact_id: int) -> None:
    session.execute(delete(Fact).where(Fact.id == fact_id))
    # A fact it had retired keeps its retirement; only the link to the forgotten one goes.
    session.execute(update(Fact).where(Fact.retired_by == fact_id).values(retired_by=None))


def count_user_rows(session: Session, user_id: int) -> dict[str, int]:
    facts = select(func.count()).select_from(Fact).where(Fact.end_user_id == user_id)
    turns = (
        select(func.count())
        .select_from(ExtractionTurn)
        .where(ExtractionTurn.end_user_id == user_id)
    )
    return {
        "facts": int(session.scalar(facts) or 0),
        "pending_turns": int(session.scalar(turns) or 0),
    }


def delete_user(session: Session, user_id: int) -> None:
    session.execute(delete(EndUser).where(EndUser.id == user_id))


def retire_ended(session: Session, today: date) -> list[int]:
    """Facts whose end day has come: retired on that day. Returns the users touched."""
    rows = session.execute(
        update(Fact)
        .where(Fact.status == "active", Fact.valid_until.is_not(None), Fact.valid_until <= today)
        .values(status="retired", retired_on=Fact.valid_until, updated_at=func.now())
        .returning(Fact.end_user_id)
    ).all()
    users = sorted({row[0] for row in rows})
    if users:
        session.execute(
            update(EndUser).where(EndUser.id.in_(users)).values(version=EndUser.version + 1)
        )
    return users


# Extraction batches


def open_batch(session: Session, user_id: int, thread: str) -> ExtractionBatch | None:
    return session.scalars(
        select(ExtractionBatch).where(
            ExtractionBatch.end_user_id == user_id,
            ExtractionBatch.thread == thread,
            ExtractionBatch.status == "pending",
        )
    ).first()


def add_turns(
    session: Session, batch: ExtractionBatch, turns: Sequence[tuple[str, str, datetime]]
) -> int:
    """Add (text, digest, said_at) turns to the batch; a turn already in it (a retried request)
    is not added twice. Returns how many were added."""
    if not turns:
        return 0
    result = session.execute(
        pg_insert(ExtractionTurn)
        .values(
            [
                {
                    "batch_id": batch.id,
                    "end_user_id": batch.end_user_id,
                    "text": text,
                    "digest": digest,
                    "said_at": said_at,
                }
                for text, digest, said_at in turns
            ]
        )
        .on_conflict_do_nothing(index_elements=[ExtractionTurn.batch_id, ExtractionTurn.digest])
        .returning(ExtractionTurn.id)
    )
    added = len(result.all())
    batch.turns = batch.turns + added
    return added


def lock_batch(session: Session, batch_id: int) -> ExtractionBatch | None:
    return session.scalars(
        select(ExtractionBatch).where(ExtractionBatch.id == batch_id).with_for_update()
    ).first()


def turns_of(session: Session, batch_id: int) -> list[ExtractionTurn]:
    return list(
        session.scalars(
            select(ExtractionTurn)
            .where(ExtractionTurn.batch_id == batch_id)
            .order_by(ExtractionTurn.said_at, ExtractionTurn.id)
        )
    )


def delete_turns(session: Session, batch_id: int) -> None:
    session.execute(delete(ExtractionTurn).where(ExtractionTurn.batch_id == batch_id))


def overdue_batches(session: Session, before: datetime, limit: int = 500) -> list[int]:
    """Pending batches of live turns due before `before` (an import's batches are its job's)."""
    return list(
        session.scalars(
            select(ExtractionBatch.id)
            .where(
                ExtractionBatch.status == "pending",
                ExtractionBatch.due_at < before,
                ExtractionBatch.import_id.is_(None),
            )
            .order_by(ExtractionBatch.due_at)
            .limit(limit)
        )
    )


def purge_turns(session: Session, before: datetime) -> int:
    """Extracted turns past their keeping time."""
    done = select(ExtractionBatch.id).where(
        ExtractionBatch.status != "pending", ExtractionBatch.finished_at < before
    )
    result = session.execute(delete(ExtractionTurn).where(ExtractionTurn.batch_id.in_(done)))
    return int(result.rowcount)  # type: ignore[attr-defined]


def stale_batches(session: Session, extractor: str, limit: int) -> list[int]:
    """Done batches extracted by another extractor whose turns are still kept."""
    kept = select(ExtractionTurn.batch_id).where(ExtractionTurn.batch_id == ExtractionBatch.id)
    return list(
        session.scalars(
            select(ExtractionBatch.id)
            .where(
                ExtractionBatch.status == "done",
                ExtractionBatch.extractor != extractor,
                kept.exists(),
            )
            .order_by(ExtractionBatch.id)
            .limit(limit)
        )
    )


def facts_of_batch(session: Session, batch_id: int) -> list[Fact]:
    return list(session.scalars(select(Fact).where(Fact.batch_id == batch_id)))


def unretire(session: Session, retired_by: Sequence[int]) -> None:
    if retired_by:
        session.execute(
            update(Fact)
            .where(Fact.retired_by.in_(retired_by))
            .values(status="active", retired_on=None, retired_by=None, updated_at=func.now())
        )


def delete_all_knowledge(session: Session, tenant_id: uuid.UUID) -> dict[str, int]:
    users = session.execute(
        delete(EndUser).where(EndUser.tenant_id == tenant_id).returning(EndUser.id)
    ).all()
    collections = session.execute(
        delete(Collection).where(Collection.tenant_id == tenant_id).returning(Collection.id)
    ).all()
    return {"users": len(users), "collections": len(collections)}


def holds_knowledge(session: Session, tenant_id: uuid.UUID) -> bool:
    facts = select(Fact.id).where(Fact.tenant_id == tenant_id).limit(1)
    collections = select(Collection.id).where(Collection.tenant_id == tenant_id).limit(1)
    return session.scalar(facts) is not None or session.scalar(collections) is not None


# Collections and documents


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
