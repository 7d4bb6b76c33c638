"""Threads: `thread` in the chat body puts the call's id on its ledger line, so one
conversation's calls are listed together (`GET /v1/ledger?thread=`, `GET /v1/ledger/threads`),
free when the call searched nothing; and a thread keeps no text anywhere."""

from __future__ import annotations

import secrets

from fastapi.testclient import TestClient

from tests.knowledge_support import chat, enable, rows_holding
from tests.support import Services, Tenant, new_tenant


def _ledger(client: TestClient, tenant: Tenant, **params: object) -> dict:
    response = client.get("/v1/ledger", params=params, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _threads(client: TestClient, tenant: Tenant, **params: object) -> dict:
    response = client.get("/v1/ledger/threads", params=params, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_threads_calls_are_listed_together_with_routes_and_counts(
    client: TestClient, tenant: Tenant
) -> None:
    enable(client, tenant)
    chat(client, tenant, "Where do I live?", user="u1", thread="t-17")  # searches u1's facts
    chat(client, tenant, "Hello there", thread="t-17")  # no user, no document: no search
    chat(client, tenant, "Another conversation", thread="t-9")
    chat(client, tenant, "No conversation at all")  # no thread, no search: no line
    streamed = client.post(
        "/v1/chat/completions",
        json={
            "model": "any",
            "messages": [{"role": "user", "content": "And streamed?"}],
            "user": "u1",
            "thread": "t-17",
            "stream": True,
        },
        headers=tenant.headers,
    )
    assert streamed.status_code == 200

    lines = _ledger(client, tenant, thread="t-17")["data"]
    assert [(line["route"], line["thread"]) for line in lines] == [
        ("knowledge.retrieval", "t-17"),
        ("chat.completions", "t-17"),
        ("knowledge.retrieval", "t-17"),
    ]
    free = lines[1]
    assert free["cost"] == 0 and free["billed"] is False and free["units"] == 1
    assert all(line["billed"] and line["cost"] > 0 for line in (lines[0], lines[2]))
    # Every line of the tenant: the thread-less call wrote none, the others carry their thread.
    everything = _ledger(client, tenant)["data"]
    assert sorted(line["thread"] for line in everything) == ["t-17", "t-17", "t-17", "t-9"]

    threads = _threads(client, tenant)
    assert threads["next_cursor"] is None
    assert [(t["thread"], t["calls"], t["routes"]) for t in threads["data"]] == [
        ("t-17", 3, {"chat.completions": 1, "knowledge.retrieval": 2}),
        ("t-9", 1, {"chat.completions": 1}),
    ]
    t17 = threads["data"][0]
    assert t17["first_at"] <= t17["last_at"] and t17["cost"] > 0
    assert t17["first_at"] == lines[-1]["created_at"] and t17["last_at"] == lines[0]["created_at"]

    # Most recently used first, page by page.
    chat(client, tenant, "Back to the other one", thread="t-9")
    first = _threads(client, tenant, limit=1)
    assert [t["thread"] for t in first["data"]] == ["t-9"] and first["next_cursor"]
    rest = _threads(client, tenant, limit=1, cursor=first["next_cursor"])
    assert [t["thread"] for t in rest["data"]] == ["t-17"] and rest["next_cursor"] is None
    page = _ledger(client, tenant, thread="t-17", limit=2)
    assert len(page["data"]) == 2 and page["next_cursor"]
    last = _ledger(client, tenant, thread="t-17", limit=2, cursor=page["next_cursor"])
    assert [line["route"] for line in last["data"]] == ["knowledge.retrieval"]

    # Another tenant sees none of them, and its own thread of the same name is its own.
    other = new_tenant(client)
    assert _threads(client, other)["data"] == []
    assert _ledger(client, other, thread="t-17")["data"] == []
    chat(client, other, "Mine", thread="t-17")
    assert [t["calls"] for t in _threads(client, other)["data"]] == [1]
    assert [t["calls"] for t in _threads(client, tenant)["data"] if t["thread"] == "t-17"] == [3]


def test_a_thread_stores_no_text_and_costs_nothing(client: TestClient, services: Services) -> None:
    # No credit and knowledge off: a thread still works, and is free.
    tenant = new_tenant(client, credit="0")
    said = f"My locker code is {secrets.token_hex(6)}"
    thread = f"conv-{secrets.token_hex(6)}"
    answer = chat(client, tenant, said, thread=thread)
    assert answer["thread"] == thread
    answer = chat(client, tenant, said + " again", user="u1", thread=thread)
    assert answer["knowledge"]["enabled"] is False

    (line, second) = _ledger(client, tenant, thread=thread)["data"]
    assert line["route"] == second["route"] == "chat.completions"
    assert line["cost"] == 0 and line["billed"] is False
    # The thread's id is on its two lines and nowhere else; what was said is nowhere at all.
    assert rows_holding(services.database_url, thread) == {"ledger_lines": 2}
    assert rows_holding(services.database_url, said) == {}
    assert client.get("/v1/account", headers=tenant.headers).json()["credit"] == 0


def test_thread_filters_and_cursors_are_checked(client: TestClient, tenant: Tenant) -> None:
    for params in ({"thread": ""}, {"thread": "x" * 201}, {"thread": "t\x0017"}):
        response = client.get("/v1/ledger", params=params, headers=tenant.headers)
        assert response.status_code == 422, params
        assert response.json()["error"]["field"] == "thread"
    bad = client.get("/v1/ledger/threads", params={"cursor": "t-17"}, headers=tenant.headers)
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "cursor"
    assert client.get("/v1/ledger/threads").status_code == 401
    too_long = client.post(
        "/v1/chat/completions",
        json={"model": "any", "messages": [{"role": "user", "content": "hi"}], "thread": "x" * 201},
        headers=tenant.headers,
    )
    assert too_long.status_code == 422 and too_long.json()["error"]["field"] == "thread"
    assert _ledger(client, tenant)["data"] == []
