"""The erasure proof: after `DELETE /v1/users/{user}`, nothing of the user is left anywhere:
not in any table, not in any Redis key, not in the export; and the audit log and the ledger
never held fact or document text in the first place."""

from __future__ import annotations

import json
import secrets
import time
import zlib

import redis
from fastapi.testclient import TestClient

from app.cache import redis_client_url
from tests.knowledge_support import chat, document_ready, enable, facts, rows_holding, wait_for
from tests.support import Services, Tenant


def _redis_holding(redis_url: str, needles: list[str], prefix: str) -> list[str]:
    """Keys under the user's prefix, and keys whose value (raw or inflated) holds a needle."""
    client = redis.Redis.from_url(redis_client_url(redis_url))
    hits = []
    for key in client.scan_iter(count=1000):
        name = key.decode(errors="replace")
        if name.startswith(prefix):
            hits.append(name)
            continue
        if client.type(key) != b"string":
            continue
        value = client.get(key) or b""
        texts = [value]
        if value.startswith(b"DRI1"):
            try:
                texts.append(zlib.decompress(value[4:]))
            except zlib.error:
                pass
        for text in texts:
            low = text.lower()
            if any(n.lower().encode() in low for n in needles):
                hits.append(name)
    return hits


def test_erasing_an_end_user_leaves_nothing_to_find(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    token = "zq" + secrets.token_hex(4)  # a word found nowhere else
    user = f"erase-{secrets.token_hex(3)}"
    enable(client, tenant)

    # Facts learned from a conversation, one imported, and a cached index of them.
    chat(
        client,
        tenant,
        f"I live in {token.capitalize()}ville. I love {token} pastries.",
        user=user,
        thread="one",
    )
    wait_for(lambda: facts(client, tenant, user), what="extraction")
    client.post(
        f"/v1/users/{user}/facts",
        json={"facts": [{"text": f"Owns a {token} boat"}]},
        headers=tenant.headers,
    ).raise_for_status()
    found = client.post(
        "/v1/knowledge/search",
        json={"query": f"{token} boat", "user": user},
        headers=tenant.headers,
    ).json()
    assert found["data"] and token in found["data"][0]["text"].lower()
    # A workspace document stays: it is shared knowledge, not the user's.
    client.post("/v1/collections", json={"name": "Docs"}, headers=tenant.headers)
    doc = client.post(
        "/v1/collections/docs/documents",
        json={"title": "Boats", "text": "Boats need a licence."},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, "docs", doc["id"])
    # A turn still waiting for extraction when the erasure comes.
    chat(client, tenant, f"My email is {token}@example.com.", user=user, thread="two")
    assert rows_holding(worker.database_url, token)  # the checks below can see it
    assert _redis_holding(worker.redis_url, [token], f"dossier:kfacts:{tenant.tenant_id}:")

    erased = client.delete(f"/v1/users/{user}", headers=tenant.headers)
    assert erased.status_code == 200, erased.text
    assert erased.json()["deleted"]["facts"] >= 3

    def nothing_left() -> bool:
        # The tenant has no other end-user: no cached index of any user of it may remain.
        return not (
            rows_holding(worker.database_url, token)
            or rows_holding(worker.database_url, user)
            or _redis_holding(
                worker.redis_url, [token, user], f"dossier:kfacts:{tenant.tenant_id}:"
            )
        )

    assert nothing_left()
    time.sleep(2.5)  # the pending batch's delay passes: its task finds nothing to extract
    assert nothing_left()
    assert rows_holding(worker.database_url, "Boats need a licence")  # documents stay

    export = client.get(f"/v1/users/{user}/export", headers=tenant.headers).json()
    assert export == {"user": user, "data": [], "next_cursor": None}
    assert client.get(f"/v1/users/{user}/graph", headers=tenant.headers).json()["edges"] == []
    search = client.post(
        "/v1/knowledge/search",
        json={"query": f"{token} boat", "user": user},
        headers=tenant.headers,
    ).json()
    assert [hit["type"] for hit in search["data"]] == ["passage"]  # the document, no fact

    # Audit and ledger: ids and counts only, never a fact's or a document's text.
    audit = client.get("/v1/audit", params={"limit": 500}, headers=tenant.headers).text
    ledger = client.get("/v1/ledger", params={"limit": 500}, headers=tenant.headers).text
    for text in (token, user, "licence", "Boats"):
        assert text.lower() not in audit.lower()
        assert text.lower() not in ledger.lower()


def test_erasing_an_unknown_user_is_a_no_op_that_still_answers(
    client: TestClient, tenant: Tenant
) -> None:
    response = client.delete("/v1/users/nobody-here", headers=tenant.headers)
    assert response.status_code == 200
    assert response.json()["deleted"] == {
        "facts": 0,
        "pending_turns": 0,
        "cache_keys": 0,
        "batch_items": 0,
    }
    refused = client.request(
        "DELETE", "/v1/users/nobody-here", json={"preview": True}, headers=tenant.headers
    )
    assert refused.status_code == 422


def test_erasing_an_end_user_takes_their_chat_requests_out_of_batches(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    requests = [
        {
            "custom_id": f"c{i}",
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {
                "model": "m",
                "messages": [{"role": "user", "content": f"Question {i}"}],
                "user": "gone-user" if i % 2 == 0 else "kept-user",
            },
        }
        for i in range(4)
    ]
    content = "".join(json.dumps(request) + "\n" for request in requests).encode()
    uploaded = client.post(
        "/v1/files",
        files={"file": ("chat.jsonl", content, "application/jsonl")},
        data={"purpose": "batch"},
        headers=tenant.headers,
    )
    assert uploaded.status_code == 201, uploaded.text
    created = client.post(
        "/v1/batches",
        json={
            "input_file_id": uploaded.json()["id"],
            "endpoint": "/v1/chat/completions",
            "completion_window": "24h",
        },
        headers=tenant.headers,
    )
    assert created.status_code == 201, created.text

    erased = client.delete("/v1/users/gone-user", headers=tenant.headers)
    assert erased.status_code == 200
    assert erased.json()["deleted"]["batch_items"] == 2
    assert "batch_items" not in rows_holding(services.database_url, "gone-user")
    assert rows_holding(services.database_url, "kept-user")["batch_items"] == 2
