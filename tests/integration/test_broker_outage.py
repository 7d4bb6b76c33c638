"""The broker goes away: work that needs a job is still accepted (2xx), its jobs wait in the
outbox, and everything completes once the broker is back. Nothing is billed for a failure."""

from __future__ import annotations

from pathlib import Path

import psycopg

from app.serving import serve_process, worker_process
from tests.support import RedisProcess, Services, own_services, tenant_http, wait_until

NOUL = {"urgent": {"type": "noul", "instructions": "Is this urgent?"}}


def _outbox_rows(database_url: str) -> int:
    with psycopg.connect(database_url.replace("+psycopg", "")) as conn:
        row = conn.execute("SELECT count(*) FROM outbox_jobs").fetchone()
    return int(row[0]) if row else 0


def test_work_accepted_while_the_broker_is_down_completes_when_it_returns(
    services: Services, tmp_path: Path
) -> None:
    with (
        own_services(services, tmp_path) as own,
        serve_process(own.env) as url,
        worker_process(own.env),
    ):
        _scenario(url, own.database_url, own.broker)


def _scenario(url: str, database_url: str, broker: RedisProcess) -> None:
    http = tenant_http(url, "outage")
    http.post(
        "/v1/memory/remember", json={"subject": "gone", "text": "Soon deleted."}
    ).raise_for_status()
    http.put("/v1/knowledge/settings", json={"enabled": True}).raise_for_status()
    http.post("/v1/collections", json={"name": "Docs"}).raise_for_status()

    broker.stop()
    batch = http.post(
        "/v1/batches",
        json={
            "requests": [
                {
                    "custom_id": f"b{i}",
                    "body": {"model": "m", "state": "x", "questions": NOUL},
                }
                for i in range(3)
            ]
        },
    )
    deleted = http.post("/v1/memory/delete", json={"subject": "gone"})
    decided = http.post(
        "/v1/systemone",
        json={
            "model": "m",
            "state": {"ticket": "Harbor Logistics runs the self-hosted edition."},
            "questions": NOUL,
            "subject": "harbor",
            "memory": {"learn": True},
        },
    )
    document = http.post(
        "/v1/collections/docs/documents",
        json={"title": "Refunds", "text": "Refunds are paid within five business days."},
    )
    refused = http.post("/v1/systemone", json={"model": "m", "questions": NOUL})
    assert [r.status_code for r in (batch, deleted, decided, document)] == [
        201,
        200,
        200,
        202,
    ], [r.text for r in (batch, deleted, decided, document)]
    assert refused.status_code == 422
    assert _outbox_rows(database_url) >= 3  # held, not lost
    gauge = [
        line
        for line in http.get("/metrics").text.splitlines()
        if line.startswith("dossier_outbox_jobs ")
    ]
    assert gauge and float(gauge[0].split()[-1]) >= 3

    broker.start()
    batch_id, learning_id = batch.json()["id"], decided.json()["learning"]["request_id"]
    document_id = document.json()["id"]
    wait_until(
        lambda: http.get(f"/v1/batches/{batch_id}").json()["status"] == "completed",
        60,
        "the batch",
    )
    wait_until(
        lambda: http.get(f"/v1/learning/{learning_id}").json()["status"] != "queued",
        60,
        "the learning request",
    )
    wait_until(
        lambda: (
            http.get(f"/v1/collections/docs/documents/{document_id}").json()["status"] == "ready"
        ),
        60,
        "the document's ingest",
    )
    wait_until(lambda: _outbox_rows(database_url) == 0, 10, "an empty outbox")

    routes = [line["route"] for line in http.get("/v1/ledger").json()["data"]]
    # The decision and the three batch items; the refused decision is not billed.
    assert routes.count("systemone") == 4
    assert routes.count("memory.delete") == 1
