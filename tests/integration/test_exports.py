"""Organisation-wide data export (Settings > Data export) through a real worker: what the
archive holds and leaves out, who may download it, its audit lines, and its expiry."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.knowledge_support import document_ready, enable
from tests.support import Services, Tenant, admin_headers, new_tenant, wait_until

SECTIONS = {
    "subjects",
    "lines",
    "rules",
    "aliases",
    "users",
    "facts",
    "collections",
    "documents",
    "document_chunks",
    "batches",
    "batch_items",
}


def _ok(response: Any) -> Any:
    assert response.status_code in (200, 201, 202), response.text
    return response.json()


def start_export(client: TestClient, tenant: Tenant) -> str:
    response = client.post("/v1/console/exports", headers=tenant.headers)
    assert response.status_code == 202, response.text
    assert response.json()["status"] == "queued"
    return str(response.json()["id"])


def wait_export(client: TestClient, tenant: Tenant, export_id: str) -> dict[str, Any]:
    def ended() -> dict[str, Any] | None:
        body = _ok(client.get(f"/v1/console/exports/{export_id}", headers=tenant.headers))
        return body if body["status"] in ("completed", "failed") else None

    export: dict[str, Any] = wait_until(ended, 60, f"export {export_id}")
    assert export["status"] == "completed", export
    return export


def download(client: TestClient, tenant: Tenant, export_id: str) -> zipfile.ZipFile:
    response = client.get(f"/v1/console/exports/{export_id}/download", headers=tenant.headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"].startswith("attachment; filename=")
    return zipfile.ZipFile(io.BytesIO(response.content))


def records(archive: zipfile.ZipFile, section: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in archive.read(f"{section}.jsonl").splitlines()]


def everything(archive: zipfile.ZipFile) -> str:
    return "".join(archive.read(name).decode() for name in archive.namelist())


def archive_path(export_id: str) -> Path:
    from app.settings import get_settings

    return get_settings().exports_folder / f"{export_id}.zip"


def a_subject(client: TestClient, tenant: Tenant) -> None:
    _ok(
        client.post(
            "/v1/memory/remember",
            json={"subject": "acme", "text": "ACME holds an enterprise contract.\nPays yearly."},
            headers=tenant.headers,
        )
    )
    _ok(
        client.post(
            "/v1/memory/rules",
            json={"subject": "acme", "text": "Always escalate ACME outages.", "pin": True},
            headers=tenant.headers,
        )
    )
    _ok(
        client.post(
            "/v1/memory/aliases",
            json={"subject": "acme", "aliases": ["ACME Corp"]},
            headers=tenant.headers,
        )
    )


def a_batch(client: TestClient, tenant: Tenant) -> str:
    body = {
        "model": "dossier-lexical-1",
        "subject": "acme",
        "state": "Dashboards are slow.",
        "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
    }
    batch = _ok(
        client.post(
            "/v1/batches",
            json={"requests": [{"custom_id": "r1", "body": body}]},
            headers=tenant.headers,
        )
    )

    def finished() -> bool:
        status = _ok(client.get(f"/v1/batches/{batch['id']}", headers=tenant.headers))["status"]
        return status in ("completed", "failed", "expired", "cancelled")

    wait_until(finished, 60, f"batch {batch['id']}")
    return str(batch["id"])


def test_the_archive_holds_everything_the_tenant_holds_and_no_forgotten_fact(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    a_subject(client, tenant)
    enable(client, tenant)
    home = "/v1/users/jo/facts"
    oslo = _ok(
        client.post(
            home,
            json={"facts": [{"text": "Lives in Oslo", "slot": "home", "value": "Oslo"}]},
            headers=tenant.headers,
        )
    )["ids"][0]
    moved = _ok(
        client.post(
            home,
            json={"facts": [{"text": "Lives in Bergen", "slot": "home", "value": "Bergen"}]},
            headers=tenant.headers,
        )
    )
    assert moved["retired"] == [oslo]
    olives = _ok(
        client.post(
            home,
            json={"facts": [{"text": "Hates green olives", "slot": "dislikes", "value": "olives"}]},
            headers=tenant.headers,
        )
    )["ids"][0]
    _ok(client.delete(f"{home}/{olives}", headers=tenant.headers))
    _ok(client.post("/v1/collections", json={"name": "Support docs"}, headers=tenant.headers))
    document = _ok(
        client.post(
            "/v1/collections/support-docs/documents",
            json={"title": "Refunds", "text": "Refunds for annual plans are prorated."},
            headers=tenant.headers,
        )
    )
    document_ready(client, tenant, "support-docs", document["id"])
    batch_id = a_batch(client, tenant)
    other = new_tenant(client)
    _ok(
        client.post(
            "/v1/memory/remember",
            json={"subject": "acme", "text": "Another tenant's line about ACME."},
            headers=other.headers,
        )
    )

    export_id = start_export(client, tenant)
    export = wait_export(client, tenant, export_id)
    archive = download(client, tenant, export_id)

    assert set(archive.namelist()) == {f"{name}.jsonl" for name in SECTIONS} | {"manifest.json"}
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["export_id"] == export_id and manifest["tenant_id"] == tenant.tenant_id
    assert manifest["files"] == {f"{name}.jsonl": n for name, n in export["counts"].items()}
    assert export["progress"] == {"sections_done": 11, "sections": 11, "rows": 13}
    assert export["download_url"] == f"/v1/console/exports/{export_id}/download"
    assert archive_path(export_id).stat().st_size == export["size_bytes"]

    assert [s["subject"] for s in records(archive, "subjects")] == ["acme"]
    assert [(line["subject"], line["text"]) for line in records(archive, "lines")] == [
        ("acme", "ACME holds an enterprise contract."),
        ("acme", "Pays yearly."),
    ]
    assert [(r["text"], r["pin"]) for r in records(archive, "rules")] == [
        ("Always escalate ACME outages.", True)
    ]
    assert records(archive, "aliases") == [{"subject": "acme", "alias": "ACME Corp"}]
    assert [u["user"] for u in records(archive, "users")] == ["jo"]
    facts = {f["text"]: f for f in records(archive, "facts")}
    assert set(facts) == {"Lives in Oslo", "Lives in Bergen"}  # the forgotten one is absent
    today = datetime.now(UTC).date().isoformat()
    assert (facts["Lives in Oslo"]["status"], facts["Lives in Oslo"]["retired_on"]) == (
        "retired",
        today,
    )
    assert (facts["Lives in Bergen"]["status"], facts["Lives in Bergen"]["retired_on"]) == (
        "active",
        None,
    )
    assert all(f["user"] == "jo" for f in facts.values())
    assert "olives" not in everything(archive)
    assert [(c["slug"], c["name"]) for c in records(archive, "collections")] == [
        ("support-docs", "Support docs")
    ]
    [doc] = records(archive, "documents")
    assert (doc["id"], doc["collection"], doc["title"], doc["status"]) == (
        document["id"],
        "support-docs",
        "Refunds",
        "ready",
    )
    assert [c["text"] for c in records(archive, "document_chunks")] == [
        "Refunds for annual plans are prorated."
    ]
    [batch] = records(archive, "batches")
    assert (batch["id"], batch["status"], batch["total"]) == (batch_id, "completed", 1)
    [item] = records(archive, "batch_items")
    assert (item["batch"], item["custom_id"], item["subject"]) == (batch_id, "r1", "acme")
    assert item["result"]["type"] == "succeeded"
    assert "Another tenant" not in everything(archive)

    # Its parts go once the archive is committed; a second export can start.
    wait_until(
        lambda: not (archive_path(export_id).parent / f"{export_id}.parts").exists(),
        30,
        "the parts' removal",
    )
    listed = _ok(client.get("/v1/console/exports", headers=tenant.headers))["data"]
    assert [e["id"] for e in listed] == [export_id]


def test_one_export_at_a_time_and_not_downloadable_until_completed(
    client: TestClient, tenant: Tenant
) -> None:
    from app.db import session_scope
    from app.exports.models import Export

    with session_scope() as (session, _jobs):
        session.add(Export(id="exp_" + "a1" * 16, tenant_id=tenant.tenant_id, status="running"))
    running = "exp_" + "a1" * 16

    refused = client.post("/v1/console/exports", headers=tenant.headers)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "export_in_progress"
    early = client.get(f"/v1/console/exports/{running}/download", headers=tenant.headers)
    assert early.status_code == 409, early.text
    assert early.json()["error"]["code"] == "export_not_ready"
    assert client.post("/v1/console/exports").status_code == 401
    malformed = client.get("/v1/console/exports/not-an-id", headers=tenant.headers)
    assert malformed.status_code == 422 and "error" in malformed.json()


def test_another_tenants_export_is_not_found(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    a_subject(client, tenant)
    export_id = wait_export(client, tenant, start_export(client, tenant))["id"]
    other = new_tenant(client)

    for path in (f"/v1/console/exports/{export_id}", f"/v1/console/exports/{export_id}/download"):
        response = client.get(path, headers=other.headers)
        assert response.status_code == 404, response.text
        assert response.json()["error"] == {
            "code": "not_found",
            "message": f"no export '{export_id}'",
            "field": "id",
        }
    assert _ok(client.get("/v1/console/exports", headers=other.headers))["data"] == []
    download(client, tenant, export_id)  # its own tenant still can


def test_the_audit_log_has_the_export_with_ids_and_counts_and_no_text(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    a_subject(client, tenant)
    export_id = start_export(client, tenant)
    export = wait_export(client, tenant, export_id)
    download(client, tenant, export_id)

    events = _ok(client.get("/v1/audit", params={"action": "export."}, headers=tenant.headers))
    by_action = {e["action"]: e for e in events["data"]}
    assert set(by_action) == {"export.requested", "export.completed", "export.downloaded"}
    assert all(e["ids"] == [export_id] for e in by_action.values())
    assert by_action["export.completed"]["counts"] == export["counts"]
    assert export["counts"]["lines"] == 2 and export["counts"]["rules"] == 1
    logged = json.dumps(events)
    for said in ("ACME holds", "Pays yearly", "escalate", "ACME Corp", "acme"):
        assert said not in logged


def test_an_expired_export_is_gone_and_the_sweep_removes_its_file(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    from app.db import session_scope
    from workers.celery import celery_app

    a_subject(client, tenant)
    export_id = wait_export(client, tenant, start_export(client, tenant))["id"]
    assert archive_path(export_id).exists()
    with session_scope() as (session, _jobs):
        session.execute(
            text("UPDATE exports SET expires_at = now() - interval '1 minute' WHERE id = :id"),
            {"id": export_id},
        )

    # Past its expiry it is gone at once, whether or not the sweep has run yet.
    gone = client.get(f"/v1/console/exports/{export_id}/download", headers=tenant.headers)
    assert gone.status_code == 410, gone.text
    assert gone.json()["error"]["code"] == "export_expired"

    celery_app.send_task("dossier.scheduled.export_sweep")
    wait_until(lambda: not archive_path(export_id).exists(), 30, "the archive's removal")
    status = _ok(client.get(f"/v1/console/exports/{export_id}", headers=tenant.headers))
    assert (status["status"], status["download_url"], status["size_bytes"]) == (
        "expired",
        None,
        None,
    )
    again = client.get(f"/v1/console/exports/{export_id}/download", headers=tenant.headers)
    assert again.status_code == 410
    actions = [
        e["action"]
        for e in _ok(client.get("/v1/audit", params={"action": "export."}, headers=tenant.headers))[
            "data"
        ]
    ]
    assert "export.expired" in actions


def test_a_fact_forgotten_while_the_export_runs_is_left_out(
    client: TestClient, tenant: Tenant
) -> None:
    """Steps run here, one at a time (their jobs discarded, so no worker runs them), and a fact
    is forgotten after the page holding it was written: the archive leaves it out."""
    from app.db import UnitOfWork
    from app.exports import service
    from app.exports.models import Export

    enable(client, tenant)
    ids = _ok(
        client.post(
            "/v1/users/kim/facts",
            json={
                "facts": [
                    {"text": "Likes skiing", "slot": "likes", "value": "skiing"},
                    {"text": "Has a cat named Tofu", "slot": "pet", "value": "Tofu"},
                ]
            },
            headers=tenant.headers,
        )
    )["ids"]
    export_id = "exp_" + "b2" * 16

    def step() -> Export:
        unit = UnitOfWork()
        service.run_step(unit.session, unit.jobs, export_id)
        unit.jobs.discard()
        unit.commit()
        reader = UnitOfWork()
        try:
            export = reader.session.get(Export, export_id)
        finally:
            reader.commit()  # expire_on_commit is off: the row stays readable
        assert export is not None
        return export

    unit = UnitOfWork()
    unit.session.add(Export(id=export_id, tenant_id=tenant.tenant_id))
    unit.commit()
    facts_section = [s.name for s in service.repo.SECTIONS].index("facts")
    export = step()
    while export.progress and export.progress["section"] <= facts_section:
        export = step()
    assert export.status == "running"
    _ok(client.delete(f"/v1/users/kim/facts/{ids[1]}", headers=tenant.headers))
    while export.status == "running":
        export = step()

    assert export.status == "completed" and export.counts is not None
    assert export.counts["facts"] == 1
    archive = download(client, tenant, export_id)
    assert [f["text"] for f in records(archive, "facts")] == ["Likes skiing"]
    assert "Tofu" not in everything(archive)


def test_erasing_the_tenant_takes_its_export_archives(client: TestClient, worker: Services) -> None:
    tenant = new_tenant(client)
    a_subject(client, tenant)
    export_id = wait_export(client, tenant, start_export(client, tenant))["id"]
    assert archive_path(export_id).exists()

    job = _ok(
        client.post(
            "/v1/admin/erasures", json={"tenant_id": tenant.tenant_id}, headers=admin_headers()
        )
    )

    def ended() -> dict[str, Any] | None:
        body = _ok(client.get(f"/v1/admin/erasures/{job['id']}", headers=admin_headers()))
        return body if body["status"] in ("completed", "failed") else None

    erased = wait_until(ended, 60, "the erasure")
    assert erased["status"] == "completed", erased
    assert erased["proof"]["stores"]["postgres.exports"] == {"before": 1, "after": 0}
    assert not archive_path(export_id).exists()
