"""The console's fact list: `GET /v1/facts`, every end-user's facts of the tenant in one list,
searched by end-user or text, filtered by status, sorted three ways and cursor-paginated."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.knowledge_support import enable
from tests.support import Tenant, new_tenant


def _add(client: TestClient, tenant: Tenant, user: str, *facts: dict[str, Any]) -> list[int]:
    response = client.post(
        f"/v1/users/{user}/facts", json={"facts": list(facts)}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    return list(response.json()["ids"])


def _list(client: TestClient, tenant: Tenant, **params: Any) -> dict[str, Any]:
    response = client.get("/v1/facts", params=params, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _all(client: TestClient, tenant: Tenant, **params: Any) -> list[tuple[str, str]]:
    """Every page, followed by its cursor: (end-user, text) in the order given."""
    seen: list[tuple[str, str]] = []
    cursor = None
    while True:
        page = _list(client, tenant, **params, **({"cursor": cursor} if cursor else {}))
        seen += [(fact["user"], fact["text"]) for fact in page["data"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return seen


def _seed(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    _add(client, tenant, "bob", {"text": "Works at Northwind", "slot": "employer", "value": "N"})
    _add(client, tenant, "alice", {"text": "Lives in Ghent", "slot": "home", "value": "Ghent"})
    _add(client, tenant, "bob", {"text": "Works at Contoso", "slot": "employer", "value": "C"})
    _add(client, tenant, "carol-ghent", {"text": "Likes tea"})


def test_every_end_users_facts_in_one_list_sorted_and_paginated(
    client: TestClient, tenant: Tenant
) -> None:
    _seed(client, tenant)
    other = new_tenant(client)
    enable(client, other)
    _add(client, other, "alice", {"text": "Lives in Ghent, another tenant's"})

    newest = [
        ("carol-ghent", "Likes tea"),
        ("bob", "Works at Contoso"),
        ("alice", "Lives in Ghent"),
        ("bob", "Works at Northwind"),
    ]
    first = _list(client, tenant)
    assert [(f["user"], f["text"]) for f in first["data"]] == newest
    assert first["next_cursor"] is None
    assert {f["status"] for f in first["data"]} == {"active", "retired"}
    for limit in (1, 3):
        assert _all(client, tenant, limit=limit) == newest
        assert _all(client, tenant, limit=limit, sort="oldest") == newest[::-1]
        # By end-user, each one's newest first.
        assert _all(client, tenant, limit=limit, sort="user") == [
            ("alice", "Lives in Ghent"),
            ("bob", "Works at Contoso"),
            ("bob", "Works at Northwind"),
            ("carol-ghent", "Likes tea"),
        ]
    page = _list(client, tenant, sort="user", limit=2)
    assert page["next_cursor"] == f"bob~{page['data'][1]['id']}"
    assert _list(client, tenant, limit=2)["next_cursor"] == str(first["data"][1]["id"])


def test_search_by_end_user_or_text_and_filter_by_status(
    client: TestClient, tenant: Tenant
) -> None:
    _seed(client, tenant)
    other = new_tenant(client)
    enable(client, other)
    _add(client, other, "ghent-user", {"text": "Lives in Ghent too"})

    # "ghent" is in alice's fact and in carol-ghent's id; never another tenant's.
    assert _all(client, tenant, q="GHENT") == [
        ("carol-ghent", "Likes tea"),
        ("alice", "Lives in Ghent"),
    ]
    assert _all(client, tenant, q="bo") == [
        ("bob", "Works at Contoso"),
        ("bob", "Works at Northwind"),
    ]
    assert _all(client, tenant, q="100%") == []  # LIKE's wildcards are literal
    assert _all(client, tenant, user="bob", q="north") == [("bob", "Works at Northwind")]
    assert _all(client, tenant, user="bo") == []  # `user` is one end-user, exactly
    # The new employer retired the old one.
    assert _all(client, tenant, status="retired") == [("bob", "Works at Northwind")]
    assert _all(client, tenant, status="active", user="bob") == [("bob", "Works at Contoso")]
    assert len(_all(client, tenant, status="active")) == 3
    assert _all(client, other) == [("ghent-user", "Lives in Ghent too")]
    assert _list(client, new_tenant(client)) == {"data": [], "next_cursor": None}


def test_the_fact_lists_parameters_are_checked(client: TestClient, tenant: Tenant) -> None:
    for params, field in (
        ({"sort": "text"}, "sort"),
        ({"status": "gone"}, "status"),
        ({"user": "no spaces"}, "user"),
        ({"limit": 0}, "limit"),
        ({"cursor": "abc"}, "cursor"),
        ({"cursor": "bob~12", "sort": "newest"}, "cursor"),
        ({"cursor": "12", "sort": "user"}, "cursor"),
        ({"cursor": "9" * 40}, "cursor"),
        ({"q": "x" * 201}, "q"),
        ({"q": "a\x00b"}, "q"),
    ):
        response = client.get("/v1/facts", params=params, headers=tenant.headers)
        assert response.status_code == 422, (params, response.text)
        assert response.json()["error"]["field"] == field, params
    assert client.get("/v1/facts").status_code == 401
