"""SQL for batches and their items."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import psycopg
from sqlalchemy import ColumnElement, Connection, delete, func, select, text
from sqlalchemy.orm import Session

from app.batches.models import Batch, BatchItem

FINAL = ("completed", "failed", "expired", "cancelled")
OPEN_ITEM = "pending"


def copy_items(
    session: Session, batch_id: str, tenant_id: uuid.UUID, requests: Sequence[Any]
) -> None:
    """Store the requests as items with COPY: 100,000 lines in one round trip."""
    raw = session.connection().connection.driver_connection
    assert isinstance(raw, psycopg.Connection)
    with (
        raw.cursor() as cursor,
        cursor.copy(
            "COPY batch_items (batch_id, tenant_id, line, custom_id, subject, end_user, body) "
            "FROM STDIN"
        ) as copy,
    ):
        for line, request in enumerate(requests, start=1):
            custom_id = request.get("custom_id") if isinstance(request, dict) else None
            body = request.get("body") if isinstance(request, dict) else None
            subject = body.get("subject") if isinstance(body, dict) else None
            user = body.get("user") if isinstance(body, dict) else None
            copy.write_row(
                (
                    batch_id,
                    tenant_id,
                    line,
                    custom_id if isinstance(custom_id, str) else None,
                    subject if isinstance(subject, str) and len(subject) <= 36 else None,
                    user if isinstance(user, str) and len(user) <= 200 else None,
                    json.dumps(request),
                )
            )


def raw_requests(session: Session, batch_id: str) -> Iterator[tuple[int, Any]]:
    """Each item as the request the client sent (`body` holds it whole), in line order."""
    rows = session.execute(
        select(BatchItem.line, BatchItem.body)
        .where(BatchItem.batch_id == batch_id)
        .order_by(BatchItem.line)
        .execution_options(yield_per=2_000)
    )
    return ((row[0], row[1]) for row in rows)


def counts(session: Session, batch_id: str) -> dict[str, int]:
    rows = session.execute(
        select(BatchItem.status, func.count())
        .where(BatchItem.batch_id == batch_id)
        .group_by(BatchItem.status)
    )
    by_status = {status: n for status, n in rows}
    succeeded, errored = by_status.get("succeeded", 0), by_status.get("errored", 0)
    canceled, expired = by_status.get("canceled", 0), by_status.get("expired", 0)
    return {
        "total": sum(by_status.values()),
        # OpenAI's: the lines of the output file and of the error file.
        "completed": succeeded,
        "failed": errored + canceled + expired,
        # Dossier's own, per outcome.
        "succeeded": succeeded,
        "errored": errored,
        "canceled": canceled,
        "expired": expired,
    }


def pending_left(session: Session, batch_id: str) -> bool:
    return (
        session.scalar(
            select(func.count())
            .select_from(BatchItem)
            .where(BatchItem.batch_id == batch_id, BatchItem.status == OPEN_ITEM)
        )
        != 0
    )


def close_pending(session: Session, batch_id: str, status: str) -> int:
    """Mark every pending item no chunk is working on (locked rows are skipped) as canceled or
    expired; a running chunk finishes its own."""
    result = session.execute(
        text(
            """
            UPDATE batch_items SET status = :status, finished_at = now(),
                   result = jsonb_build_object('type', CAST(:kind AS text))
            WHERE id IN (SELECT id FROM batch_items
                         WHERE batch_id = :batch_id AND status = 'pending'
                         FOR UPDATE SKIP LOCKED)
            """
        ),
        {"status": status, "kind": status, "batch_id": batch_id},
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def subjects_in_range(session: Session, batch_id: str, first: int, last: int) -> list[str]:
    """The subjects the range's pending items name, read without locking them."""
    return list(
        session.scalars(
            select(BatchItem.subject)
            .where(
                BatchItem.batch_id == batch_id,
                BatchItem.line.between(first, last),
                BatchItem.status == OPEN_ITEM,
                BatchItem.subject.is_not(None),
            )
            .distinct()
            .order_by(BatchItem.subject)
        )
    )


