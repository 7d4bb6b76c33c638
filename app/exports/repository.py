"""SQL of exports: the export rows, and the sections of the archive, each read a page at a time.

A section is one file of the archive: the tenant's rows of one table, in id order, one JSON
object each. Every read returns `(key, record)` pairs: the key is the row's primary key, the
page's cursor and what is checked again when the archive is put together (a row deleted since
its page was read is left out); the record is what the archive holds.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.batches.models import Batch, BatchItem
from app.documents.models import Collection, Document, DocumentChunk
from app.exports.models import Export
from app.facts.models import EndUser, Fact, fact_status
from app.models import Alias, Line, Rule, Subject

Row = tuple[Any, dict[str, Any]]
Reader = Callable[[Session, uuid.UUID, Any, int], list[Row]]


@dataclass(frozen=True)
class Section:
    name: str
    """The archive's file, `<name>.jsonl`."""
    key: InstrumentedAttribute[Any]
    """The primary key paged on, and checked again when the archive is put together."""
    read: Reader


def _after(key: InstrumentedAttribute[Any], after: Any) -> list[ColumnElement[bool]]:
    return [] if after is None else [key > after]


def _subjects(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.scalars(
        select(Subject)
        .where(Subject.tenant_id == tenant_id, *_after(Subject.id, after))
        .order_by(Subject.id)
        .limit(limit)
    )
    return [
        (
            s.id,
            {
                "subject": s.name,
                "line_count": s.line_count,
                "created_at": s.created_at,
                "touched_at": s.touched_at,
            },
        )
        for s in rows
    ]


def _lines(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.execute(
        select(Line, Subject.name)
        .join(Subject, Subject.id == Line.subject_id)
        .where(Subject.tenant_id == tenant_id, *_after(Line.id, after))
        .order_by(Line.id)
        .limit(limit)
    ).all()
    return [
        (
            line.id,
            {
                "subject": subject,
                "position": line.position,
                "text": line.text,
                "learned_request_id": line.learned_request_id,
                "retired_at": line.retired_at,
                "created_at": line.created_at,
            },
        )
        for line, subject in rows
    ]


def _rules(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.execute(
        select(Rule, Subject.name)
        .join(Subject, Subject.id == Rule.subject_id)
        .where(Subject.tenant_id == tenant_id, *_after(Rule.id, after))
        .order_by(Rule.id)
        .limit(limit)
    ).all()
    return [
        (
            rule.id,
            {
                "subject": subject,
                "id": rule.id,
                "text": rule.text,
                "pin": rule.pin,
                "exclude": rule.exclude,
                "when": rule.when,
                "created_at": rule.created_at,
            },
        )
        for rule, subject in rows
    ]


def _aliases(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.execute(
        select(Alias.id, Alias.alias, Subject.name)
        .join(Subject, Subject.id == Alias.subject_id)
        .where(Subject.tenant_id == tenant_id, *_after(Alias.id, after))
        .order_by(Alias.id)
        .limit(limit)
    ).all()
    return [(key, {"subject": subject, "alias": alias}) for key, alias, subject in rows]


def _users(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.scalars(
        select(EndUser)
        .where(EndUser.tenant_id == tenant_id, *_after(EndUser.id, after))
        .order_by(EndUser.id)
        .limit(limit)
    )
    return [(u.id, {"user": u.name, "created_at": u.created_at}) for u in rows]


def _facts(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    """Every fact held, retired ones with the day they stopped holding; a forgotten fact is
    deleted, so it is not here."""
    rows = session.execute(
        select(Fact, EndUser.name)
        .join(EndUser, EndUser.id == Fact.end_user_id)
        .where(Fact.tenant_id == tenant_id, *_after(Fact.id, after))
        .order_by(Fact.id)
        .limit(limit)
    ).all()
    today = datetime.now(UTC).date()
    return [(fact.id, _fact(fact, user, today)) for fact, user in rows]


def _fact(fact: Fact, user: str, today: date) -> dict[str, Any]:
    # Worded as the per-user export words a fact (FactService.fact_out).
    status = fact_status(fact, today)
    return {
        "user": user,
        "id": fact.id,
        "kind": fact.kind,
        "text": fact.text,
        "slot": fact.slot,
        "value": fact.value,
        "status": status,
        "valid_from": fact.valid_from,
        "valid_until": fact.valid_until,
        "happened_on": fact.happened_on,
        "said_on": fact.said_on,
        "retired_on": fact.retired_on or (fact.valid_until if status == "retired" else None),
        "source": fact.source,
        "created_at": fact.created_at,
        "updated_at": fact.updated_at,
    }


def _collections(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.scalars(
        select(Collection)
        .where(Collection.tenant_id == tenant_id, *_after(Collection.id, after))
        .order_by(Collection.id)
        .limit(limit)
    )
    return [(c.id, {"slug": c.slug, "name": c.name, "created_at": c.created_at}) for c in rows]


_DOCUMENT_COLUMNS = (
    Document.id,
    Document.title,
    Document.source,
    Document.filename,
    Document.media_type,
    Document.status,
    Document.error,
    Document.size_bytes,
    Document.tokens,
    Document.created_at,
    Document.finished_at,
)


def _documents(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    # Named columns: `raw` (an upload not yet read, up to the upload limit) stays in the table.
    rows = session.execute(
        select(Collection.slug, *_DOCUMENT_COLUMNS)
        .join(Collection, Collection.id == Document.collection_id)
        .where(Document.tenant_id == tenant_id, *_after(Document.id, after))
        .order_by(Document.id)
        .limit(limit)
    ).all()
    names = [column.key for column in _DOCUMENT_COLUMNS]
    return [
        (row.id, {"collection": row.slug, **dict(zip(names, row[1:], strict=True))}) for row in rows
    ]


def _chunks(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.execute(
        select(DocumentChunk.id, DocumentChunk.document_id, DocumentChunk.position)
        .add_columns(DocumentChunk.text, Collection.slug)
        .join(Collection, Collection.id == DocumentChunk.collection_id)
        .where(Collection.tenant_id == tenant_id, *_after(DocumentChunk.id, after))
        .order_by(DocumentChunk.id)
        .limit(limit)
    ).all()
    return [
        (key, {"collection": slug, "document": document, "position": position, "text": text})
        for key, document, position, text, slug in rows
    ]


def _batches(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.scalars(
        select(Batch)
        .where(Batch.tenant_id == tenant_id, *_after(Batch.id, after))
        .order_by(Batch.id)
        .limit(limit)
    )
    times = ("created_at", "expires_at", "completed_at", "failed_at", "expired_at")
    return [
        (
            b.id,
            {
                "id": b.id,
                "status": b.status,
                "metadata": b.metadata_,
                "completion_window": b.completion_window,
                "total": b.total,
                "errors": b.errors,
                **{name: getattr(b, name) for name in times},
                "cancelled_at": b.cancelled_at,
            },
        )
        for b in rows
    ]


def _batch_items(session: Session, tenant_id: uuid.UUID, after: Any, limit: int) -> list[Row]:
    rows = session.scalars(
        select(BatchItem)
        .where(BatchItem.tenant_id == tenant_id, *_after(BatchItem.id, after))
        .order_by(BatchItem.id)
        .limit(limit)
    )
    return [
        (
            item.id,
            {
                "batch": item.batch_id,
                "line": item.line,
                "custom_id": item.custom_id,
                "subject": item.subject,
                "body": item.body,
                "status": item.status,
                "result": item.result,
                "finished_at": item.finished_at,
            },
        )
        for item in rows
    ]


SECTIONS: tuple[Section, ...] = (
    Section("subjects", Subject.id, _subjects),
    Section("lines", Line.id, _lines),
    Section("rules", Rule.id, _rules),
    Section("aliases", Alias.id, _aliases),
    Section("users", EndUser.id, _users),
    Section("facts", Fact.id, _facts),
    Section("collections", Collection.id, _collections),
    Section("documents", Document.id, _documents),
    Section("document_chunks", DocumentChunk.id, _chunks),
    Section("batches", Batch.id, _batches),
    Section("batch_items", BatchItem.id, _batch_items),
)


def still_there(session: Session, section: Section, keys: Sequence[Any]) -> set[Any]:
    """Which of these rows of the section still exist."""
    if not keys:
        return set()
    return set(session.scalars(select(section.key).where(section.key.in_(keys))))


# Export rows


def lock_export(session: Session, export_id: str) -> Export | None:
    return session.scalars(select(Export).where(Export.id == export_id).with_for_update()).first()


def unfinished_export(session: Session, tenant_id: uuid.UUID) -> Export | None:
    return session.scalars(
        select(Export)
        .where(Export.tenant_id == tenant_id, Export.status.in_(("queued", "running")))
        .limit(1)
    ).first()


def recent_exports(session: Session, tenant_id: uuid.UUID, limit: int) -> list[Export]:
    return list(
        session.scalars(
            select(Export)
            .where(Export.tenant_id == tenant_id)
            .order_by(Export.created_at.desc(), Export.id.desc())
            .limit(limit)
        )
    )


def expired_exports(session: Session, now: datetime, limit: int = 500) -> list[Export]:
    """Completed exports past their expiry, locked (skipping any another sweep holds)."""
    return list(
        session.scalars(
            select(Export)
            .where(Export.status == "completed", Export.expires_at <= now)
            .order_by(Export.expires_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
    )


def exports_of(session: Session, tenant_id: uuid.UUID) -> list[Export]:
    return list(session.scalars(select(Export).where(Export.tenant_id == tenant_id)))
