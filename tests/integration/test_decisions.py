"""POST /v1/systemone through the official typesafe-sdk client and plain HTTP."""

from __future__ import annotations

import httpx
import httpx2
from fastapi.testclient import TestClient
from typesafe_sdk import Choice, Noul, NoulCriteria, Score, TypeSafeClient

from tests.support import Tenant, admin_headers, new_tenant

ROUTE = Choice(
    instructions="Which support team should handle this ticket?",
    criteria={
        "cloud_ops": "Cloud team: problems with the hosted cloud edition",
        "selfhosted_windows": "Self-hosted team, Windows Server installs and performance",
        "billing": "Billing: invoices, payments, seats and plan changes",
    },
)


def _remember(client: TestClient, tenant: Tenant, subject: str, lines: list[str]) -> None:
    response = client.post(
        "/v1/memory/remember",
        json={"subject": subject, "text": "\n".join(lines)},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text


def test_the_official_client_works_unchanged_with_memory(live_url: str, client: TestClient) -> None:
    tenant = new_tenant(client)
    lines = [f"Harbor Logistics note {i}: shipment {i} arrived at the depot." for i in range(39)]
    lines.append("Harbor Logistics runs the self-hosted edition on Windows Server.")
    _remember(client, tenant, "harbor-logistics", lines)

    encodings: list[str | None] = []
    recorder = httpx2.Client(
        event_hooks={"request": [lambda r: encodings.append(r.headers.get("content-encoding"))]}
    )
    history = [
        {"from": "customer", "text": f"Earlier message {i} about the depot."} for i in range(30)
    ]
    with TypeSafeClient(
        base_url=live_url, api_key=tenant.api_key, compression="zstd", http_client=recorder
    ) as sdk:
        response = sdk.system_one(
            {
                "ticket": "Dashboards have been really slow since this morning at Harbor.",
                "history": history,
            },
            {
                "team": ROUTE,
                "urgent": Noul(
                    instructions="Is this ticket urgent?",
                    criteria=NoulCriteria(true="Service is down", false="A question"),
                ),
                "severity": Score(
                    instructions="How severe is it?", criteria=["cosmetic", "degraded", "down"]
                ),
            },
            model="dossier-lexical-1",
            extra_body={"subject": "harbor-logistics", "memory": {"top_k": 6}},
        )
    assert encodings == ["zstd"]  # the body was over 1 KB, so the client compressed it
    assert set(response.answers) == {"team", "urgent", "severity"}
    assert response.answers["team"].choice in ROUTE.criteria
    assert 0 <= response.answers["urgent"].noul <= 1
    raw = sdk_last_raw(live_url, tenant)
    memory = raw["memory"]
    assert memory["subject"] == "harbor-logistics"
    assert memory["lines_used"] == len(memory["hits"]) >= 1
    assert "Harbor Logistics runs the self-hosted edition on Windows Server." in [
        hit["text"] for hit in memory["hits"]
    ]
    assert (
        all(hit["read"] for hit in memory["hits"]) and memory["lines_seen"] == memory["lines_used"]
    )


def sdk_last_raw(live_url: str, tenant: Tenant) -> dict:
    """The same decision over plain HTTP, to see Dossier's added fields."""
    body = {
        "model": "dossier-lexical-1",
        "state": {
            "ticket": "Dashboards have been really slow since this morning at Harbor Logistics."
        },
        "questions": {"team": ROUTE.model_dump(exclude_none=True) | {"type": "choice"}},
        "subject": "harbor-logistics",
    }
    response = httpx.post(f"{live_url}/v1/systemone", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_memory_use_false_answers_without_memory(client: TestClient, tenant: Tenant) -> None:
    _remember(client, tenant, "acme", ["ACME runs the self-hosted edition on Windows Server."])
    body = {
        "model": "m",
        "state": "ACME says dashboards are slow.",
        "questions": {"team": {"type": "choice", "criteria": dict(ROUTE.criteria)}},
        "subject": "acme",
        "memory": {"use": False},
    }
    response = client.post("/v1/systemone", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    assert response.json()["memory"] is None


def test_a_decision_is_billed_and_refused_without_credit(client: TestClient) -> None:
    tenant = new_tenant(client)
    body = {
        "model": "m",
        "state": "x",
        "questions": {"q": {"type": "noul", "instructions": "yes?"}},
    }
    assert client.post("/v1/systemone", json=body, headers=tenant.headers).status_code == 200
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert ledger[0]["route"] == "systemone" and ledger[0]["billed"] is True
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/credit",
        json={"credit": "0"},
        headers=admin_headers(),
    )
    assert client.post("/v1/systemone", json=body, headers=tenant.headers).status_code == 402
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "suspended"},
        headers=admin_headers(),
    )
    assert client.post("/v1/systemone", json=body, headers=tenant.headers).status_code == 403


def test_bad_requests_name_the_field(client: TestClient, tenant: Tenant) -> None:
    base = {"model": "m", "state": "x", "questions": {"q": {"type": "noul", "instructions": "?"}}}
    cases = [
        ({**base, "memory": {"top_k": 50}}, "memory.top_k"),
        ({**base, "memroy": {}}, "memroy"),
        ({**base, "subject": "bad subject"}, "subject"),
        ({**base, "questions": {"q": {"type": "choice", "criteria": {}}}}, "questions.q.criteria"),
        ({**base, "state": {"dossier_memory": 1}, "subject": "acme"}, "state"),
    ]
    _remember(client, tenant, "acme", ["a line"])
    for body, field in cases:
        response = client.post("/v1/systemone", json=body, headers=tenant.headers)
        assert response.status_code == 422, (field, response.text)
        assert response.json()["error"]["field"] == field


def test_models_are_listed(client: TestClient, tenant: Tenant) -> None:
    response = client.get("/v1/models", headers=tenant.headers)
    assert response.status_code == 200
    # The default first: words and meaning; then words alone, which a request may name.
    names = [model["name"] for model in response.json()["models"]]
    assert names == ["dossier-hybrid-1", "dossier-lexical-1"]
