"""A tenant's own account deletion: suspended at once (reads, forget and deletes still work),
withdrawn during the grace period, or erased by the scheduled sweep on a real worker, with its
proof, once; the key answers 401 afterwards."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.support import Services, Tenant, admin_headers, new_tenant

SECRET = "Maja Lindholm keeps the vault code 4417 in her desk."


def remember(client: TestClient, tenant: Tenant, subject: str, body: str) -> Any:
    return client.post(
        "/v1/memory/remember", json={"subject": subject, "text": body}, headers=tenant.headers
    )


def request_deletion(client: TestClient, tenant: Tenant, confirm: str = "test") -> dict[str, Any]:
    response = client.post(
        "/v1/account/deletion", json={"confirm": confirm}, headers=tenant.headers
    )
    assert response.status_code == 202, response.text
    return response.json()


def set_status(client: TestClient, tenant: Tenant, status: str) -> dict[str, Any]:
    response = client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": status},
        headers=admin_headers(),
    )
    assert response.status_code == 200, response.text
    return response.json()


def admin_view(client: TestClient, tenant: Tenant) -> dict[str, Any]:
    response = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers())
    assert response.status_code == 200, response.text
    return response.json()


def refused(response: Any, code: str) -> None:
    assert response.status_code == 403, response.text
    assert response.json()["error"]["code"] == code, response.text


def add_user_facts(tenant: Tenant, user: str, *facts: str) -> list[int]:
    from app.db import session_scope
    from app.facts.models import EndUser, Fact

    with session_scope() as (session, _jobs):
        end_user = EndUser(tenant_id=tenant.tenant_id, name=user)
        session.add(end_user)
        session.flush()
        rows = [
            Fact(tenant_id=tenant.tenant_id, end_user_id=end_user.id, kind="fact", text=fact)
            for fact in facts
        ]
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]


def end_grace_period(tenant: Tenant) -> None:
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        session.execute(
            text(
                "UPDATE account_deletions SET erase_after = now() - interval '1 minute' "
                "WHERE tenant_id = :t AND status = 'pending'"
            ),
            {"t": tenant.tenant_id},
        )


def erasure_jobs_of(tenant: Tenant) -> list[str]:
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        return list(
            session.scalars(
                text("SELECT id FROM erasure_jobs WHERE tenant_id = :t ORDER BY created_at"),
                {"t": tenant.tenant_id},
            )
        )


def wait_for_erasure(client: TestClient, tenant: Tenant, timeout: float = 90) -> dict[str, Any]:
    """The erasure job that answers the tenant's request, once it has ended."""
    deadline = time.monotonic() + timeout
    job: dict[str, Any] = {}
    while time.monotonic() < deadline:
        deletion = admin_view(client, tenant)["deletion"]
        if deletion["erasure_id"]:
            job = client.get(
                f"/v1/admin/erasures/{deletion['erasure_id']}", headers=admin_headers()
            ).json()
            if job["status"] in ("completed", "failed"):
                return job
        time.sleep(0.1)
    pytest.fail(f"the requested erasure did not end: {job}")


