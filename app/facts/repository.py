"""SQL of end-user facts: end-users, facts, extraction batches and turns, history imports.
No business rules here: those live in the services."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from app.facts.models import EndUser, ExtractionBatch, ExtractionTurn, Fact, HistoryImport
from app.knowledge.indexes import IndexRow

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


def bump(user: EndUser) -> None:
    """Move the user's version: no cached index of their facts is read again."""
    user.version = user.version + 1


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


def delete_facts(session: Session, facts: Sequence[Fact]) -> None:
    """Delete these facts, now (re-extraction replaces a batch's facts)."""
    for fact in facts:
        session.delete(fact)
    session.flush()


def unretire(session: Session, retired_by: Sequence[int]) -> None:
    if retired_by:
        session.execute(
            update(Fact)
            .where(Fact.retired_by.in_(retired_by))
            .values(status="active", retired_on=None, retired_by=None, updated_at=func.now())
        )


def delete_users_of(session: Session, tenant_id: uuid.UUID) -> int:
    """Every end-user of the tenant, with their facts, turns and imports (cascade)."""
    users = session.execute(
        delete(EndUser).where(EndUser.tenant_id == tenant_id).returning(EndUser.id)
    ).all()
    return len(users)


def count_facts_of(session: Session, tenant_id: uuid.UUID) -> int:
    return int(
        session.scalar(select(func.count()).select_from(Fact).where(Fact.tenant_id == tenant_id))
        or 0
    )


def has_facts(session: Session, tenant_id: uuid.UUID) -> bool:
    return session.scalar(select(Fact.id).where(Fact.tenant_id == tenant_id).limit(1)) is not None


# History imports


def lock_import(session: Session, import_id: str) -> HistoryImport | None:
    return session.get(HistoryImport, import_id, with_for_update=True)


def get_import(session: Session, import_id: str) -> tuple[HistoryImport, EndUser] | None:
    job = session.get(HistoryImport, import_id)
    user = session.get(EndUser, job.end_user_id) if job is not None else None
    return (job, user) if job is not None and user is not None else None


def pending_import_batches(session: Session, import_id: str) -> list[int]:
    """The import's batches still to extract, oldest first."""
    first_turn = (
        select(func.min(ExtractionTurn.said_at))
        .where(ExtractionTurn.batch_id == ExtractionBatch.id)
        .scalar_subquery()
    )
    return list(
        session.scalars(
            select(ExtractionBatch.id)
            .where(ExtractionBatch.import_id == import_id, ExtractionBatch.status == "pending")
            .order_by(first_turn, ExtractionBatch.id)
        )
    )


def fail_import_batches(session: Session, import_id: str, reason: str, at: datetime) -> None:
    for pending in session.scalars(
        select(ExtractionBatch).where(
            ExtractionBatch.import_id == import_id, ExtractionBatch.status == "pending"
        )
    ):
        pending.status, pending.error, pending.finished_at = "failed", reason, at


def import_batches_by_status(session: Session, import_id: str) -> dict[str, tuple[int, int]]:
    """(batches, turns) of the import by batch status."""
    return {
        status: (batches, turns)
        for status, batches, turns in session.execute(
            select(
                ExtractionBatch.status,
                func.count(),
                func.coalesce(func.sum(ExtractionBatch.turns), 0),
            )
            .where(ExtractionBatch.import_id == import_id)
            .group_by(ExtractionBatch.status)
        )
    }


def import_facts_by_kind(session: Session, import_id: str) -> dict[str, int]:
    """Facts and events the import's batches added, by kind."""
    return dict(
        session.execute(
            select(Fact.kind, func.count())
            .join(ExtractionBatch, ExtractionBatch.id == Fact.batch_id)
            .where(ExtractionBatch.import_id == import_id)
            .group_by(Fact.kind)
        ).all()
    )