def lock_chunk(session: Session, batch_id: str, first: int, last: int) -> list[BatchItem]:
    """The chunk's pending items, locked: a second run of the same chunk (a redelivered task)
    skips what the first holds and, after it commits, finds them no longer pending."""
    return list(
        session.scalars(
            select(BatchItem)
            .where(
                BatchItem.batch_id == batch_id,
                BatchItem.line.between(first, last),
                BatchItem.status == OPEN_ITEM,
            )
            .order_by(BatchItem.line)
            .with_for_update(skip_locked=True)
        )
    )


def results(session: Session, batch_id: str) -> Iterator[tuple[str | None, dict[str, Any]]]:
    rows = session.execute(
        select(BatchItem.custom_id, BatchItem.result)
        .where(BatchItem.batch_id == batch_id, BatchItem.status != OPEN_ITEM)
        .order_by(BatchItem.line)
        .execution_options(yield_per=1_000)
    )
    return ((row[0], row[1]) for row in rows)


def lock_batch(session: Session, batch_id: str) -> Batch | None:
    return session.scalars(select(Batch).where(Batch.id == batch_id).with_for_update()).first()


def due_to_expire(session: Session, now: datetime) -> list[str]:
    return list(
        session.scalars(
            select(Batch.id).where(
                Batch.status.in_(("validating", "in_progress", "cancelling")),
                Batch.expires_at < now,
            )
        )
    )


def delete_subject_items(session: Session, tenant_id: uuid.UUID, subject: str) -> int:
    """Delete the subject's items in this tenant's batches, all but those a running chunk has
    locked: the chunk takes those out itself when it sees the subject gone (`runner`)."""
    return _delete_unlocked(session, tenant_id, BatchItem.subject == subject)


def delete_end_user_items(session: Session, tenant_id: uuid.UUID, end_user: str) -> int:
    """Delete the chat requests (and answers) naming the end-user in this tenant's batches,
    all but those a running chunk has locked."""
    return _delete_unlocked(session, tenant_id, BatchItem.end_user == end_user)


def _delete_unlocked(session: Session, tenant_id: uuid.UUID, naming: ColumnElement[bool]) -> int:
    """Delete the tenant's items matching `naming`, skipping (without waiting for) the ones
    a running chunk holds: a delete never waits for an engine or an upstream model."""
    unlocked = (
        select(BatchItem.id)
        .where(BatchItem.tenant_id == tenant_id, naming)
        .with_for_update(skip_locked=True)
    )
    result = session.execute(delete(BatchItem).where(BatchItem.id.in_(unlocked)))
    return int(result.rowcount)  # type: ignore[attr-defined]


def delete_items(session: Session, ids: list[int]) -> None:
    session.execute(delete(BatchItem).where(BatchItem.id.in_(ids)))


def drop_items(session: Session, batch_id: str) -> None:
    session.execute(delete(BatchItem).where(BatchItem.batch_id == batch_id))


def set_status(session: Session, batch: Batch, status: str, at: datetime) -> None:
    batch.status = status
    setattr(batch, f"{status}_at", at)
    session.flush()


def page_after(
    session: Session, tenant_id: uuid.UUID, after: Batch | None, limit: int
) -> list[Batch]:
    """The tenant's batches newest first (by creation, then id), those after `after`, one more
    than `limit` (so the caller knows whether a page follows)."""
    statement = select(Batch).where(Batch.tenant_id == tenant_id)
    if after is not None:
        statement = statement.where(
            (Batch.created_at < after.created_at)
            | ((Batch.created_at == after.created_at) & (Batch.id < after.id))
        )
    return list(
        session.scalars(
            statement.order_by(Batch.created_at.desc(), Batch.id.desc()).limit(limit + 1)
        )
    )


def count_by_status(connection: Connection) -> dict[str, int]:
    """Batch items of every tenant per status (for the metrics gauge)."""
    rows = connection.execute(
        select(BatchItem.status, func.count()).group_by(BatchItem.status)
    ).all()
    return {str(status): int(count) for status, count in rows}
