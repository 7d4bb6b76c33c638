"""Batches through a real Redis broker, PostgreSQL and worker processes."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support import Services, Tenant, admin_headers, new_tenant

FINAL = {"completed", "failed", "expired", "cancelled"}


def request(
    custom_id: str, subject: str | None = "acme", state: str = "Dashboards are slow."
) -> dict:
    body: dict[str, Any] = {
        "model": "dossier-lexical-1",
        "state": state,
        "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
    }
    if subject is not None:
        body["subject"] = subject
    return {"custom_id": custom_id, "body": body}


def submit(client: TestClient, tenant: Tenant, requests: list[dict], **extra: Any) -> dict:
    response = client.post(
        "/v1/batches", json={"requests": requests, **extra}, headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    return response.json()


def wait(client: TestClient, tenant: Tenant, batch_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        batch = client.get(f"/v1/batches/{batch_id}", headers=tenant.headers).json()
        if batch["status"] in FINAL:
            return batch
        time.sleep(0.1)
    pytest.fail(f"batch {batch_id} did not finish: {batch}")


def results(client: TestClient, tenant: Tenant, batch_id: str) -> list[dict]:
    response = client.get(f"/v1/batches/{batch_id}/results", headers=tenant.headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/jsonl")
    return [json.loads(line) for line in response.text.splitlines()]


def test_a_batch_runs_to_completed_with_every_time_and_result(client, tenant, worker: Services):
    client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "ACME dashboards are critical."},
        headers=tenant.headers,
    )
    created = submit(
        client, tenant, [request(f"r{i}") for i in range(5)], metadata={"run": "nightly"}
    )
    assert created["status"] == "validating" and created["request_counts"]["total"] == 5
    done = wait(client, tenant, created["id"])
    assert done["status"] == "completed"
    assert done["request_counts"] == {
        "total": 5,
        "completed": 5,
        "failed": 0,
        "succeeded": 5,
        "errored": 0,
        "canceled": 0,
        "expired": 0,
    }
    for moment in ("created_at", "in_progress_at", "finalizing_at", "completed_at"):
        assert isinstance(done[moment], int)
    assert done["metadata"] == {"run": "nightly"}
    rows = results(client, tenant, created["id"])
    assert [row["custom_id"] for row in rows] == [f"r{i}" for i in range(5)]
    first = rows[0]["result"]
    assert first["type"] == "succeeded"
    assert first["response"]["memory"]["hits"][0]["text"] == "ACME dashboards are critical."
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert sum(line["route"] == "systemone" for line in ledger) == 5


def test_validation_fails_with_every_line_named(client, tenant, worker):
    bad = [
        request("a"),
        request("a"),
        {"custom_id": "b", "body": {"model": "m"}},
        "nope",
        {"custom_id": "c", "body": request("x")["body"], "extra": 1},
    ]
    created = submit(client, tenant, bad)
    done = wait(client, tenant, created["id"])
    assert done["status"] == "failed" and isinstance(done["failed_at"], int)
    errors = {(e["line"], e["code"]) for e in done["errors"]["data"]}
    assert errors == {
        (2, "duplicate_custom_id"),
        (3, "invalid_body"),
        (4, "invalid_request"),
        (5, "unknown_field"),
    }
    assert results(client, tenant, created["id"]) == []


def test_a_jsonl_upload_is_a_batch(client, tenant, worker):
    lines = "\n".join(json.dumps(request(f"j{i}", subject=None)) for i in range(3))
    response = client.post(
        "/v1/batches?completion_window=1h",
        content=lines.encode(),
        headers={**tenant.headers, "content-type": "application/jsonl"},
    )
    assert response.status_code == 201, response.text
    assert response.json()["completion_window"] == "3600s"
    assert wait(client, tenant, response.json()["id"])["request_counts"]["succeeded"] == 3


def test_bad_submissions_are_422(client, tenant):
    assert (
        client.post("/v1/batches", json={"requests": []}, headers=tenant.headers).status_code == 422
    )
    response = client.post(
        "/v1/batches",
        json={"requests": [request("a")], "completion_window": "soon"},
        headers=tenant.headers,
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "completion_window"
    response = client.post(
        "/v1/batches",
        content=b'{"custom_id": "a"}\n{oops',
        headers={**tenant.headers, "content-type": "application/jsonl"},
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_jsonl"


def test_cancel_finishes_running_chunks_and_cancels_the_rest(client, tenant, worker):
    created = submit(client, tenant, [request(f"c{i}", subject=None) for i in range(4000)])
    time.sleep(0.3)
    response = client.post(f"/v1/batches/{created['id']}/cancel", headers=tenant.headers)
    assert response.status_code == 200, response.text
    done = wait(client, tenant, created["id"])
    counts = done["request_counts"]
    assert done["status"] == "cancelled" and isinstance(done["cancelling_at"], int)
    assert counts["canceled"] > 0
    assert counts["succeeded"] + counts["canceled"] == counts["total"] == 4000
    rows = results(client, tenant, created["id"])
    assert {row["result"]["type"] for row in rows} <= {"succeeded", "canceled"}
    again = client.post(f"/v1/batches/{created['id']}/cancel", headers=tenant.headers)
    assert again.status_code == 409


def test_delete_only_in_a_final_state(client, tenant, worker):
    created = submit(client, tenant, [request("d1", subject=None)])
    wait(client, tenant, created["id"])
    refused = client.post(
        "/v1/batches/delete", json={"id": created["id"], "dry_run": True}, headers=tenant.headers
    )
    assert refused.status_code == 422
    gone = client.post("/v1/batches/delete", json={"id": created["id"]}, headers=tenant.headers)
    assert gone.status_code == 200
    assert client.get(f"/v1/batches/{created['id']}", headers=tenant.headers).status_code == 404


def test_credit_running_out_mid_batch_errors_the_rest(client, worker):
    # 210 decisions at the default price: the first chunk (200) is covered, so the batch is
    # taken; the second chunk's credit runs out after 10.
    tenant = new_tenant(client, credit="0.21")
    created = submit(client, tenant, [request(f"m{i}", subject=None) for i in range(250)])
    done = wait(client, tenant, created["id"])
    assert done["status"] == "completed"
    assert done["request_counts"]["succeeded"] == 210 and done["request_counts"]["errored"] == 40
    rows = results(client, tenant, created["id"])
    # Chunks run side by side, so which items the credit missed is not fixed; how many is.
    codes = [row["result"].get("error", {}).get("code") for row in rows]
    assert codes.count("insufficient_credit") == 40 and codes.count(None) == 210


def test_deleting_a_subject_takes_its_items_out_of_batches_at_once(client, tenant, worker):
    for subject in ("alpha", "beta"):
        client.post(
            "/v1/memory/remember",
            json={"subject": subject, "text": f"{subject} line"},
            headers=tenant.headers,
        )
    created = submit(
        client, tenant, [request("a1", "alpha"), request("b1", "beta"), request("a2", "alpha")]
    )
    wait(client, tenant, created["id"])
    worker.stop_worker()  # nothing runs after the delete: what it promises, it has done
    try:
        deleted = client.post(
            "/v1/memory/delete", json={"subject": "alpha"}, headers=tenant.headers
        )
        assert deleted.json()["deleted"]["batch_items"] == 2
        rows = results(client, tenant, created["id"])
        batch = client.get(f"/v1/batches/{created['id']}", headers=tenant.headers).json()
    finally:
        worker.start_worker()
    assert [row["custom_id"] for row in rows] == ["b1"]
    assert "alpha line" not in json.dumps(rows)
    assert batch["request_counts"]["total"] == 1


class HeldEngine:
    """The embedded engine, held at its first answer until the test lets it go."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.name = engine, engine.name
        self.read_window_tokens = engine.read_window_tokens
        self.deciding, self.go = threading.Event(), threading.Event()

    def count_tokens(self, text: str) -> int:
        return int(self.engine.count_tokens(text))

    def models(self) -> list[str]:
        return list(self.engine.models())

    def answer(self, model: str, states: Any, questions: Any) -> Any:
        self.deciding.set()
        assert self.go.wait(30)
        return self.engine.answer(model, states, questions)


