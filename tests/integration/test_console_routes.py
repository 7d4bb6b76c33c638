"""The listings the console reads (subjects, end-users, the account) and the console's files."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.knowledge_support import enable
from tests.support import Tenant, new_tenant


def _post(client: TestClient, tenant: Tenant, path: str, body: dict) -> dict:
    response = client.post(path, json=body, headers=tenant.headers)
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_subjects_are_listed_by_name_with_their_counts_and_a_cursor(client, tenant):
    _post(client, tenant, "/v1/memory/remember", {"subject": "beta", "text": "one\ntwo\nthree"})
    _post(client, tenant, "/v1/memory/remember", {"subject": "alpha", "text": "only line"})
    _post(client, tenant, "/v1/memory/rules", {"subject": "alpha", "text": "A rule.", "pin": True})
    _post(client, tenant, "/v1/memory/aliases", {"subject": "alpha", "aliases": ["A", "Alf"]})
    _post(client, tenant, "/v1/memory/remember", {"subject": "gamma", "text": "x"})
    other = new_tenant(client)
    _post(client, other, "/v1/memory/remember", {"subject": "aardvark", "text": "not yours"})

    first = client.get("/v1/memory/subjects", params={"limit": 2}, headers=tenant.headers)
    assert first.status_code == 200, first.text
    page = first.json()
    assert [
        (s["subject"], s["line_count"], s["rule_count"], s["alias_count"]) for s in page["data"]
    ] == [
        ("alpha", 1, 1, 2),
        ("beta", 3, 0, 0),
    ]
    assert page["next_cursor"] == "beta"
    rest = client.get(
        "/v1/memory/subjects", params={"cursor": page["next_cursor"]}, headers=tenant.headers
    ).json()
    assert [s["subject"] for s in rest["data"]] == ["gamma"] and rest["next_cursor"] is None

    # Forget and delete show in the counts at once.
    _post(client, tenant, "/v1/memory/forget", {"subject": "beta", "concept": "two"})
    _post(client, tenant, "/v1/memory/delete", {"subject": "gamma"})
    after = client.get("/v1/memory/subjects", headers=tenant.headers).json()["data"]
    assert [(s["subject"], s["line_count"]) for s in after] == [("alpha", 1), ("beta", 2)]


def test_a_subjects_cursor_that_was_not_given_out_is_a_422(client, tenant):
    response = client.get(
        "/v1/memory/subjects", params={"cursor": "no spaces"}, headers=tenant.headers
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "cursor"
    assert client.get("/v1/memory/subjects").status_code == 401


def test_end_users_are_listed_with_fact_counts(client, tenant):
    assert client.get("/v1/users", headers=tenant.headers).json() == {
        "data": [],
        "next_cursor": None,
    }
    enable(client, tenant)
    facts = "/v1/users/{}/facts"
    _post(client, tenant, facts.format("u2"), {"facts": [{"text": "Likes tea"}]})
    _post(
        client,
        tenant,
        facts.format("u1"),
        {"facts": [{"text": "Works at Northwind", "slot": "employer", "value": "Northwind"}]},
    )
    _post(
        client,
        tenant,
        facts.format("u1"),
        {"facts": [{"text": "Works at Contoso", "slot": "employer", "value": "Contoso"}]},
    )
    page = client.get("/v1/users", params={"limit": 1}, headers=tenant.headers).json()
    assert [(u["user"], u["fact_count"], u["retired_fact_count"]) for u in page["data"]] == [
        ("u1", 2, 1)
    ]
    rest = client.get(
        "/v1/users", params={"cursor": page["next_cursor"]}, headers=tenant.headers
    ).json()
    assert [(u["user"], u["fact_count"]) for u in rest["data"]] == [("u2", 1)]
    assert client.get("/v1/users", headers=new_tenant(client).headers).json()["data"] == []


def test_the_account_shows_the_keys_tenant_and_credit(client):
    tenant = new_tenant(client, name="acme", credit=5)
    body = client.get("/v1/account", headers=tenant.headers).json()
    assert body == {
        "tenant_id": tenant.tenant_id,
        "name": "acme",
        "status": "active",
        "credit": 5,
        "deletion": None,  # no pending account deletion request
    }
    _post(client, tenant, "/v1/memory/remember", {"subject": "s", "text": "one"})
    assert client.get("/v1/account", headers=tenant.headers).json()["credit"] < 5


def test_the_console_page_and_its_files_are_served_from_here(client):
    page = client.get("/console")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "/console/static/console.js" in page.text
    script = client.get("/console/static/console.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert client.get("/console/static/..%2F..%2Fsettings.py").status_code == 404
    assert client.get("/console/static/missing.js").json()["error"]["code"] == "not_found"
    # Nothing the page loads comes from elsewhere: it works offline.
    for name in ("index.html", "console.css", "console.js"):
        text = client.get("/console" if name == "index.html" else f"/console/static/{name}").text
        assert "http://" not in text.replace("http://www.w3.org", "")
        assert "https://" not in text
