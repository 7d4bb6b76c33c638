"""SQL of erasure: where a tenant's data lives, table by table, to count it, erase it in chunks
and scan for residue; and the erasure jobs and retention settings themselves.

The store maps are textual SQL on purpose: each names one table (or one column) of every domain
as the proof reports it, and one statement per store keeps the proof's list and the SQL side by
side. Every statement is scoped to one tenant, by its id or by ids resolved from it; nothing here
can reach another tenant's rows.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, text
from sqlalchemy.orm import Session

from app.erasure.models import ErasureJob, RetentionSetting
from app.erasure.targets import Targets


def resolve(
    session: Session,
    tenant_id: uuid.UUID,
    *,
    whole: bool = False,
    subjects: Sequence[str] = (),
    users: Sequence[str] = (),
    untouched_since: datetime | None = None,
) -> Targets:
    """The subjects and end-users a request names (or all, or those untouched since a date:
    a subject's last read or write; an end-user's last fact or message)."""
    params: dict[str, Any] = {"tenant": tenant_id}
    if whole:
        subject_sql = "SELECT id, name FROM subjects WHERE tenant_id = :tenant"
        user_sql = "SELECT id, name FROM end_users WHERE tenant_id = :tenant"
    elif untouched_since is not None:
        params["since"] = untouched_since
        subject_sql = (
            "SELECT id, name FROM subjects WHERE tenant_id = :tenant AND touched_at < :since"
        )
        user_sql = """
            SELECT u.id, u.name FROM end_users u WHERE u.tenant_id = :tenant AND GREATEST(
                u.created_at,
                COALESCE((SELECT max(f.updated_at) FROM facts f WHERE f.end_user_id = u.id),
                         u.created_at),
                COALESCE((SELECT max(t.said_at) FROM extraction_turns t
                          WHERE t.end_user_id = u.id), u.created_at)
            ) < :since"""
    else:
        params["subjects"], params["users"] = list(subjects), list(users)
        subject_sql = (
            "SELECT id, name FROM subjects WHERE tenant_id = :tenant AND name IN :subjects"
        )
        user_sql = "SELECT id, name FROM end_users WHERE tenant_id = :tenant AND name IN :users"

    def rows(sql: str, expanding: str | None) -> list[tuple[int, str]]:
        statement = text(sql + " ORDER BY id")
        if expanding and expanding in params:
            if not params[expanding]:
                return []
            statement = statement.bindparams(bindparam(expanding, expanding=True))
        return [(row[0], row[1]) for row in session.execute(statement, params)]

    return Targets(tenant_id, whole, rows(subject_sql, "subjects"), rows(user_sql, "users"))


# (store name, SQL counting it for the targets). :tenant, :subjects (pks), :names, :users (pks).
SUBJECT_STORES = {
    "postgres.subjects": "SELECT count(*) FROM subjects WHERE id IN :subjects",
    "postgres.lines": "SELECT count(*) FROM lines WHERE subject_id IN :subjects",
    "postgres.lines.embedding (vectors)": (
        "SELECT count(*) FROM lines WHERE subject_id IN :subjects AND embedding IS NOT NULL"
    ),
    "postgres.rules": "SELECT count(*) FROM rules WHERE subject_id IN :subjects",
    "postgres.aliases": "SELECT count(*) FROM aliases WHERE subject_id IN :subjects",
    "postgres.learning_requests": (
        "SELECT count(*) FROM learning_requests WHERE subject_id IN :subjects"
    ),
    "postgres.pass_jobs": "SELECT count(*) FROM pass_jobs WHERE subject_id IN :subjects",
    "postgres.batch_items": (
        "SELECT count(*) FROM batch_items WHERE tenant_id = :tenant AND subject IN :names"
    ),
    "postgres.idempotent_answers (stored answers about the subjects)": (
        "SELECT count(*) FROM idempotent_answers WHERE tenant_id = :tenant AND subject IN :names"
    ),
}
USER_STORES = {
    "postgres.end_users": "SELECT count(*) FROM end_users WHERE id IN :users",
    "postgres.facts": "SELECT count(*) FROM facts WHERE end_user_id IN :users",
    "postgres.facts.embedding (vectors)": (
        "SELECT count(*) FROM facts WHERE end_user_id IN :users AND embedding IS NOT NULL"
    ),
    "postgres.extraction_turns (pending extraction)": (
        "SELECT count(*) FROM extraction_turns WHERE end_user_id IN :users"
    ),
    "postgres.extraction_batches (pending extraction)": (
        "SELECT count(*) FROM extraction_batches WHERE end_user_id IN :users"
    ),
    "postgres.history_imports": (
        "SELECT count(*) FROM history_imports WHERE end_user_id IN :users"
    ),
    "postgres.batch_items (chat requests of the end-users)": (
        "SELECT count(*) FROM batch_items WHERE tenant_id = :tenant AND end_user IN :user_names"
    ),
    "postgres.idempotent_answers (stored answers about the end-users)": (
        "SELECT count(*) FROM idempotent_answers "
        "WHERE tenant_id = :tenant AND end_user IN :user_names"
    ),
}
TENANT_STORES = {
    "postgres.batches": "SELECT count(*) FROM batches WHERE tenant_id = :tenant",
    "postgres.batch_items (all)": "SELECT count(*) FROM batch_items WHERE tenant_id = :tenant",
    "postgres.files": "SELECT count(*) FROM files WHERE tenant_id = :tenant",
    "postgres.file_parts": (
        "SELECT count(*) FROM file_parts p JOIN files f ON f.id = p.file_id "
        "WHERE f.tenant_id = :tenant"
    ),
    "postgres.collections": "SELECT count(*) FROM collections WHERE tenant_id = :tenant",
    "postgres.exports": "SELECT count(*) FROM exports WHERE tenant_id = :tenant",
    "postgres.idempotent_answers (all)": (
        "SELECT count(*) FROM idempotent_answers WHERE tenant_id = :tenant"
    ),
    "postgres.documents": "SELECT count(*) FROM documents WHERE tenant_id = :tenant",
    "postgres.document_chunks": (
        "SELECT count(*) FROM document_chunks c JOIN documents d ON d.id = c.document_id "
        "WHERE d.tenant_id = :tenant"
    ),
    "postgres.document_chunks.embedding (vectors)": (
        "SELECT count(*) FROM document_chunks c JOIN documents d ON d.id = c.document_id "
        "WHERE d.tenant_id = :tenant AND c.embedding IS NOT NULL"
    ),
    "postgres.knowledge_settings": (
        "SELECT count(*) FROM knowledge_settings WHERE tenant_id = :tenant"
    ),
    "postgres.gate_settings": "SELECT count(*) FROM gate_settings WHERE tenant_id = :tenant",
    "postgres.api_keys (active)": (
        "SELECT count(*) FROM api_keys WHERE tenant_id = :tenant AND revoked_at IS NULL"
    ),
}
KEPT_BY_DESIGN = {
    "postgres.ledger_lines (subject ids on priced requests)": (
        "SELECT count(*) FROM ledger_lines WHERE tenant_id = :tenant "
        "AND (subject IN :names OR :whole)"
    ),
    "postgres.audit_events (ids and counts, no content)": (
        "SELECT count(*) FROM audit_events WHERE tenant_id = :tenant "
        "AND (subject IN :names OR :whole)"
    ),
}


def _params(targets: Targets) -> dict[str, Any]:
    return {
        "tenant": targets.tenant_id,
        # An empty IN list is not SQL; -1 and "" match no row.
        "subjects": targets.subject_pks or [-1],
        "names": targets.subject_names or [""],
        "users": targets.user_pks or [-1],
        "user_names": targets.user_names or [""],
        "whole": targets.whole,
    }


def _count(session: Session, sql: str, params: dict[str, Any]) -> int:
    statement = text(sql)
    for name in ("subjects", "names", "users", "user_names"):
        if f":{name}" in sql:
            statement = statement.bindparams(bindparam(name, expanding=True))
    return int(session.execute(statement, params).scalar() or 0)


def postgres_counts(session: Session, targets: Targets) -> dict[str, int]:
    """Rows per store of the targets (and, for a whole tenant, of everything it holds)."""
    params = _params(targets)
    stores = {**SUBJECT_STORES, **USER_STORES, **(TENANT_STORES if targets.whole else {})}
    return {name: _count(session, sql, params) for name, sql in stores.items()}


def kept_by_design(session: Session, targets: Targets) -> dict[str, int]:
    params = _params(targets)
    return {name: _count(session, sql, params) for name, sql in KEPT_BY_DESIGN.items()}


def sample_texts(session: Session, targets: Targets, limit: int = 20) -> list[str]:
    """A few of the texts about to be erased, to look for afterwards."""
    params = {**_params(targets), "limit": limit}
    lines = text(
        "SELECT text FROM lines WHERE subject_id IN :subjects ORDER BY id LIMIT :limit"
    ).bindparams(bindparam("subjects", expanding=True))
    facts = text(
        "SELECT text FROM facts WHERE end_user_id IN :users ORDER BY id LIMIT :limit"
    ).bindparams(bindparam("users", expanding=True))
    found = [row[0] for statement in (lines, facts) for row in session.execute(statement, params)]
    return [sample for sample in found if sample and len(sample) >= 8]


def erase_subjects(session: Session, targets: Targets, size: int) -> list[int]:
    """Erase up to `size` of the target subjects still there, with their batch items and stored
    answers; returns their ids. Their rows go by ON DELETE CASCADE (lines, rules, aliases,
    learning requests, pass jobs)."""
    params = _params(targets)
    subjects = [
        row[0]
        for row in session.execute(
            text(
                "SELECT id, name FROM subjects WHERE id IN :subjects ORDER BY id LIMIT :size"
            ).bindparams(bindparam("subjects", expanding=True)),
            {**params, "size": size},
        )
    ]
    names = [name for pk, name in targets.subjects if pk in set(subjects)]
    if subjects:
        for table in ("batch_items", "idempotent_answers"):
            session.execute(
                text(
                    f"DELETE FROM {table} WHERE tenant_id = :tenant AND subject IN :names"
                ).bindparams(bindparam("names", expanding=True)),
                {"tenant": targets.tenant_id, "names": names},
            )
        session.execute(
            text("DELETE FROM subjects WHERE id IN :ids").bindparams(
                bindparam("ids", expanding=True)
            ),
            {"ids": subjects},
        )
    return subjects


def erase_users(session: Session, targets: Targets, size: int) -> list[int]:
    """Erase up to `size` of the target end-users still there, with their batch items and
    stored answers; returns their ids. Their facts, turns and pending extraction go by ON
    DELETE CASCADE."""
    params = _params(targets)
    users = [
        row[0]
        for row in session.execute(
            text("SELECT id FROM end_users WHERE id IN :users ORDER BY id LIMIT :size").bindparams(
                bindparam("users", expanding=True)
            ),
            {**params, "size": size},
        )
    ]
    if users:
        for table in ("idempotent_answers", "batch_items"):
            session.execute(
                text(
                    f"DELETE FROM {table} WHERE tenant_id = :tenant AND end_user IN :names"
                ).bindparams(bindparam("names", expanding=True)),
                {
                    "tenant": targets.tenant_id,
                    "names": [n for pk, n in targets.users if pk in users],
                },
            )
        session.execute(
            text("DELETE FROM end_users WHERE id IN :ids").bindparams(
                bindparam("ids", expanding=True)
            ),
            {"ids": users},
        )
    return users


def erase_tenant_rows(session: Session, tenant_id: uuid.UUID) -> None:
    """What a whole tenant holds beyond its subjects and end-users (exports aside)."""
    for sql in (
        "DELETE FROM batches WHERE tenant_id = :tenant",
        "DELETE FROM batch_items WHERE tenant_id = :tenant",
        # Uploaded batch files and the output files batches wrote; their parts by cascade.
        "DELETE FROM files WHERE tenant_id = :tenant",
        "DELETE FROM collections WHERE tenant_id = :tenant",
        "DELETE FROM documents WHERE tenant_id = :tenant",
        "DELETE FROM knowledge_settings WHERE tenant_id = :tenant",
        "DELETE FROM gate_settings WHERE tenant_id = :tenant",
        "DELETE FROM pass_jobs WHERE tenant_id = :tenant",
        "DELETE FROM learning_requests WHERE tenant_id = :tenant",
        "DELETE FROM idempotent_answers WHERE tenant_id = :tenant",
    ):
        session.execute(text(sql), {"tenant": tenant_id})


# Residue: the erased ids and a sample of the erased text, looked for everywhere the tenant has
# data. (column, SQL) pairs; each selects matching rows' count for :needle within the tenant.
RESIDUE_SCANS = {
    "postgres.subjects.name": (
        "SELECT count(*) FROM subjects WHERE tenant_id = :tenant AND name = :id"
    ),
    "postgres.end_users.name": (
        "SELECT count(*) FROM end_users WHERE tenant_id = :tenant AND name = :id"
    ),
    "postgres.batch_items.subject": (
        "SELECT count(*) FROM batch_items WHERE tenant_id = :tenant AND subject = :id"
    ),
}
# End-user ids only (subject ids are kept by design, as in the ledger): an ended erasure job
# keeps them hashed, so one found in clear is residue.
USER_ID_SCANS = {
    "postgres.erasure_jobs (ended)": (
        "SELECT count(*) FROM erasure_jobs WHERE tenant_id = :tenant "
        "AND status IN ('completed', 'failed') "
        "AND (strpos(scope::text, :quoted) > 0 OR strpos(coalesce(targets::text, ''), :quoted) > 0)"
    ),
}
TEXT_SCANS = {
    "postgres.lines.text": (
        "SELECT count(*) FROM lines l JOIN subjects s ON s.id = l.subject_id "
        "WHERE s.tenant_id = :tenant AND strpos(l.text, :needle) > 0"
    ),
    "postgres.rules.text": (
        "SELECT count(*) FROM rules r JOIN subjects s ON s.id = r.subject_id "
        "WHERE s.tenant_id = :tenant AND strpos(r.text, :needle) > 0"
    ),
    "postgres.facts.text": (
        "SELECT count(*) FROM facts WHERE tenant_id = :tenant AND strpos(text, :needle) > 0"
    ),
    "postgres.extraction_turns.text": (
        "SELECT count(*) FROM extraction_turns t JOIN end_users u ON u.id = t.end_user_id "
        "WHERE u.tenant_id = :tenant AND strpos(t.text, :needle) > 0"
    ),
    "postgres.document_chunks.text": (
        "SELECT count(*) FROM document_chunks c JOIN documents d ON d.id = c.document_id "
        "WHERE d.tenant_id = :tenant AND strpos(c.text, :needle) > 0"
    ),
    "postgres.batch_items.body_and_result": (
        "SELECT count(*) FROM batch_items WHERE tenant_id = :tenant "
        "AND (strpos(body::text, :needle) > 0 OR strpos(coalesce(result::text, ''), :needle) > 0)"
    ),
    # Files are the client's documents (uploads) and what batches answered (outputs): erasing
    # a subject or an end-user does not rewrite them, so an erased text still in one is named
    # here for the operator to delete the file.
    "postgres.file_parts.data": (
        "SELECT count(*) FROM file_parts p JOIN files f ON f.id = p.file_id "
        "WHERE f.tenant_id = :tenant AND position(convert_to(:needle, 'UTF8') IN p.data) > 0"
    ),
    "postgres.learning_requests.state": (
        "SELECT count(*) FROM learning_requests WHERE tenant_id = :tenant "
        "AND strpos(state::text, :needle) > 0"
    ),
    "postgres.pass_jobs.plan": (
        "SELECT count(*) FROM pass_jobs WHERE tenant_id = :tenant "
        "AND strpos(plan::text || coalesce(result::text, ''), :needle) > 0"
    ),
    "postgres.audit_events": (
        "SELECT count(*) FROM audit_events WHERE tenant_id = :tenant "
        "AND strpos(ids::text || counts::text, :needle) > 0"
    ),
}


# The vector of a sampled erased text (a line's or a fact's), made again by the current model:
# a row holding the same bytes still holds that text's vector. One scan per table for all the
# samples; a text with no known token (an all-zero vector) is left out, as every such text
# shares it.
VECTOR_SCANS = {
    "postgres.lines.embedding": (
        "SELECT count(*) FROM lines l JOIN subjects s ON s.id = l.subject_id "
        "WHERE s.tenant_id = :tenant AND l.embedding = ANY(:vectors)"
    ),
    "postgres.facts.embedding": (
        "SELECT count(*) FROM facts WHERE tenant_id = :tenant AND embedding = ANY(:vectors)"
    ),
}


def residue_rows(
    session: Session, targets: Targets, samples: Sequence[str], vectors: Sequence[bytes]
) -> list[dict[str, Any]]:
    """Every row an erased id, a sampled erased text or one of their `vectors` still shows up
    in, per store (empty: none)."""
    found: list[dict[str, Any]] = []
    ids = [name for _, name in targets.subjects] + [name for _, name in targets.users]
    for store, sql in RESIDUE_SCANS.items():
        for id_ in ids:
            count = int(
                session.execute(text(sql), {"tenant": targets.tenant_id, "id": id_}).scalar() or 0
            )
            if count:
                found.append({"store": store, "kind": "id", "count": count})
    for store, sql in USER_ID_SCANS.items():
        for _, user in targets.users:
            quoted = json.dumps(user)
            params = {"tenant": targets.tenant_id, "quoted": quoted}
            count = int(session.execute(text(sql), params).scalar() or 0)
            if count:
                found.append({"store": store, "kind": "id", "count": count})
    for store, sql in TEXT_SCANS.items():
        for sample in samples:
            count = int(
                session.execute(text(sql), {"tenant": targets.tenant_id, "needle": sample}).scalar()
                or 0
            )
            if count:
                found.append({"store": store, "kind": "text", "count": count})
    for store, sql in VECTOR_SCANS.items() if vectors else ():
        params = {"tenant": targets.tenant_id, "vectors": vectors}
        count = int(session.execute(text(sql), params).scalar() or 0)
        if count:
            found.append({"store": store, "kind": "vector", "count": count})
    return found


# The erasure jobs and retention settings.


def has_job_not_in(session: Session, tenant_id: uuid.UUID, statuses: Sequence[str]) -> bool:
    """Whether the tenant has an erasure job in none of `statuses`."""
    return (
        session.scalar(
            select(ErasureJob.id)
            .where(ErasureJob.tenant_id == tenant_id, ErasureJob.status.not_in(statuses))
            .limit(1)
        )
        is not None
    )


def job_in(session: Session, tenant_id: uuid.UUID, statuses: Sequence[str]) -> str | None:
    """The id of one of the tenant's erasure jobs in `statuses`, if any."""
    return session.scalar(
        select(ErasureJob.id).where(
            ErasureJob.tenant_id == tenant_id, ErasureJob.status.in_(statuses)
        )
    )


def lock_job(session: Session, job_id: str) -> ErasureJob | None:
    """The job, locked for this transaction: two runs of its task never take one step twice."""
    return session.scalars(
        select(ErasureJob).where(ErasureJob.id == job_id).with_for_update()
    ).first()


def retention_settings(session: Session) -> list[RetentionSetting]:
    return list(session.scalars(select(RetentionSetting)))