def test_a_subject_deleted_while_its_chunk_decides_leaves_no_result_and_no_charge(
    client, tenant, services: Services, monkeypatch
):
    from app.batches import runner
    from app.db import session_scope
    from app.engines.registry import default_engine
    from workers.batches import validate_batch

    for subject in ("alpha", "beta"):
        client.post(
            "/v1/memory/remember",
            json={"subject": subject, "text": f"{subject} line"},
            headers=tenant.headers,
        )
    services.stop_worker()  # the test runs the batch's steps itself
    try:
        created = submit(client, tenant, [request("a1", "alpha"), request("b1", "beta")])
        validate_batch(created["id"])
        engine = HeldEngine(default_engine())
        monkeypatch.setattr(runner, "default_engine", lambda: engine)

        def chunk() -> None:
            with session_scope() as (session, jobs):
                runner.run_chunk(session, jobs, created["id"], 0, 10_000)

        running = threading.Thread(target=chunk)
        running.start()
        assert engine.deciding.wait(30)
        started = time.monotonic()
        deleted = client.post(
            "/v1/memory/delete", json={"subject": "alpha"}, headers=tenant.headers
        )
        waited = time.monotonic() - started
        engine.go.set()
        running.join(30)
    finally:
        services.start_worker()
    assert deleted.status_code == 200 and waited < 5  # it did not wait for the chunk
    assert deleted.json()["deleted"]["batch_items"] == 0  # the chunk had them: it takes them out
    rows = results(client, tenant, created["id"])
    assert [row["custom_id"] for row in rows] == ["b1"]
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["subject"] for line in ledger if line["route"] == "systemone"] == ["beta"]


