"""Bad input is a 4xx in the error shape, never a 500 or a row stuck for ever: NUL and lone
surrogates anywhere in a JSON body, headers that are not UTF-8; erased stays erased; a suspended
tenant changes no setting; a batch its credit cannot start is refused up front."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.support import Tenant, admin_headers, new_tenant

JSON = {"content-type": "application/json"}
NOUL = {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}


def _post_raw(client: TestClient, tenant: Tenant, path: str, raw: str, **headers: str):
    return client.post(path, content=raw.encode(), headers={**tenant.headers, **JSON, **headers})


@pytest.mark.parametrize(
    ("escape", "label"), [("\\u0000", "nul"), ("\\ud800", "lone high"), ("\\udc00", "lone low")]
)
def test_unstorable_text_in_a_learning_state_is_a_422_naming_the_field(
    client: TestClient, tenant: Tenant, escape: str, label: str
) -> None:
    raw = (
        '{"model": "m", "subject": "s", "memory": {"learn": true}, "questions": '
        + json.dumps(NOUL)
        + ', "state": {"ticket": "Harbor runs Windows '
        + escape
        + ' Server."}}'
    )
    response = _post_raw(client, tenant, "/v1/systemone", raw)
    assert response.status_code == 422, (label, response.text)
    error = response.json()["error"]
    assert error["code"] == "unstorable_text" and error["field"] == "state.ticket"
    assert client.get("/v1/ledger", headers=tenant.headers).json()["data"] == []


def test_unstorable_text_is_refused_in_remember_batches_and_chat(
    client: TestClient, tenant: Tenant
) -> None:
    remember = _post_raw(
        client, tenant, "/v1/memory/remember", '{"subject": "s", "text": "a \\ud800 b"}'
    )
    assert remember.status_code == 422 and remember.json()["error"]["field"] == "text"
    line = json.dumps({"custom_id": "a", "body": {"model": "m", "state": "x", "questions": NOUL}})
    bad = '{"custom_id": "b", "body": {"model": "m", "state": "x\\u0000", "questions": {}}}'
    batch = client.post(
        "/v1/batches",
        content=(line + "\n" + bad).encode(),
        headers={**tenant.headers, "content-type": "application/jsonl"},
    )
    assert batch.status_code == 422, batch.text
    assert batch.json()["error"]["field"] == "line 2: body.state"
    chat = _post_raw(
        client,
        tenant,
        "/v1/chat/completions",
        '{"model": "m", "user": "u1", "messages": [{"role": "user", "content": "hi \\udfff"}]}',
    )
    assert chat.status_code == 422 and chat.json()["error"]["field"] == "messages.0.content"
    # A proper pair (an emoji as JSON escapes it) and an escaped backslash are stored as sent.
    fine = _post_raw(
        client,
        tenant,
        "/v1/memory/remember",
        '{"subject": "s", "text": "ok \\ud83d\\ude00 and C:\\\\u0000"}',
    )
    assert fine.status_code == 200, fine.text
    assert fine.json()["stored"] == ["ok \U0001f600 and C:\\u0000"]


def test_a_header_that_is_not_utf8_is_a_401_in_the_error_shape(client: TestClient) -> None:
    response = client.get(
        "/v1/memory", params={"subject": "s"}, headers={"Authorization": b"Bearer \xff\xfe"}
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    encoded = client.post(
        "/v1/memory/remember",
        content=b"{}",
        headers={"Authorization": "Bearer x", "content-encoding": b"gz\xffip", **JSON},
    )
    assert encoded.status_code == 415 and encoded.json()["error"]["code"] == "unsupported_encoding"


def test_an_erased_tenant_cannot_be_brought_back_and_credit_is_never_negative(
    client: TestClient,
) -> None:
    tenant = new_tenant(client)
    negative = client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/credit", json={"credit": -5}, headers=admin_headers()
    )
    assert negative.status_code == 422 and negative.json()["error"]["field"] == "credit"
    erasing = client.post(
        "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
    )
    assert erasing.status_code == 202
    for path, body in (
        ("status", {"status": "active"}),
        ("credit", {"credit": 100}),
    ):
        response = client.put(
            f"/v1/admin/tenants/{tenant.tenant_id}/{path}", json=body, headers=admin_headers()
        )
        assert response.status_code == 409, (path, response.text)
        assert response.json()["error"]["code"] == "tenant_erased"
    key = client.post(f"/v1/admin/tenants/{tenant.tenant_id}/keys", headers=admin_headers())
    assert key.status_code == 409


def test_a_suspended_tenant_changes_no_setting_but_can_turn_knowledge_off(
    client: TestClient,
) -> None:
    tenant = new_tenant(client)
    client.put(
        "/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers
    ).raise_for_status()
    client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "suspended"},
        headers=admin_headers(),
    ).raise_for_status()
    for path, body in (
        ("/v1/settings/quality", {"quality": "fast", "temperature": 0.5}),
        ("/v1/settings/gate", {"threshold": 0.7}),
    ):
        response = client.put(path, json=body, headers=tenant.headers)
        assert response.status_code == 403, (path, response.text)
        assert response.json()["error"]["code"] == "tenant_suspended"
    off = client.put("/v1/knowledge/settings", json={"enabled": False}, headers=tenant.headers)
    assert off.status_code == 200, off.text
    on = client.put("/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers)
    assert on.status_code == 403


def test_a_batch_the_credit_cannot_start_is_refused_before_it_is_stored(
    client: TestClient,
) -> None:
    tenant = new_tenant(client, credit=0.001)  # one decision
    requests = [
        {"custom_id": f"r{i}", "body": {"model": "m", "state": "x", "questions": NOUL}}
        for i in range(1000)
    ]
    response = client.post("/v1/batches", json={"requests": requests}, headers=tenant.headers)
    assert response.status_code == 402, response.text
    assert client.get("/v1/batches", headers=tenant.headers).json()["data"] == []
    one = client.post("/v1/batches", json={"requests": requests[:1]}, headers=tenant.headers)
    assert one.status_code == 201
