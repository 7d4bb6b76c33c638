"""Every job-bearing row reaches a terminal state with a reason: hostile PDFs end `failed` in
seconds while another tenant's batch completes; a task past its time limit ends its row failed
(one mechanism for every task: `app.jobs.failures`)."""

from __future__ import annotations

import time
import zlib

import psycopg
from fastapi.testclient import TestClient

from tests.support import Services, Tenant, new_tenant, wait_until

NOUL = {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog), with a correct xref."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def flate_bomb() -> bytes:
    """One page whose content stream inflates to 200 MB (pypdf stops at 75 MB)."""
    stream = zlib.compress(b" " * 200_000_000, 9)
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream",
        ]
    )


def many_pages(count: int = 20_000) -> bytes:
    """`count` pages sharing one content stream."""
    kids = b" ".join(b"%d 0 R" % (4 + i) for i in range(count))
    content = b"BT /F1 12 Tf 72 712 Td (Hello) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>"] * count
    return _pdf(objects)


def test_hostile_pdfs_end_failed_while_another_tenants_batch_completes(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    client.put("/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers)
    client.post("/v1/collections", json={"name": "Hostile"}, headers=tenant.headers)
    uploaded = client.post(
        "/v1/collections/hostile/documents",
        files=[
            ("files", ("bomb.pdf", flate_bomb(), "application/pdf")),
            ("files", ("pages.pdf", many_pages(), "application/pdf")),
        ],
        headers=tenant.headers,
    )
    assert uploaded.status_code == 202, uploaded.text
    ids = [doc["id"] for doc in uploaded.json()["data"]]
    other = new_tenant(client)
    requests = [
        {"custom_id": f"r{i}", "body": {"model": "m", "state": f"t{i}", "questions": NOUL}}
        for i in range(50)
    ]
    batch = client.post("/v1/batches", json={"requests": requests}, headers=other.headers).json()

    def documents_if_ended() -> list[dict] | None:
        docs = [
            client.get(f"/v1/collections/hostile/documents/{i}", headers=tenant.headers).json()
            for i in ids
        ]
        return docs if all(doc["status"] != "processing" for doc in docs) else None

    done = wait_until(documents_if_ended, 60, "both documents ending")
    assert [d["status"] for d in done] == ["failed", "failed"]
    assert all(d["error"] for d in done)  # the bomb inflates to no text: pypdf stops at 75 MB
    assert "20000 pages" in done[1]["error"]
    wait_until(
        lambda: (
            client.get(f"/v1/batches/{batch['id']}", headers=other.headers).json()["status"]
            == "completed"
        ),
        60,
        "the other tenant's batch",
    )


def test_a_task_past_its_time_limit_ends_its_row_failed(
    services: Services, client: TestClient, tenant: Tenant, worker: Services
) -> None:
    worker.stop_worker()  # the request is queued before any worker can take it
    decided = client.post(
        "/v1/systemone",
        json={
            "model": "m",
            "state": {"ticket": "Harbor runs the self-hosted edition."},
            "questions": NOUL,
            "subject": "held",
            "memory": {"learn": True},
        },
        headers=tenant.headers,
    )
    assert decided.status_code == 200, decided.text
    request_id = decided.json()["learning"]["request_id"]
    with psycopg.connect(services.database_url.replace("+psycopg", "")) as holder:
        # The gate's task locks its request first: held here, it waits past its time limit
        # (8 s in the tests), and so does the failure report until the lock goes.
        holder.execute("SELECT id FROM learning_requests WHERE id = %s FOR UPDATE", (request_id,))
        worker.start_worker()
        time.sleep(10)
        holder.rollback()

    def ended_request() -> dict | None:
        found = client.get(f"/v1/learning/{request_id}", headers=tenant.headers).json()
        return found if found["status"] != "queued" else None

    ended = wait_until(ended_request, 30, "the learning request ending")
    assert ended["status"] == "failed"
    assert "time limit" in ended["outcome"]["error"]


def test_a_task_that_keeps_killing_its_worker_is_not_run_again(
    services: Services, client: TestClient, tenant: Tenant, worker: Services
) -> None:
    import redis

    from app.cache import redis_client_url
    from app.db import session_scope
    from app.jobs.celery_app import celery_app
    from app.learning.models import LearningRequest
    from app.models import Subject

    client.post(
        "/v1/memory/remember", json={"subject": "crashy", "text": "x"}, headers=tenant.headers
    ).raise_for_status()
    with session_scope() as (session, _jobs):
        subject_pk = session.query(Subject.id).filter(Subject.name == "crashy").scalar()
        session.add(
            LearningRequest(
                id="req_crash_test", tenant_id=tenant.tenant_id, subject_id=subject_pk, state="x"
            )
        )
    # As if five deliveries of this task had each killed their worker.
    task_id = f"crash-{time.time_ns()}"
    redis.Redis.from_url(redis_client_url(services.redis_url)).set(
        f"dossier:deliveries:{task_id}:0", 5
    )
    celery_app.send_task("dossier.extraction.learn", args=["req_crash_test"], task_id=task_id)

    def ended_request() -> dict | None:
        found = client.get("/v1/learning/req_crash_test", headers=tenant.headers).json()
        return found if found["status"] != "queued" else None

    ended = wait_until(ended_request, 30, "the learning request ending")
    assert ended["status"] == "failed"
    assert "stopped 5 times" in ended["outcome"]["error"]