def test_a_suspended_tenant_cannot_submit(client, tenant):
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "suspended"},
        headers=admin_headers(),
    )
    response = client.post("/v1/batches", json={"requests": [request("s")]}, headers=tenant.headers)
    assert response.status_code == 403


def test_batches_are_listed_with_a_cursor(client, tenant):
    ids = [submit(client, tenant, [request(f"l{i}", subject=None)])["id"] for i in range(3)]
    first = client.get("/v1/batches", params={"limit": 2}, headers=tenant.headers).json()
    second = client.get(
        "/v1/batches", params={"limit": 2, "cursor": first["next_cursor"]}, headers=tenant.headers
    ).json()
    listed = [b["id"] for b in first["data"] + second["data"]]
    assert sorted(listed) == sorted(ids) and second["next_cursor"] is None


def test_a_batch_past_its_window_expires_its_unfinished_items(client, tenant, worker):
    from workers.celery import celery_app

    worker.stop_worker()  # so the window passes before any item runs
    created = submit(
        client,
        tenant,
        [request(f"e{i}", subject=None) for i in range(3000)],
        completion_window="1s",
    )
    time.sleep(1.2)
    # Queued before the worker starts, so the sweep is among the first tasks it takes.
    celery_app.send_task("dossier.scheduled.expire_batches")
    worker.start_worker()
    done = wait(client, tenant, created["id"])
    assert done["status"] == "expired" and isinstance(done["expired_at"], int)
    deadline = time.monotonic() + 30  # a chunk running at the sweep finishes its own items
    while time.monotonic() < deadline:
        counts = client.get(f"/v1/batches/{created['id']}", headers=tenant.headers).json()[
            "request_counts"
        ]
        if counts["succeeded"] + counts["expired"] == 3000:
            break
        time.sleep(0.1)
    assert counts["expired"] > 0 and counts["succeeded"] + counts["expired"] == 3000
    types = {row["result"]["type"] for row in results(client, tenant, created["id"])}
    assert types <= {"succeeded", "expired"} and "expired" in types


