"""Admin erasure jobs through real workers, with their proof."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.support import Services, Tenant, admin_headers, new_tenant

SECRET = "Nadia Okafor keeps the spare keys of the Oslo depot."


def remember(client: TestClient, tenant: Tenant, subject: str, *lines: str) -> None:
    response = client.post(
        "/v1/memory/remember",
        json={"subject": subject, "text": "\n".join(lines)},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text


def add_facts(tenant: Tenant, user: str, *facts: str) -> None:
    from app.db import session_scope
    from app.facts.models import EndUser, Fact

    with session_scope() as (session, _jobs):
        end_user = EndUser(tenant_id=tenant.tenant_id, name=user)
        session.add(end_user)
        session.flush()
        for fact in facts:
            session.add(
                Fact(tenant_id=tenant.tenant_id, end_user_id=end_user.id, kind="fact", text=fact)
            )


def erase(client: TestClient, body: dict[str, Any]) -> str:
    response = client.post("/v1/admin/erasures", json=body, headers=admin_headers())
    assert response.status_code == 202, response.text
    return response.json()["id"]


def wait(client: TestClient, job_id: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/admin/erasures/{job_id}", headers=admin_headers()).json()
        if job["status"] in ("completed", "failed"):
            return job
        time.sleep(0.05)
    pytest.fail(f"erasure {job_id} did not finish")


def count_lines(tenant: Tenant) -> int:
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        return int(
            session.execute(
                text(
                    "SELECT count(*) FROM lines l JOIN subjects s ON s.id = l.subject_id "
                    "WHERE s.tenant_id = :t"
                ),
                {"t": tenant.tenant_id},
            ).scalar()
            or 0
        )


def test_erasing_subjects_proves_it_and_leaves_the_rest(client, worker: Services):
    tenant, other = new_tenant(client), new_tenant(client)
    remember(client, tenant, "nadia", SECRET, "She prefers calls after noon.")
    remember(client, tenant, "keep", "Unrelated line.")
    remember(client, other, "nadia", "Another tenant's Nadia line.")
    client.get("/v1/memory", params={"subject": "nadia", "lines": "true"}, headers=tenant.headers)
    batch = client.post(
        "/v1/batches",
        json={
            "requests": [
                {
                    "custom_id": "a",
                    "body": {
                        "model": "m",
                        "subject": "nadia",
                        "state": "x",
                        "questions": {"q": {"type": "noul", "instructions": "?"}},
                    },
                }
            ]
        },
        headers=tenant.headers,
    )
    assert batch.status_code == 201
    time.sleep(1)
    decided = client.post(
        "/v1/systemone",
        json={
            "model": "m",
            "subject": "nadia",
            "state": "Who holds the depot keys?",
            "questions": {"q": {"type": "noul", "instructions": "?"}},
        },
        headers=tenant.headers,
    )
    assert decided.status_code == 200 and decided.json()["memory"]["recall"] == "hybrid"
    other_before = count_lines(other)

    job = wait(client, erase(client, {"tenant_id": tenant.tenant_id, "subjects": ["nadia"]}))
    assert job["status"] == "completed", job
    proof = job["proof"]
    assert proof["verified"] is True, proof
    assert proof["stores"]["postgres.lines"] == {"before": 2, "after": 0}
    assert proof["stores"]["postgres.subjects"] == {"before": 1, "after": 0}
    # The lines' vectors, stored beside them and cached for recall, went with them.
    assert proof["stores"]["postgres.lines.embedding (vectors)"] == {"before": 2, "after": 0}
    assert proof["stores"]["redis.vectors"] == {"before": 1, "after": 0}
    assert (
        proof["stores"]["redis.keys"]["before"] >= 1 and proof["stores"]["redis.keys"]["after"] == 0
    )
    assert proof["residue"] == [] and proof["residue_scan"]["text_samples"] == 2
    assert "postgres.ledger_lines (subject ids on priced requests)" in proof["kept_by_design"]
    assert (
        client.get("/v1/memory", params={"subject": "nadia"}, headers=tenant.headers).status_code
        == 404
    )
    assert (
        client.get("/v1/memory", params={"subject": "keep"}, headers=tenant.headers).status_code
        == 200
    )
    assert count_lines(other) == other_before
    assert "Nadia" not in str(client.get("/v1/audit", headers=tenant.headers).json())


def test_erasing_end_users_takes_their_facts(client, worker):
    tenant = new_tenant(client)
    add_facts(tenant, "u-1", "u-1 works at the Bergen office.", "u-1 is allergic to peanuts.")
    add_facts(tenant, "u-2", "u-2 prefers tea.")
    job = wait(client, erase(client, {"tenant_id": tenant.tenant_id, "users": ["u-1"]}))
    assert job["proof"]["verified"] is True, job["proof"]
    assert job["proof"]["stores"]["postgres.facts"] == {"before": 2, "after": 0}
    assert job["proof"]["stores"]["postgres.facts.embedding (vectors)"]["after"] == 0
    assert job["proof"]["stores"]["postgres.end_users"] == {"before": 1, "after": 0}
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        left = (
            session.execute(
                text("SELECT text FROM facts WHERE tenant_id = :t"), {"t": tenant.tenant_id}
            )
            .scalars()
            .all()
        )
    assert left == ["u-2 prefers tea."]


def test_untouched_since_erases_only_the_stale(client, worker):
    tenant = new_tenant(client)
    remember(client, tenant, "stale", "An old line.")
    remember(client, tenant, "fresh", "A new line.")
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        session.execute(
            text(
                "UPDATE subjects SET touched_at = now() - interval '400 days' "
                "WHERE tenant_id = :t AND name = 'stale'"
            ),
            {"t": tenant.tenant_id},
        )
    since = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86400 * 30))
    job = wait(client, erase(client, {"tenant_id": tenant.tenant_id, "untouched_since": since}))
    assert job["proof"]["verified"] is True
    assert (
        client.get("/v1/memory", params={"subject": "stale"}, headers=tenant.headers).status_code
        == 404
    )
    assert (
        client.get("/v1/memory", params={"subject": "fresh"}, headers=tenant.headers).status_code
        == 200
    )


def test_erasing_a_tenant_revokes_its_keys_and_never_touches_another(client, worker):
    tenant, other = new_tenant(client), new_tenant(client)
    for i in range(12):
        remember(client, tenant, f"s{i}", f"Line {i} about the account.")
    add_facts(tenant, "u-9", "u-9 lives in Turku.")
    remember(client, other, "s1", "Other tenant's line.")
    other_before = count_lines(other)
    job_id = erase(client, {"tenant_id": tenant.tenant_id})
    refused = client.get("/v1/memory", params={"subject": "s1"}, headers=tenant.headers)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "tenant_erased"
    job = wait(client, job_id)
    assert job["proof"]["verified"] is True, job["proof"]
    assert job["proof"]["stores"]["postgres.subjects"] == {"before": 12, "after": 0}
    assert job["proof"]["stores"]["postgres.api_keys (active)"]["after"] == 0
    assert count_lines(other) == other_before
    assert (
        client.get("/v1/memory", params={"subject": "s1"}, headers=other.headers).status_code == 200
    )
    again = client.post(
        "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
    )
    assert again.status_code == 409


def test_a_planted_leftover_makes_the_proof_fail_and_names_it(client, worker):
    tenant = new_tenant(client)
    remember(client, tenant, "nadia", SECRET)
    # A copy where a buggy path would leave one: another subject's line.
    remember(client, tenant, "copy", SECRET)
    job = wait(client, erase(client, {"tenant_id": tenant.tenant_id, "subjects": ["nadia"]}))
    assert job["proof"]["verified"] is False
    assert {"store": "postgres.lines.text", "kind": "text", "count": 1} in job["proof"]["residue"]
    # The copy's vector is the erased line's vector: it is found as well.
    vector = {"store": "postgres.lines.embedding", "kind": "vector", "count": 1}
    assert vector in job["proof"]["residue"]


def test_a_worker_killed_mid_erasure_and_another_finishes_it(client, worker: Services):
    tenant = new_tenant(client)
    for i in range(120):
        remember(client, tenant, f"k{i}", f"Line of subject {i}.", "Second line.")
    job_id = erase(
        client, {"tenant_id": tenant.tenant_id, "subjects": [f"k{i}" for i in range(120)]}
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job = client.get(f"/v1/admin/erasures/{job_id}", headers=admin_headers()).json()
        if job["status"] == "running" and job["progress"]["erased"] >= 10:
            break
        time.sleep(0.01)
    assert job["status"] == "running", job
    assert worker.worker is not None
    os.killpg(worker.worker.pid, signal.SIGKILL)
    worker.worker.wait()
    worker.start_worker()
    done = wait(client, job_id, timeout=120)
    assert done["status"] == "completed"
    assert done["proof"]["verified"] is True
    assert done["proof"]["stores"]["postgres.subjects"] == {"before": 120, "after": 0}
    assert done["proof"]["stores"]["postgres.lines"] == {"before": 240, "after": 0}
    assert done["progress"]["erased"] == 120


def test_bad_erasure_requests_are_422(client):
    tenant = new_tenant(client)
    both = client.post(
        "/v1/admin/erasures",
        json={"tenant_id": tenant.tenant_id, "users": ["a"], "subjects": ["b"]},
        headers=admin_headers(),
    )
    assert both.status_code == 422
    unknown = client.post(
        "/v1/admin/erasures",
        json={"tenant_id": tenant.tenant_id, "dry_run": True},
        headers=admin_headers(),
    )
    assert unknown.status_code == 422
    assert (
        client.post(
            "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=tenant.headers
        ).status_code
        == 401
    )


def test_the_retention_sweep_erases_what_is_untouched_for_the_period(client, worker):
    from app.db import session_scope
    from workers.erasure import retention_sweep

    tenant = new_tenant(client)
    remember(client, tenant, "stale", "An old line.")
    remember(client, tenant, "fresh", "A new line.")
    with session_scope() as (session, _jobs):
        session.execute(
            text(
                "UPDATE subjects SET touched_at = now() - interval '400 days' "
                "WHERE tenant_id = :t AND name = 'stale'"
            ),
            {"t": tenant.tenant_id},
        )
    response = client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/retention",
        json={"days": 365},
        headers=admin_headers(),
    )
    assert response.status_code == 200
    created = retention_sweep()  # runs here, as beat's task would on a worker
    mine = [
        job_id
        for job_id in created
        if client.get(f"/v1/admin/erasures/{job_id}", headers=admin_headers()).json()["tenant_id"]
        == tenant.tenant_id
    ]
    assert len(mine) == 1
    assert wait(client, mine[0])["proof"]["verified"] is True
    assert (
        client.get("/v1/memory", params={"subject": "stale"}, headers=tenant.headers).status_code
        == 404
    )
    assert (
        client.get("/v1/memory", params={"subject": "fresh"}, headers=tenant.headers).status_code
        == 200
    )


def test_an_erased_end_user_id_is_left_nowhere_jobs_and_logs_included(
    client, worker, caplog: pytest.LogCaptureFixture
):
    import hashlib
    import logging

    from app.db import session_scope

    tenant = new_tenant(client)
    user = "alice.smith@example.com"
    add_facts(tenant, user, "Alice works at the Bergen office.")
    with caplog.at_level(logging.INFO, logger="dossier.access"):
        client.get(f"/v1/users/{user}/facts", headers=tenant.headers)
        job = wait(client, erase(client, {"tenant_id": tenant.tenant_id, "users": [user]}))
    assert job["proof"]["verified"] is True, job["proof"]
    hashed = "sha256:" + hashlib.sha256(user.encode()).hexdigest()
    assert job["scope"]["users"] == [hashed]
    with session_scope() as (session, _jobs):
        in_jobs = session.execute(
            text(
                "SELECT count(*) FROM erasure_jobs WHERE strpos(scope::text, :id) > 0 "
                "OR strpos(coalesce(targets::text, ''), :id) > 0"
            ),
            {"id": user},
        ).scalar()
    assert in_jobs == 0
    access = [r for r in caplog.records if r.name == "dossier.access"]
    assert access and not any(user in r.getMessage() for r in access)
    assert any("/v1/users/{user}/facts" in r.getMessage() for r in access)


def test_a_tenant_whose_erasure_failed_can_be_erased_again(client):
    import uuid

    from app.db import session_scope
    from app.erasure import service

    tenant = new_tenant(client)
    with session_scope() as (session, jobs):
        first = service.create_job(session, jobs, uuid.UUID(tenant.tenant_id)).id
        jobs.discard()  # never sent: it stays queued whatever workers run
    again = client.post(
        "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
    )
    assert again.status_code == 409  # one erasure at a time
    with session_scope() as (session, _jobs):
        service.fail(session, first, "simulated: the erasure failed")
    retried = client.post(
        "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
    )
    assert retried.status_code == 202, retried.text
    status = client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "active"},
        headers=admin_headers(),
    )
    assert status.status_code == 409  # still erasing: it can only be erased, not brought back
