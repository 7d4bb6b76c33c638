"""Files through the API on PostgreSQL: OpenAI's shapes, paging, streamed downloads, the 422s
naming their field, and tenant erasure counting and removing them."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient

from tests.support import Tenant, admin_headers, new_tenant

FINAL_ERASURE = ("completed", "failed")


def jsonl(*lines: dict[str, Any]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def upload(
    client: TestClient,
    tenant: Tenant,
    content: bytes,
    *,
    purpose: str = "batch",
    name: str = "requests.jsonl",
) -> Any:
    return client.post(
        "/v1/files",
        files={"file": (name, content, "application/jsonl")},
        data={"purpose": purpose},
        headers=tenant.headers,
    )


def test_a_file_is_uploaded_read_listed_downloaded_and_deleted(client, tenant):
    content = jsonl({"custom_id": "a", "body": {}}, {"custom_id": "b", "body": {}})
    response = upload(client, tenant, content)
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["id"].startswith("file-") and made["object"] == "file"
    assert made["bytes"] == len(content) and made["filename"] == "requests.jsonl"
    assert made["purpose"] == "batch" and made["status"] == "processed"
    assert isinstance(made["created_at"], int) and made["lines"] == 2
    assert client.get(f"/v1/files/{made['id']}", headers=tenant.headers).json() == made

    download = client.get(f"/v1/files/{made['id']}/content", headers=tenant.headers)
    assert download.status_code == 200 and download.content == content
    assert download.headers["content-length"] == str(len(content))

    gone = client.delete(f"/v1/files/{made['id']}", headers=tenant.headers)
    assert gone.json() == {"id": made["id"], "object": "file", "deleted": True}
    assert client.get(f"/v1/files/{made['id']}", headers=tenant.headers).status_code == 404
    again = client.get(f"/v1/files/{made['id']}/content", headers=tenant.headers)
    assert again.status_code == 404 and again.json()["error"]["field"] == "file_id"


def test_a_file_of_many_parts_comes_back_byte_for_byte(client, tenant):
    line = {"custom_id": "x" * 10, "body": {"text": "é" * 500}}
    content = b"".join(
        json.dumps({**line, "custom_id": f"r{i}"}, ensure_ascii=False).encode() + b"\r\n"
        for i in range(2600)
    )
    assert len(content) > 2.5 * 1024 * 1024  # three parts of 1 MiB
    made = upload(client, tenant, content).json()
    assert made["bytes"] == len(content) and made["lines"] == 2600
    download = client.get(f"/v1/files/{made['id']}/content", headers=tenant.headers)
    assert download.content == content


def test_files_are_listed_in_pages_with_after_and_has_more(client, tenant):
    ids = [upload(client, tenant, jsonl({"n": i})).json()["id"] for i in range(3)]
    first = client.get("/v1/files", params={"limit": 2}, headers=tenant.headers).json()
    assert first["object"] == "list" and first["has_more"] is True
    assert [f["id"] for f in first["data"]] == ids[::-1][:2]
    assert (first["first_id"], first["last_id"]) == (ids[2], ids[1])
    second = client.get(
        "/v1/files", params={"limit": 2, "after": first["last_id"]}, headers=tenant.headers
    ).json()
    assert [f["id"] for f in second["data"]] == [ids[0]] and second["has_more"] is False
    oldest_first = client.get("/v1/files", params={"order": "asc"}, headers=tenant.headers).json()
    assert [f["id"] for f in oldest_first["data"]] == ids
    none = client.get("/v1/files", params={"purpose": "batch_output"}, headers=tenant.headers)
    assert none.json()["data"] == [] and none.json()["first_id"] is None
    other = new_tenant(client)
    assert client.get("/v1/files", headers=other.headers).json()["data"] == []
    stranger = client.get(f"/v1/files/{ids[0]}", headers=other.headers)
    assert stranger.status_code == 404
    bad_cursor = client.get("/v1/files", params={"after": "file-nope"}, headers=tenant.headers)
    assert bad_cursor.status_code == 404 and bad_cursor.json()["error"]["field"] == "after"


def test_bad_uploads_are_refused_naming_the_field_or_the_line(client, tenant, monkeypatch):
    def refused(response: Any, status: int, field: str) -> dict[str, Any]:
        assert response.status_code == status, response.text
        error = response.json()["error"]
        assert error["field"] == field, error
        return dict(error)

    refused(upload(client, tenant, jsonl({"a": 1}), purpose="fine-tune"), 422, "purpose")
    error = refused(upload(client, tenant, b'{"a": 1}\n{oops\n'), 422, "file")
    assert "line 2" in error["message"] and error["code"] == "invalid_jsonl"
    assert (
        "line 2 is blank"
        in refused(upload(client, tenant, b'{"a": 1}\n\n{"b": 2}\n'), 422, "file")["message"]
    )
    assert "line 1" in refused(upload(client, tenant, b"[1, 2]\n"), 422, "file")["message"]
    assert "line 1" in refused(upload(client, tenant, b"\xff\xfe\n"), 422, "file")["message"]
    refused(upload(client, tenant, b""), 422, "file")
    no_purpose = client.post(
        "/v1/files", files={"file": ("a.jsonl", jsonl({"a": 1}))}, headers=tenant.headers
    )
    refused(no_purpose, 422, "purpose")
    no_file = client.post("/v1/files", data={"purpose": "batch"}, headers=tenant.headers)
    refused(no_file, 422, "file")
    extra = client.post(
        "/v1/files",
        files={"file": ("a.jsonl", jsonl({"a": 1}))},
        data={"purpose": "batch", "expires": "1d"},
        headers=tenant.headers,
    )
    refused(extra, 422, "expires")
    as_json = client.post("/v1/files", json={"purpose": "batch"}, headers=tenant.headers)
    refused(as_json, 422, "file")

    from app.settings import get_settings

    monkeypatch.setattr(get_settings(), "file_max_bytes", 1024)
    error = refused(upload(client, tenant, jsonl(*({"n": i} for i in range(200)))), 413, "file")
    assert "1024" in error["message"]
    assert client.get("/v1/files", headers=tenant.headers).json()["data"] == []


def test_erasing_a_tenant_counts_and_removes_its_files(client, worker):
    tenant = new_tenant(client)
    content = jsonl(*({"custom_id": f"r{i}", "text": "x" * 900} for i in range(1500)))
    upload(client, tenant, content)
    upload(client, tenant, jsonl({"custom_id": "small"}))
    response = client.post(
        "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
    )
    assert response.status_code == 202, response.text
    deadline = time.monotonic() + 60
    while (
        job := client.get(
            f"/v1/admin/erasures/{response.json()['id']}", headers=admin_headers()
        ).json()
    )["status"] not in FINAL_ERASURE:
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
    assert job["proof"]["verified"] is True, job["proof"]
    assert job["proof"]["stores"]["postgres.files"] == {"before": 2, "after": 0}
    assert job["proof"]["stores"]["postgres.file_parts"] == {"before": 3, "after": 0}
