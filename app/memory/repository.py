"""SQL for subjects, lines, rules and aliases. No business rules here: those live in service.py."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import psycopg
from sqlalchemy import ColumnElement, ScalarSelect, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.embeddings.storage import StoredVectors
from app.models import Alias, Line, Rule, Subject


def find_subject(session: Session, tenant_id: uuid.UUID, name: str) -> Subject | None:
    return session.scalars(
        select(Subject).where(Subject.tenant_id == tenant_id, Subject.name == name)
    ).first()


def subject_ids(
    session: Session, tenant_id: uuid.UUID, names: Sequence[str], *, share: bool = False
) -> dict[str, int]:
    """The ids of those of `names` that are subjects of the tenant; with `share`, their rows
    are share-locked (in name order) until the transaction ends, so none is deleted meanwhile."""
    if not names:
        return {}
    query = (
        select(Subject.name, Subject.id)
        .where(Subject.tenant_id == tenant_id, Subject.name.in_(names))
        .order_by(Subject.name)
    )
    if share:
        query = query.with_for_update(read=True)
    return {name: subject_id for name, subject_id in session.execute(query)}


def lock_subject(
    session: Session, tenant_id: uuid.UUID, name: str, *, create: bool
) -> Subject | None:
    """The subject's row, locked for this transaction, so writers of one subject go one at a
    time (the line limit holds under concurrent writers)."""
    if create:
        session.execute(
            pg_insert(Subject)
            .values(tenant_id=tenant_id, name=name)
            .on_conflict_do_nothing(index_elements=[Subject.tenant_id, Subject.name])
        )
    return session.scalars(
        select(Subject)
        .where(Subject.tenant_id == tenant_id, Subject.name == name)
        .with_for_update()
    ).first()


def bump_version(session: Session, subject: Subject) -> int:
    """Move the subject's version after a write; returns the version that became unreachable."""
    old = subject.version
    subject.version = old + 1
    subject.touched_at = func.now()
    return old


def add_lines(
    session: Session,
    subject: Subject,
    texts: Sequence[str],
    vectors: StoredVectors,
    *,
    learned_request_id: str | None = None,
) -> None:
    """Append lines, each with its vector, with COPY: a 10,000-line write is one round trip,
    not 10,000 inserts. Binary COPY: in text format each 512-byte vector would travel as 1 KB
    of hex, escaped and parsed again."""
    if not texts:
        return
    start = subject.next_position
    raw = session.connection().connection.driver_connection
    assert isinstance(raw, psycopg.Connection)
    with (
        raw.cursor() as cursor,
        cursor.copy(
            "COPY lines (subject_id, position, text, learned_request_id, embedding, "
            "embedding_model) FROM STDIN (FORMAT BINARY)"
        ) as copy,
    ):
        copy.set_types(["int8", "int8", "text", "varchar", "bytea", "varchar"])
        model = vectors.model
        for offset, (text, vector) in enumerate(zip(texts, vectors.vectors, strict=True)):
            made_by = model if vector is not None else None
            copy.write_row((subject.id, start + offset, text, learned_request_id, vector, made_by))
    subject.next_position = start + len(texts)
    subject.line_count = subject.line_count + len(texts)


def line_texts(session: Session, subject_id: int) -> list[str]:
    """The lines recall reads: every line but the retired ones, in order."""
    return list(
        session.scalars(
            select(Line.text)
            .where(Line.subject_id == subject_id, Line.retired_at.is_(None))
            .order_by(Line.position)
        )
    )


def line_vectors(session: Session, subject_id: int) -> list[tuple[str, bytes | None, str | None]]:
    """The lines recall reads (as `line_texts`), each with its stored vector and model."""
    raw = session.connection().connection.driver_connection
    assert isinstance(raw, psycopg.Connection)
    with raw.cursor() as cursor:
        cursor.execute(
            "SELECT text, embedding, embedding_model FROM lines "
            "WHERE subject_id = %s AND retired_at IS NULL ORDER BY position",
            (subject_id,),
        )
        return cursor.fetchall()


def retired_lines(session: Session, subject_id: int) -> list[Line]:
    """Learned lines a newer one replaced: kept and listed, never recalled."""
    return list(
        session.scalars(
            select(Line)
            .where(Line.subject_id == subject_id, Line.retired_at.is_not(None))
            .order_by(Line.position)
        )
    )


def rules_of(session: Session, subject_id: int) -> list[Rule]:
    return list(
        session.scalars(select(Rule).where(Rule.subject_id == subject_id).order_by(Rule.id))
    )


def add_rule(session: Session, subject: Subject, values: dict[str, Any]) -> Rule:
    rule = Rule(subject_id=subject.id, **values)
    session.add(rule)
    session.flush()
    return rule


def rule_texts_with_ids(session: Session, subject_id: int) -> list[tuple[int, str]]:
    rows = session.execute(
        select(Rule.id, Rule.text).where(Rule.subject_id == subject_id).order_by(Rule.id)
    )
    return [(row.id, row.text) for row in rows]