def test_a_deletion_request_suspends_writes_while_reads_forget_and_deletes_work(
    client: TestClient, tenant: Tenant
) -> None:
    other = new_tenant(client, "other")
    assert remember(client, tenant, "acme", f"{SECRET}\nACME renews in March.").status_code == 200
    rule = client.post(
        "/v1/memory/rules", json={"subject": "acme", "text": "Be brief."}, headers=tenant.headers
    ).json()["rule"]
    client.post(
        "/v1/memory/aliases",
        json={"subject": "acme", "aliases": ["Acme Corp", "ACME Inc"]},
        headers=tenant.headers,
    ).raise_for_status()
    remember(client, tenant, "beta", "Beta pays late.").raise_for_status()
    fact_id, _ = add_user_facts(tenant, "u-1", "u-1 lives in Turku.", "u-1 likes tea.")
    add_user_facts(tenant, "u-2", "u-2 works nights.")

    before = datetime.now(UTC)
    deletion = request_deletion(client, tenant)
    assert deletion["status"] == "pending"
    assert deletion["account_status"] == "deletion_requested"
    assert deletion["withdraw"] == "DELETE /v1/account/deletion"
    assert deletion["started_at"] is None and deletion["erasure_id"] is None
    erase_after = datetime.fromisoformat(deletion["erase_after"])
    grace = erase_after - before
    assert timedelta(hours=71, minutes=59) < grace < timedelta(hours=72, minutes=1)

    # Shown where the tenant and the console look.
    account = client.get("/v1/account", headers=tenant.headers).json()
    assert account["status"] == "deletion_requested"
    assert account["deletion"]["id"] == deletion["id"]
    shown = client.get("/v1/account/deletion", headers=tenant.headers)
    assert shown.status_code == 200 and shown.json()["id"] == deletion["id"]
    again = client.post("/v1/account/deletion", json={"confirm": "test"}, headers=tenant.headers)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "deletion_already_requested"

    # Writes: 403 with the code, naming how to withdraw.
    write = remember(client, tenant, "acme", "One more line.")
    refused(write, "deletion_requested")
    assert "DELETE /v1/account/deletion" in write.json()["error"]["message"]
    refused(
        client.post(
            "/v1/memory/rules", json={"subject": "acme", "text": "x"}, headers=tenant.headers
        ),
        "deletion_requested",
    )
    refused(
        client.put(
            "/v1/settings/quality",
            json={"quality": "fast", "temperature": 0.5},
            headers=tenant.headers,
        ),
        "deletion_requested",
    )
    batch = {
        "requests": [
            {
                "custom_id": "r1",
                "body": {
                    "model": "dossier-lexical-1",
                    "state": "x",
                    "questions": {"q": {"type": "noul", "instructions": "Urgent?"}},
                },
            }
        ]
    }
    refused(client.post("/v1/batches", json=batch, headers=tenant.headers), "deletion_requested")

    # Reads.
    memory = client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    )
    assert memory.status_code == 200 and SECRET in memory.json()["lines"]
    for path in ("/v1/ledger", "/v1/audit", "/v1/users", "/v1/users/u-1/facts"):
        assert client.get(path, headers=tenant.headers).status_code == 200, path
    audit = client.get("/v1/audit", headers=tenant.headers).json()["data"]
    requested = [e for e in audit if e["action"] == "account.deletion.requested"]
    assert requested and requested[0]["ids"] == [deletion["id"]]
    assert requested[0]["counts"] == {"grace_hours": 72}

    # Forget (and its preview), and every delete.
    forget = {"subject": "acme", "concept": "Maja Lindholm"}
    preview = client.post(
        "/v1/memory/forget", json={**forget, "preview": True}, headers=tenant.headers
    )
    assert preview.status_code == 200, preview.text
    gone = client.post("/v1/memory/forget", json=forget, headers=tenant.headers)
    assert gone.status_code == 200, gone.text
    assert gone.json()["removed_lines"] == [SECRET]
    for path, body in (
        ("/v1/memory/aliases/delete", {"subject": "acme", "aliases": ["Acme Corp"]}),
        ("/v1/memory/rules/delete", {"subject": "acme", "ids": [rule["id"]]}),
        ("/v1/memory/delete", {"subject": "beta"}),
    ):
        response = client.post(path, json=body, headers=tenant.headers)
        assert response.status_code == 200, (path, response.text)
    fact = client.delete(f"/v1/users/u-1/facts/{fact_id}", headers=tenant.headers)
    assert fact.status_code == 200, fact.text
    erased_user = client.delete("/v1/users/u-2", headers=tenant.headers)
    assert erased_user.status_code == 200, erased_user.text

    # Another tenant is untouched.
    assert remember(client, other, "acme", "Other's line.").status_code == 200
    assert client.get("/v1/account", headers=other.headers).json()["deletion"] is None
    assert client.get("/v1/account/deletion", headers=other.headers).status_code == 404


def test_the_confirmation_must_name_the_account(client: TestClient, tenant: Tenant) -> None:
    for body, field, code in (
        ({"confirm": "someone else"}, "confirm", "confirmation_mismatch"),
        ({}, "confirm", "invalid"),
        ({"confirm": 1}, "confirm", "invalid"),
        ({"confirm": "test", "now": True}, "now", "unknown_field"),
    ):
        response = client.post("/v1/account/deletion", json=body, headers=tenant.headers)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"]["field"] == field, response.text
        assert response.json()["error"]["code"] == code, response.text
    assert client.get("/v1/account", headers=tenant.headers).json()["status"] == "active"
    assert remember(client, tenant, "s", "still writable").status_code == 200
    assert client.get("/v1/account/deletion", headers=tenant.headers).status_code == 404
    # The tenant id confirms as well as the name; a query string is refused.
    query = client.post(
        "/v1/account/deletion?dry_run=true",
        json={"confirm": tenant.tenant_id},
        headers=tenant.headers,
    )
    assert query.status_code == 422 and query.json()["error"]["field"] == "dry_run"
    assert request_deletion(client, tenant, tenant.tenant_id)["status"] == "pending"
    # Not through the admin token, nor without a key.
    assert client.post("/v1/account/deletion", json={"confirm": "test"}).status_code == 401