def test_a_worker_killed_mid_batch_loses_and_duplicates_nothing(client, worker: Services):
    import os
    import signal
    from decimal import Decimal

    tenant = new_tenant(client)  # 10 credits; a decision costs 0.001
    created = submit(client, tenant, [request(f"k{i}", subject=None) for i in range(3000)])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        counts = client.get(f"/v1/batches/{created['id']}", headers=tenant.headers).json()[
            "request_counts"
        ]
        if counts["succeeded"] >= 400:
            break
        time.sleep(0.05)
    assert worker.worker is not None
    os.killpg(worker.worker.pid, signal.SIGKILL)
    worker.worker.wait()
    midway = client.get(f"/v1/batches/{created['id']}", headers=tenant.headers).json()
    assert midway["status"] == "in_progress"
    worker.start_worker()
    done = wait(client, tenant, created["id"], timeout=120)
    assert done["status"] == "completed"
    assert done["request_counts"]["succeeded"] == 3000
    rows = results(client, tenant, created["id"])
    assert sorted(row["custom_id"] for row in rows) == sorted(f"k{i}" for i in range(3000))
    info = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers()).json()
    assert Decimal(info["credit"]) == Decimal("10") - 3000 * Decimal("0.001")  # billed once each


def test_chat_items_the_credit_no_longer_covers_end_402_and_the_chunk_commits(
    client, services: Services, monkeypatch
):
    """Several chunks of one tenant run at once: the credit each chat item saw when it was
    charged may be spent by the end of its chunk. Those items end 402; the rest commit."""
    import httpx
    import psycopg

    from app.batches import runner
    from app.chat.service import ChatService
    from app.chat.upstream import ChatClient
    from app.db import session_scope
    from workers.batches import validate_batch

    tenant = new_tenant(client, credit="1")
    client.put(
        "/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers
    ).raise_for_status()
    lines = [
        {
            "custom_id": f"c{i}",
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {
                "model": "m",
                "messages": [{"role": "user", "content": f"Where do I live, question {i}?"}],
                "user": "u-1",  # with facts: each item searches them, and is charged for it
            },
        }
        for i in range(3)
    ]
    client.post(
        "/v1/users/u-1/facts", json={"facts": [{"text": "Lives in Oslo"}]}, headers=tenant.headers
    ).raise_for_status()
    uploaded = client.post(
        "/v1/files",
        files={"file": ("c.jsonl", "".join(json.dumps(x) + "\n" for x in lines).encode())},
        data={"purpose": "batch"},
        headers=tenant.headers,
    )
    assert uploaded.status_code == 201, uploaded.text
    answered = 0

    def upstream(request: httpx.Request) -> httpx.Response:
        nonlocal answered
        answered += 1
        if answered == 3:  # every item is charged: another chunk spends all but one retrieval
            with psycopg.connect(services.database_url.replace("+psycopg", "")) as other:
                other.execute(
                    "UPDATE tenants SET credit = 0.0001 WHERE id = %s", (tenant.tenant_id,)
                )
        return httpx.Response(200, json={"choices": [{"message": {"content": "Fine."}}]})

    services.stop_worker()  # the test runs the batch's steps itself
    try:
        created = client.post(
            "/v1/batches",
            json={
                "input_file_id": uploaded.json()["id"],
                "endpoint": "/v1/chat/completions",
                "completion_window": "24h",
            },
            headers=tenant.headers,
        ).json()
        validate_batch(created["id"])
        chat_client = ChatClient("http://chat.test/v1", transport=httpx.MockTransport(upstream))
        original = runner.chat_service

        def with_stub_upstream(session: Any, jobs: Any) -> ChatService:
            stock = original(session, jobs)
            return ChatService(stock.knowledge, stock.turns, chat_client)

        monkeypatch.setattr(runner, "chat_service", with_stub_upstream)
        with session_scope() as (session, jobs):
            assert runner.run_chunk(session, jobs, created["id"], 1, 1_000) == 3
    finally:
        services.start_worker()
    rows = {row["custom_id"]: row["result"] for row in results(client, tenant, created["id"])}
    assert rows["c0"]["type"] == "succeeded"
    assert [rows[c]["error"]["code"] for c in ("c1", "c2")] == ["insufficient_credit"] * 2
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["route"] for line in ledger].count("knowledge.retrieval") == 1
    account = client.get("/v1/account", headers=tenant.headers).json()
    assert float(account["credit"]) == 0.0