def delete_rules(session: Session, subject_id: int, ids: Sequence[int]) -> list[int]:
    result = session.execute(
        delete(Rule).where(Rule.subject_id == subject_id, Rule.id.in_(ids)).returning(Rule.id)
    )
    return sorted(result.scalars())


def count_rules(session: Session, subject_id: int) -> int:
    return (
        session.scalar(select(func.count()).select_from(Rule).where(Rule.subject_id == subject_id))
        or 0
    )


def aliases_of(session: Session, subject_id: int) -> list[str]:
    return list(
        session.scalars(
            select(Alias.alias).where(Alias.subject_id == subject_id).order_by(Alias.id)
        )
    )


def add_aliases(session: Session, subject_id: int, aliases: Sequence[str]) -> None:
    session.execute(
        pg_insert(Alias)
        .values([{"subject_id": subject_id, "alias": alias} for alias in aliases])
        .on_conflict_do_nothing(index_elements=[Alias.subject_id, Alias.alias])
    )


def delete_aliases(session: Session, subject_id: int, aliases: Sequence[str]) -> int:
    result = session.execute(
        delete(Alias).where(Alias.subject_id == subject_id, Alias.alias.in_(aliases))
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def count_aliases(session: Session, subject_id: int) -> int:
    return (
        session.scalar(
            select(func.count()).select_from(Alias).where(Alias.subject_id == subject_id)
        )
        or 0
    )


def delete_subject(session: Session, subject: Subject) -> dict[str, int]:
    counts = {
        "lines": subject.line_count,
        "rules": count_rules(session, subject.id),
        "aliases": count_aliases(session, subject.id),
    }
    session.execute(delete(Subject).where(Subject.id == subject.id))
    return counts


def touch(session: Session, subject_id: int) -> None:
    """Record a read, at most once a minute, for retention ("untouched since")."""
    session.execute(
        update(Subject)
        .where(Subject.id == subject_id, Subject.touched_at < func.now() - timedelta(minutes=1))
        .values(touched_at=func.now())
    )


def lines_with_ids(session: Session, subject_id: int) -> list[tuple[int, str]]:
    """Every line with its id, in order; straight from psycopg, as a 10,000-line subject spends
    most of its time in per-row ORM work otherwise."""
    raw = session.connection().connection.driver_connection
    assert isinstance(raw, psycopg.Connection)
    with raw.cursor() as cursor:
        cursor.execute(
            "SELECT id, text FROM lines WHERE subject_id = %s ORDER BY position", (subject_id,)
        )
        return cursor.fetchall()


def delete_lines(session: Session, subject: Subject, line_ids: Sequence[int]) -> int:
    if not line_ids:
        return 0
    result = session.execute(
        delete(Line).where(Line.subject_id == subject.id, Line.id.in_(line_ids))
    )
    removed = int(result.rowcount)  # type: ignore[attr-defined]
    subject.line_count = subject.line_count - removed
    return removed


def lock_subject_by_id(session: Session, subject_id: int) -> Subject | None:
    """The subject row by its key, locked for this transaction (None once it was deleted)."""
    return session.scalars(
        select(Subject).where(Subject.id == subject_id).with_for_update()
    ).first()


def learned_lines(session: Session, subject_id: int) -> list[tuple[int, str]]:
    """The subject's learned lines still recalled, as (id, text)."""
    rows = session.execute(
        select(Line.id, Line.text).where(
            Line.subject_id == subject_id,
            Line.learned_request_id.is_not(None),
            Line.retired_at.is_(None),
        )
    ).all()
    return [(row.id, row.text) for row in rows]


def retire_lines(session: Session, line_ids: Sequence[int], at: datetime) -> None:
    """Retire lines: kept and listed, never recalled again."""
    session.execute(update(Line).where(Line.id.in_(line_ids)).values(retired_at=at))


def _count(
    subject_id: InstrumentedAttribute[int], *where: ColumnElement[bool]
) -> ScalarSelect[int]:
    """How many rows of `subject_id`'s table belong to the subject of the outer row."""
    return (
        select(func.count())
        .select_from(subject_id.class_)
        .where(subject_id == Subject.id, *where)
        .correlate(Subject)
        .scalar_subquery()
    )


def subject_summaries(
    session: Session, tenant_id: uuid.UUID, *, after: str | None, limit: int
) -> list[tuple[str, int, int, int, int, datetime, datetime | None]]:
    """The tenant's subjects by name after `after`, one more than `limit`: (name, lines, retired
    lines, rules, aliases, created_at, touched_at)."""
    statement = select(
        Subject.name,
        _count(Line.subject_id, Line.retired_at.is_(None)),
        _count(Line.subject_id, Line.retired_at.is_not(None)),
        _count(Rule.subject_id),
        _count(Alias.subject_id),
        Subject.created_at,
        Subject.touched_at,
    ).where(Subject.tenant_id == tenant_id)
    if after is not None:
        statement = statement.where(Subject.name > after)
    rows = session.execute(statement.order_by(Subject.name).limit(limit + 1)).all()
    return [
        (name, lines, retired, rules, aliases, created_at, touched_at)
        for name, lines, retired, rules, aliases, created_at, touched_at in rows
    ]
