"""Renaming collections and documents from the console: `PATCH /v1/collections/{slug}` (the
display name only; the slug stays) and `PATCH /v1/collections/{slug}/documents/{id}`, with
their 404, 409 and 422 errors naming what was wrong."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.knowledge_support import enable
from tests.support import Tenant, new_tenant


def _made(client: TestClient, tenant: Tenant, path: str, body: dict[str, Any]) -> Any:
    response = client.post(path, json=body, headers=tenant.headers)
    assert response.status_code in (201, 202), response.text
    return response.json()


def _error(response: Any, status: int) -> dict[str, str]:
    assert response.status_code == status, response.text
    return dict(response.json()["error"])


def test_a_collection_is_renamed_and_its_slug_stays(client: TestClient, tenant: Tenant) -> None:
    _made(client, tenant, "/v1/collections", {"name": "Support docs"})
    _made(client, tenant, "/v1/collections", {"name": "FAQ"})
    renamed = client.patch(
        "/v1/collections/faq", json={"name": "  Questions  "}, headers=tenant.headers
    )
    assert renamed.status_code == 200, renamed.text
    assert (renamed.json()["slug"], renamed.json()["name"]) == ("faq", "Questions")
    listed = client.get("/v1/collections", headers=tenant.headers).json()["data"]
    assert [(c["slug"], c["name"]) for c in listed] == [
        ("support-docs", "Support docs"),
        ("faq", "Questions"),
    ]
    # Its own name again, in another case, is not a clash.
    again = client.patch("/v1/collections/faq", json={"name": "QUESTIONS"}, headers=tenant.headers)
    assert again.status_code == 200 and again.json()["name"] == "QUESTIONS"
    audit = client.get(
        "/v1/audit", params={"action": "knowledge.collection.rename"}, headers=tenant.headers
    )
    assert len(audit.json()["data"]) == 2


def test_collection_rename_errors(client: TestClient, tenant: Tenant) -> None:
    _made(client, tenant, "/v1/collections", {"name": "Support docs"})
    _made(client, tenant, "/v1/collections", {"name": "FAQ"})
    taken = _error(
        client.patch("/v1/collections/faq", json={"name": "support DOCS"}, headers=tenant.headers),
        409,
    )
    assert (taken["code"], taken["field"]) == ("collection_name_taken", "name")
    missing = _error(
        client.patch("/v1/collections/nope", json={"name": "X"}, headers=tenant.headers), 404
    )
    assert missing["field"] == "slug"
    for body, field in (
        ({"name": "   "}, "name"),
        ({"name": "x" * 201}, "name"),
        ({}, "name"),
        ({"name": "X", "slug": "x"}, "slug"),
        ({"name": 7}, "name"),
    ):
        error = _error(client.patch("/v1/collections/faq", json=body, headers=tenant.headers), 422)
        assert error["field"] == field, body
    # Another tenant's collection of the same slug is not found, and keeps its name.
    other = new_tenant(client)
    _error(client.patch("/v1/collections/faq", json={"name": "Mine"}, headers=other.headers), 404)
    names = [
        c["name"] for c in client.get("/v1/collections", headers=tenant.headers).json()["data"]
    ]
    assert names == ["Support docs", "FAQ"]


def test_a_document_is_renamed_and_its_errors(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    _made(client, tenant, "/v1/collections", {"name": "Handbook"})
    _made(client, tenant, "/v1/collections", {"name": "Other"})
    doc = _made(
        client,
        tenant,
        "/v1/collections/handbook/documents",
        {"title": "Parking", "text": "Parking is free on weekends."},
    )
    path = f"/v1/collections/handbook/documents/{doc['id']}"
    renamed = client.patch(path, json={"title": " Parking rules "}, headers=tenant.headers)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "Parking rules"
    assert client.get(path, headers=tenant.headers).json()["title"] == "Parking rules"

    for body, field in (
        ({"title": ""}, "title"),
        ({"title": "x" * 301}, "title"),
        ({"collection": "other"}, "collection"),
        ({"title": ["a"]}, "title"),
    ):
        error = _error(client.patch(path, json=body, headers=tenant.headers), 422)
        assert error["field"] == field, body
    gone = _error(
        client.patch(
            "/v1/collections/handbook/documents/999999999",
            json={"title": "X"},
            headers=tenant.headers,
        ),
        404,
    )
    assert gone["field"] == "id"
    # A document is found only under its own collection, and only by its own tenant.
    _error(
        client.patch(
            f"/v1/collections/other/documents/{doc['id']}",
            json={"title": "X"},
            headers=tenant.headers,
        ),
        404,
    )
    no_collection = _error(
        client.patch(
            f"/v1/collections/nope/documents/{doc['id']}",
            json={"title": "X"},
            headers=tenant.headers,
        ),
        404,
    )
    assert no_collection["field"] == "slug"
    other = new_tenant(client)
    _error(client.patch(path, json={"title": "Theirs"}, headers=other.headers), 404)
    assert client.get(path, headers=tenant.headers).json()["title"] == "Parking rules"
