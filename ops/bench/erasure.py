"""Erasing a whole tenant: 1,000 subjects of 100 lines, 1,000 end-users with 20 facts each and
100 documents, in steps as a worker runs them; then the proof's own cost. Beside it, what a user
would write instead: one DELETE of the tenant row, cascading, with no proof.

    python ops/bench/erasure.py [SUBJECTS USERS DOCUMENTS]
"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg  # noqa: E402

from ops.bench.harness import running_api  # noqa: E402


def fill(dsn: str, tenant_id: uuid.UUID, subjects: int, users: int, documents: int) -> None:
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        cur.execute(
            "INSERT INTO subjects (tenant_id, name, line_count, next_position) "
            "SELECT %s, 's' || g, 100, 100 FROM generate_series(1, %s) g",
            (tenant_id, subjects),
        )
        cur.execute(
            "INSERT INTO lines (subject_id, position, text) "
            "SELECT s.id, p, 'Customer note ' || p || ' about ' || s.name || ' and its orders.' "
            "FROM subjects s, generate_series(0, 99) p WHERE s.tenant_id = %s",
            (tenant_id,),
        )
        cur.execute(
            "INSERT INTO end_users (tenant_id, name) "
            "SELECT %s, 'u' || g FROM generate_series(1, %s) g",
            (tenant_id, users),
        )
        cur.execute(
            "INSERT INTO facts (tenant_id, end_user_id, kind, text) "
            "SELECT %s, u.id, 'fact', u.name || ' fact ' || f || ': likes green tea.' "
            "FROM end_users u, generate_series(1, 20) f WHERE u.tenant_id = %s",
            (tenant_id, tenant_id),
        )
        cur.execute(
            "INSERT INTO collections (tenant_id, slug, name) "
            "VALUES (%s, 'docs', 'Docs') RETURNING id",
            (tenant_id,),
        )
        collection = cur.fetchone()[0]  # type: ignore[index]
        cur.execute(
            "INSERT INTO documents "
            "(tenant_id, collection_id, title, media_type, status, size_bytes) "
            "SELECT %s, %s, 'Document ' || g, 'text', 'ready', 4000 FROM generate_series(1, %s) g",
            (tenant_id, collection, documents),
        )
        cur.execute(
            "INSERT INTO document_chunks (document_id, collection_id, position, text, tokens) "
            "SELECT d.id, d.collection_id, p, 'Chunk ' || p || ' of ' || d.title, 10 "
            "FROM documents d, generate_series(0, 9) p WHERE d.tenant_id = %s",
            (tenant_id,),
        )


def new_tenant(dsn: str) -> uuid.UUID:
    tenant_id = uuid.uuid4()
    with psycopg.connect(dsn) as conn:
        conn.execute("INSERT INTO tenants (id, name) VALUES (%s, 'erase-bench')", (tenant_id,))
    return tenant_id


def main(subjects: int = 1_000, users: int = 1_000, documents: int = 100) -> None:
    from app.db import session_scope
    from app.erasure import service
    from app.erasure.models import ErasureJob

    with running_api() as bench:
        dsn = bench.database_url.replace("postgresql+psycopg", "postgresql")
        tenant_id = new_tenant(dsn)
        fill(dsn, tenant_id, subjects, users, documents)
        started = time.perf_counter()
        with session_scope() as (session, jobs):
            job_id = service.create_job(session, jobs, tenant_id).id
            jobs.discard()  # this process runs the steps itself, as a worker would
        steps = 0
        proof_seconds = 0.0
        while True:
            with session_scope() as (session, jobs):
                job = session.get(ErasureJob, job_id)
                finishing = (
                    job is not None and job.status == "running" and not any(_left(session, job))
                )
                step_started = time.perf_counter()
                status = service.run_step(session, jobs, job_id)
                if finishing:
                    proof_seconds = time.perf_counter() - step_started
                jobs.discard()
            steps += 1
            if status in service.FINAL:
                break
        total = time.perf_counter() - started
        with session_scope() as (session, _jobs):
            proof = service.describe(session, job_id)["proof"]

        baseline_tenant = new_tenant(dsn)
        fill(dsn, baseline_tenant, subjects, users, documents)
        with psycopg.connect(dsn) as conn:
            started = time.perf_counter()
            conn.execute("DELETE FROM tenants WHERE id = %s", (baseline_tenant,))
            conn.commit()
            cascade = time.perf_counter() - started

    lines = subjects * 100
    facts = users * 20
    print(
        f"Erasing a tenant: {subjects:,} subjects ({lines:,} lines), {users:,} end-users "
        f"({facts:,} facts), {documents} documents ({documents * 10} chunks)"
    )
    print(f"  dossier erasure job, {steps} steps   {total:8.2f} s   verified={proof['verified']}")
    print(f"  of which the proof (counts, residue scan)   {proof_seconds:8.2f} s")
    print(f"  bare DELETE of the tenant row, cascading    {cascade:8.2f} s   (no proof)")


def _left(session, job) -> list[int]:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    from app.erasure import stores

    targets = stores.Targets.from_json(job.tenant_id, job.targets or {})
    left = session.execute(
        text(
            "SELECT (SELECT count(*) FROM subjects WHERE tenant_id = :t) + "
            "(SELECT count(*) FROM end_users WHERE tenant_id = :t)"
        ),
        {"t": targets.tenant_id},
    ).scalar()
    return [left] if left else []


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    main(*args)