def test_withdrawing_reactivates_but_never_lifts_an_operators_suspension(
    client: TestClient,
) -> None:
    # Asked, then withdrawn: active again, and writing.
    tenant = new_tenant(client)
    deletion = request_deletion(client, tenant)
    withdrawn = client.delete("/v1/account/deletion", headers=tenant.headers)
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json()["id"] == deletion["id"]
    assert withdrawn.json()["status"] == "withdrawn" and withdrawn.json()["withdrawn_at"]
    assert withdrawn.json()["account_status"] == "active" and withdrawn.json()["withdraw"] is None
    assert remember(client, tenant, "s", "writable again").status_code == 200
    assert client.get("/v1/account/deletion", headers=tenant.headers).json()["status"] == (
        "withdrawn"
    )
    assert client.get("/v1/account", headers=tenant.headers).json()["deletion"] is None
    twice = client.delete("/v1/account/deletion", headers=tenant.headers)
    assert twice.status_code == 404 and twice.json()["error"]["code"] == "no_pending_deletion"
    events = client.get("/v1/audit", params={"action": "account."}, headers=tenant.headers)
    assert [e["action"] for e in events.json()["data"]] == [
        "account.deletion.withdrawn",
        "account.deletion.requested",
    ]
    # It may ask again once withdrawn.
    assert request_deletion(client, tenant)["id"] != deletion["id"]

    # Suspended by the operator, then asks: withdrawing leaves the operator's suspension.
    suspended = new_tenant(client)
    set_status(client, suspended, "suspended")
    asked = request_deletion(client, suspended)
    assert asked["account_status"] == "suspended"
    refused(remember(client, suspended, "s", "no"), "tenant_suspended")
    client.delete("/v1/account/deletion", headers=suspended.headers).raise_for_status()
    refused(remember(client, suspended, "s", "no"), "tenant_suspended")
    assert admin_view(client, suspended)["status"] == "suspended"

    # Asks, then the operator suspends it: withdrawing leaves it suspended too; and lifting the
    # operator's suspension while a request is pending leaves the request's own in force.
    both = new_tenant(client)
    request_deletion(client, both)
    set_status(client, both, "suspended")
    assert set_status(client, both, "active")["status"] == "deletion_requested"
    refused(remember(client, both, "s", "no"), "deletion_requested")
    set_status(client, both, "suspended")
    client.delete("/v1/account/deletion", headers=both.headers).raise_for_status()
    refused(remember(client, both, "s", "no"), "tenant_suspended")
    assert set_status(client, both, "active")["status"] == "active"
    assert remember(client, both, "s", "yes").status_code == 200


