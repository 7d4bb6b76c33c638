"""Idempotent writes: a request retried with the same `Idempotency-Key` gets the first answer
and stores nothing twice, on every route that takes one, under concurrent retries too."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from tests.support import Services, Tenant

KEY = "Idempotency-Key"
NOUL = {"urgent": {"type": "noul", "instructions": "Is this urgent?"}}


def send(
    client: TestClient, tenant: Tenant, path: str, key: str | None, **kwargs: Any
) -> httpx.Response:
    headers = dict(tenant.headers)
    if key is not None:
        headers[KEY] = key
    return client.post(path, headers=headers, **kwargs)


def lines_of(client: TestClient, tenant: Tenant, subject: str) -> list[str]:
    found = client.get(
        "/v1/memory", params={"subject": subject, "lines": "true"}, headers=tenant.headers
    )
    return list(found.json()["lines"])


def stored_answers(services: Services, tenant: Tenant) -> list[tuple[str, str | None]]:
    with psycopg.connect(services.database_url.replace("+psycopg", "")) as conn:
        rows = conn.execute(
            "SELECT key, subject FROM idempotent_answers WHERE tenant_id = %s ORDER BY key",
            (tenant.tenant_id,),
        ).fetchall()
    return [(key, subject) for key, subject in rows]


def test_a_retried_remember_gets_the_first_answer_and_stores_the_line_once(
    client: TestClient, tenant: Tenant
) -> None:
    body = {"subject": "acme", "text": "Runs the on-premises edition."}
    first = send(client, tenant, "/v1/memory/remember", "k-1", json=body)
    # The same request written another way (key order, spacing) is the same request.
    again = client.post(
        "/v1/memory/remember",
        content='{ "text": "Runs the on-premises edition.",  "subject": "acme" }',
        headers={**tenant.headers, KEY: "k-1", "Content-Type": "application/json"},
    )
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert lines_of(client, tenant, "acme") == ["Runs the on-premises edition."]
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["route"] for line in ledger].count("memory.remember") == 1  # billed once

    # Without a key, or with a new one, a request is a new request.
    send(client, tenant, "/v1/memory/remember", None, json=body).raise_for_status()
    send(client, tenant, "/v1/memory/remember", "k-2", json=body).raise_for_status()
    assert len(lines_of(client, tenant, "acme")) == 3


def test_a_key_sent_with_another_request_is_refused_naming_the_header(
    client: TestClient, tenant: Tenant
) -> None:
    send(
        client, tenant, "/v1/memory/remember", "k", json={"subject": "a", "text": "One."}
    ).raise_for_status()
    other_body = send(
        client, tenant, "/v1/memory/remember", "k", json={"subject": "a", "text": "Two."}
    )
    other_route = send(
        client, tenant, "/v1/memory/rules", "k", json={"subject": "a", "text": "Be kind."}
    )
    for refused in (other_body, other_route):
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "idempotency_key_reused"
        assert refused.json()["error"]["field"] == KEY
    assert lines_of(client, tenant, "a") == ["One."]


@pytest.mark.parametrize("key", ["", "x" * 256, "clé", "two words"])
def test_a_malformed_key_is_a_422_naming_the_header(
    client: TestClient, tenant: Tenant, key: str
) -> None:
    refused = client.post(
        "/v1/memory/remember",
        json={"subject": "a", "text": "One."},
        headers={**tenant.headers, KEY: key.encode()},
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["field"] == KEY
    nothing = client.get("/v1/memory", params={"subject": "a"}, headers=tenant.headers)
    assert nothing.status_code == 404


def test_a_failed_first_request_leaves_the_key_free(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    too_long = send(
        client, tenant, "/v1/memory/remember", "k", json={"subject": "a", "text": "x" * 5000}
    )
    assert too_long.status_code == 422
    assert stored_answers(services, tenant) == []
    fixed = send(client, tenant, "/v1/memory/remember", "k", json={"subject": "a", "text": "Ok."})
    assert fixed.status_code == 200 and "idempotent-replayed" not in fixed.headers


def test_retries_sent_all_at_once_do_the_work_once(
    live_url: str, client: TestClient, tenant: Tenant
) -> None:
    body = {"subject": "burst", "text": "Prefers email."}

    def retry(_: int) -> tuple[int, Any, bool]:
        answer = httpx.post(
            f"{live_url}/v1/memory/remember",
            json=body,
            headers={**tenant.headers, KEY: "same-key"},
            timeout=60,
        )
        return answer.status_code, answer.json(), "idempotent-replayed" in answer.headers

    with ThreadPoolExecutor(max_workers=24) as pool:
        answers = list(pool.map(retry, range(24)))
    assert {status for status, _, _ in answers} == {200}
    assert len({json.dumps(body) for _, body, _ in answers}) == 1  # in the same key order
    assert sum(not replayed for _, _, replayed in answers) == 1  # one did the work
    assert lines_of(client, tenant, "burst") == ["Prefers email."]


def test_every_write_route_that_takes_a_key_replays_its_first_answer(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    client.put(
        "/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers
    ).raise_for_status()
    client.post("/v1/collections", json={"name": "Docs"}, headers=tenant.headers).raise_for_status()
    fact = {"facts": [{"text": "Lives in Ljubljana"}]}
    batch = {
        "requests": [{"custom_id": "r1", "body": {"model": "m", "state": "x", "questions": NOUL}}]
    }
    calls: list[tuple[str, dict[str, Any]]] = [
        ("/v1/memory/rules", {"json": {"subject": "s", "text": "Never call before 9."}}),
        ("/v1/memory/aliases", {"json": {"subject": "s", "aliases": ["Globex"]}}),
        ("/v1/users/u-1/facts", {"json": fact}),
        ("/v1/collections/docs/documents", {"json": {"title": "Refunds", "text": "In 5 days."}}),
        # A multipart upload: httpx draws a new boundary for each send.
        (
            "/v1/collections/docs/documents",
            {"files": {"files": ("notes.txt", b"Refunds are paid in five days.", "text/plain")}},
        ),
        ("/v1/batches", {"json": batch}),
    ]
    for n, (path, kwargs) in enumerate(calls):
        key = f"route-{n}"
        first = send(client, tenant, path, key, **kwargs)
        again = send(client, tenant, path, key, **kwargs)
        assert first.status_code < 300, (path, first.text)
        assert (again.status_code, again.json()) == (first.status_code, first.json()), path
        assert again.headers.get("idempotent-replayed") == "true", path

    rules = client.get("/v1/memory", params={"subject": "s"}, headers=tenant.headers).json()
    assert rules["rule_count"] == 1 and rules["alias_count"] == 1
    facts = client.get("/v1/users/u-1/facts", headers=tenant.headers).json()["data"]
    assert len(facts) == 1
    documents = client.get("/v1/collections/docs/documents", headers=tenant.headers).json()
    assert len(documents["data"]) == 2
    batches = client.get("/v1/batches", headers=tenant.headers).json()["data"]
    assert len(batches) == 1


def test_forgetting_a_subject_or_erasing_a_user_takes_their_stored_answers(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    client.put(
        "/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers
    ).raise_for_status()
    for key, subject in (("a1", "ann"), ("b1", "bob"), ("c1", "cat")):
        send(
            client,
            tenant,
            "/v1/memory/remember",
            key,
            json={"subject": subject, "text": f"{subject.title()} prefers email."},
        ).raise_for_status()
    send(
        client, tenant, "/v1/users/u-9/facts", "f1", json={"facts": [{"text": "Is vegan"}]}
    ).raise_for_status()
    assert [key for key, _ in stored_answers(services, tenant)] == ["a1", "b1", "c1", "f1"]

    client.post(
        "/v1/memory/forget", json={"subject": "ann", "concept": "email"}, headers=tenant.headers
    ).raise_for_status()
    client.post(
        "/v1/memory/delete", json={"subject": "bob"}, headers=tenant.headers
    ).raise_for_status()
    client.delete("/v1/users/u-9", headers=tenant.headers).raise_for_status()
    assert stored_answers(services, tenant) == [("c1", "cat")]


def test_a_key_past_its_day_is_a_new_request_and_the_sweep_removes_old_ones(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    from workers.idempotency import idempotency_sweep

    body = {"subject": "old", "text": "Renewal in March."}
    send(client, tenant, "/v1/memory/remember", "old", json=body).raise_for_status()
    send(client, tenant, "/v1/memory/remember", "older", json=body).raise_for_status()
    with psycopg.connect(services.database_url.replace("+psycopg", "")) as conn:
        conn.execute(
            "UPDATE idempotent_answers SET created_at = now() - interval '25 hours' "
            "WHERE tenant_id = %s",
            (tenant.tenant_id,),
        )
    fresh = send(client, tenant, "/v1/memory/remember", "old", json=body)
    assert fresh.status_code == 200 and "idempotent-replayed" not in fresh.headers
    assert idempotency_sweep() >= 1
    assert stored_answers(services, tenant) == [("old", "old")]


def test_another_tenants_key_is_its_own(client: TestClient, tenant: Tenant) -> None:
    from tests.support import new_tenant

    other = new_tenant(client)
    body = {"subject": "s", "text": "Line."}
    send(client, tenant, "/v1/memory/remember", "shared", json=body).raise_for_status()
    theirs = send(client, other, "/v1/memory/remember", "shared", json=body)
    assert theirs.status_code == 200 and "idempotent-replayed" not in theirs.headers
    assert lines_of(client, other, "s") == ["Line."]
    assert uuid.UUID(other.tenant_id) != uuid.UUID(tenant.tenant_id)
