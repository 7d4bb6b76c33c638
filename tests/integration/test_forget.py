"""POST /v1/memory/forget over HTTP: preview, look-alike fields, proof, related, unsure, rules."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.support import Tenant, admin_headers

LINES = [
    "Ann Lindqvist's phone number is 070-7654321.",
    "Ann prefers email.",
    "talked to ann today",
    "ANN LINDQVIST signed the renewal.",
    "The annual review is in March.",
    "Smith-Jones signed the contract.",
]


def _setup(client: TestClient, tenant: Tenant, lines: list[str] = LINES) -> None:
    response = client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "\n".join(lines)},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text


def _lines(client: TestClient, tenant: Tenant) -> list[str]:
    return client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()["lines"]


def forget(client: TestClient, tenant: Tenant, **body: object):  # type: ignore[no-untyped-def]
    return client.post(
        "/v1/memory/forget", json={"subject": "acme", **body}, headers=tenant.headers
    )


def test_forget_removes_lists_unsure_and_related_and_proves_it(client, tenant):
    _setup(client, tenant)
    response = forget(client, tenant, concept="Ann Lindqvist")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["removed_lines"] == [
        "Ann Lindqvist's phone number is 070-7654321.",
        "ANN LINDQVIST signed the renewal.",
    ]
    assert body["matched_unsure"]["lines"] == ["ANN LINDQVIST signed the renewal."]
    assert "Ann prefers email." in body["related"]["lines"]
    assert body["verified_forgotten"] is True and body["leaks"] == []
    assert body["preview"] is False and body["usage"]["billed"] is True
    assert _lines(client, tenant) == [
        "Ann prefers email.",
        "talked to ann today",
        "The annual review is in March.",
        "Smith-Jones signed the contract.",
    ]


def test_preview_removes_nothing_and_writes_no_ledger_line(client, tenant):
    _setup(client, tenant)
    before = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    response = forget(client, tenant, concept="Ann Lindqvist", preview=True)
    body = response.json()
    assert response.status_code == 200
    assert body["preview"] is True
    assert len(body["removed_lines"]) == 2
    assert "verified_forgotten" not in body and "usage" not in body
    assert _lines(client, tenant) == LINES
    after = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line for line in after if line["route"] == "memory.forget"] == []
    assert len(after) == len(before) + 1  # only the GET above


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"dry_run": True}, "dry_run"),
        ({"Preview": True}, "Preview"),
        ({"preveiw": True}, "preveiw"),
        ({"simulate": True}, "simulate"),
        ({"what_if": True}, "what_if"),
        ({"options": {"preview": True}}, "options.preview"),
        ({"meta": [{"DRY-RUN": 1}]}, "meta[0].DRY-RUN"),
        ({"preview": "true"}, "preview"),
        ({"preview": 1}, "preview"),
    ],
)
def test_look_alike_fields_are_refused_and_nothing_is_removed(client, tenant, body, field):
    _setup(client, tenant)
    response = forget(client, tenant, concept="Ann Lindqvist", **body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == field
    assert _lines(client, tenant) == LINES


def test_a_query_string_is_refused(client, tenant):
    _setup(client, tenant)
    response = client.post(
        "/v1/memory/forget?preview=true",
        json={"subject": "acme", "concept": "Ann Lindqvist"},
        headers=tenant.headers,
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "preview"
    assert _lines(client, tenant) == LINES


def test_rules_are_forgotten_and_listed(client, tenant):
    _setup(client, tenant, ["Per prefers email."])
    rule = client.post(
        "/v1/memory/rules",
        json={"subject": "acme", "text": "Call Per before noon.", "pin": True},
        headers=tenant.headers,
    ).json()["rule"]
    other = client.post(
        "/v1/memory/rules",
        json={"subject": "acme", "text": "Charge per seat."},
        headers=tenant.headers,
    ).json()["rule"]
    body = forget(client, tenant, concept="Per").json()
    assert body["removed_lines"] == ["Per prefers email."]
    assert body["removed_rules"] == [{"id": rule["id"], "text": "Call Per before noon."}]
    assert body["related"]["rules"] == [{"id": other["id"], "text": "Charge per seat."}]
    memory = client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()
    assert [r["id"] for r in memory["rules"]] == [other["id"]]


def test_a_forgotten_line_never_comes_back_from_the_cache_or_recall(client, tenant):
    _setup(client, tenant)
    decision = {
        "model": "m",
        "state": "What is Ann Lindqvist's phone number?",
        "questions": {"q": {"type": "noul", "instructions": "Do we know the phone number?"}},
        "subject": "acme",
    }
    first = client.post("/v1/systemone", json=decision, headers=tenant.headers).json()
    assert any("070-7654321" in hit["text"] for hit in first["memory"]["hits"])  # cached now
    forget(client, tenant, concept="Ann Lindqvist")
    after = client.post("/v1/systemone", json=decision, headers=tenant.headers).json()
    assert all("Lindqvist" not in hit["text"].title() for hit in after["memory"]["hits"])
    assert "Ann Lindqvist's phone number is 070-7654321." not in _lines(client, tenant)


def test_forget_works_at_zero_credit_and_suspended_billed_only_when_covered(client, tenant):
    _setup(client, tenant)
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/credit",
        json={"credit": "0"},
        headers=admin_headers(),
    )
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "suspended"},
        headers=admin_headers(),
    )
    preview = forget(client, tenant, concept="Smith", preview=True)
    assert preview.status_code == 200
    response = forget(client, tenant, concept="Smith")
    assert response.status_code == 200
    assert response.json()["removed_lines"] == ["Smith-Jones signed the contract."]
    assert response.json()["usage"] == {"cost": 0.0, "billed": False}
    events = client.get("/v1/audit", headers=tenant.headers).json()["data"]
    forget_events = [e for e in events if e["action"] == "memory.forget"]
    assert len(forget_events) == 1 and forget_events[0]["counts"]["lines"] == 1
    assert "Smith" not in str(events)


def test_symbols_only_concept_is_verified_only_when_its_line_went(client, tenant):
    _setup(client, tenant, ["+++", "plain line"])
    gone = forget(client, tenant, concept="+++").json()
    assert gone["removed_lines"] == ["+++"] and gone["verified_forgotten"] is True
    nothing = forget(client, tenant, concept="***").json()
    assert nothing["removed_lines"] == [] and nothing["verified_forgotten"] is False


def test_unknown_subject_is_404(client, tenant):
    response = client.post(
        "/v1/memory/forget", json={"subject": "nobody", "concept": "x"}, headers=tenant.headers
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/memory/delete", {"subject": "acme"}),
        ("/v1/memory/rules/delete", {"subject": "acme", "ids": [1]}),
        ("/v1/memory/aliases/delete", {"subject": "acme", "aliases": ["A"]}),
    ],
)
@pytest.mark.parametrize("extra", [{"dry_run": True}, {"options": {"preview": True}}])
def test_deleting_routes_refuse_look_only_fields(client, tenant, path, body, extra):
    _setup(client, tenant)
    response = client.post(path, json={**body, **extra}, headers=tenant.headers)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "look_only_field"
    assert _lines(client, tenant) == LINES