def test_the_sweep_after_the_grace_period_erases_once_with_its_proof(
    client: TestClient, worker: Services
) -> None:
    from workers.account import deletion_sweep
    from workers.celery import celery_app

    tenant, other = new_tenant(client), new_tenant(client, "other")
    for i in range(7):
        remember(client, tenant, f"s{i}", f"{SECRET} Line {i}.").raise_for_status()
    add_user_facts(tenant, "u-9", "u-9 lives in Turku.")
    remember(client, other, "s1", "Other tenant's line.").raise_for_status()

    deletion = request_deletion(client, tenant)
    # Within the grace period the sweep starts nothing.
    deletion_sweep()
    assert erasure_jobs_of(tenant) == []
    assert admin_view(client, tenant)["deletion"]["status"] == "pending"

    end_grace_period(tenant)
    # Two beats at once, on the worker; and one more here, after them.
    celery_app.send_task("dossier.scheduled.account_deletions")
    celery_app.send_task("dossier.scheduled.account_deletions")
    job = wait_for_erasure(client, tenant)
    threads = [threading.Thread(target=deletion_sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert erasure_jobs_of(tenant) == [job["id"]]

    assert job["status"] == "completed" and job["kind"] == "tenant"
    assert job["proof"]["verified"] is True, job["proof"]
    assert job["proof"]["stores"]["postgres.subjects"] == {"before": 7, "after": 0}
    assert job["proof"]["stores"]["postgres.facts"] == {"before": 1, "after": 0}
    assert job["proof"]["stores"]["postgres.api_keys (active)"]["after"] == 0
    assert job["scope"]["requested_by"] == "tenant"
    assert job["scope"]["account_deletion"] == deletion["id"]

    view = admin_view(client, tenant)
    assert view["status"] == "erased"
    assert view["deletion"]["status"] == "erased"
    assert view["deletion"]["erasure_id"] == job["id"]
    assert view["deletion"]["started_by"] == "schedule"

    # The key is a key of nothing now.
    for path in ("/v1/account", "/v1/account/deletion", "/v1/ledger"):
        response = client.get(path, headers=tenant.headers)
        assert response.status_code == 401, (path, response.text)
    assert client.delete("/v1/account/deletion", headers=tenant.headers).status_code == 401

    # The audit says who asked and what ran, with ids and counts only.
    from app.db import session_scope

    with session_scope() as (session, _jobs):
        events = session.execute(
            text(
                "SELECT action, ids, counts FROM audit_events WHERE tenant_id = :t "
                "AND (action LIKE 'account.%' OR action = 'erasure.completed') ORDER BY id"
            ),
            {"t": tenant.tenant_id},
        ).all()
    assert [(e.action, e.ids) for e in events] == [
        ("account.deletion.requested", [deletion["id"]]),
        ("account.deletion.erasing", [deletion["id"], job["id"]]),
        ("erasure.completed", [job["id"]]),
    ]
    assert events[1].counts == {"by_operator": 0}
    assert "Lindholm" not in json.dumps([list(e) for e in events])

    # The other tenant keeps everything.
    kept = client.get(
        "/v1/memory", params={"subject": "s1", "lines": "true"}, headers=other.headers
    )
    assert kept.status_code == 200 and kept.json()["lines"] == ["Other tenant's line."]
    assert admin_view(client, other)["status"] == "active"


def test_the_operator_sees_pending_requests_and_may_run_one_at_once(
    client: TestClient, worker: Services
) -> None:
    tenant = new_tenant(client)
    remember(client, tenant, "s", SECRET).raise_for_status()
    nothing = client.post(
        f"/v1/admin/tenants/{tenant.tenant_id}/deletion/run", headers=admin_headers()
    )
    assert nothing.status_code == 404 and nothing.json()["error"]["code"] == "no_pending_deletion"

    deletion = request_deletion(client, tenant)
    listed = client.get("/v1/admin/account-deletions", headers=admin_headers()).json()["data"]
    assert deletion["id"] in [d["id"] for d in listed]
    assert admin_view(client, tenant)["deletion"]["status"] == "pending"
    assert client.get("/v1/admin/account-deletions", headers=tenant.headers).status_code == 401

    run = client.post(f"/v1/admin/tenants/{tenant.tenant_id}/deletion/run", headers=admin_headers())
    assert run.status_code == 202, run.text
    assert run.json()["started_by"] == "operator" and run.json()["erasure_id"]
    assert run.json()["status"] == "erasing"
    # Its keys stop at once: the erasure has started.
    refused(client.get("/v1/account", headers=tenant.headers), "tenant_erased")
    job = wait_for_erasure(client, tenant)
    assert job["id"] == run.json()["erasure_id"]
    assert job["proof"]["verified"] is True, job["proof"]
    listed = client.get("/v1/admin/account-deletions", headers=admin_headers()).json()["data"]
    assert deletion["id"] not in [d["id"] for d in listed]
    again = client.post(
        f"/v1/admin/tenants/{tenant.tenant_id}/deletion/run", headers=admin_headers()
    )
    assert again.status_code == 404
    assert client.get("/v1/account", headers=tenant.headers).status_code == 401


def test_a_batch_in_flight_stops_when_the_deletion_is_requested(
    client: TestClient, worker: Services
) -> None:
    tenant = new_tenant(client)
    body = {
        "model": "dossier-lexical-1",
        "state": "Dashboards are slow.",
        "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
    }
    worker.stop_worker()  # so the request comes before any item runs
    try:
        created = client.post(
            "/v1/batches",
            json={"requests": [{"custom_id": f"r{i}", "body": body} for i in range(3)]},
            headers=tenant.headers,
        )
        assert created.status_code == 201, created.text
        request_deletion(client, tenant)
    finally:
        worker.start_worker()
    batch_id = created.json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        batch = client.get(f"/v1/batches/{batch_id}", headers=tenant.headers).json()
        if batch["status"] == "completed":
            break
        time.sleep(0.1)
    assert batch["status"] == "completed", batch
    assert batch["request_counts"]["errored"] == 3
    rows = client.get(f"/v1/batches/{batch_id}/results", headers=tenant.headers).text
    errors = [json.loads(line)["result"]["error"]["code"] for line in rows.splitlines()]
    assert errors == ["deletion_requested"] * 3
