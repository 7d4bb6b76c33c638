"""RabbitMQ as the broker (`DOSSIER_BROKER_URL=amqp://…`), on a vhost of the test's own: quorum
queues, and a killed worker's chunk delivered again at once (Redis waits for its visibility
timeout). Every item once, billed once."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from decimal import Decimal

import httpx
import pytest

from app.serving import serve_process, worker_process
from tests.support import ADMIN_TOKEN, Services, own_database

AMQP = "amqp://guest:guest@127.0.0.1:5672/"


def _rabbitmqctl(*args: str) -> str:
    return subprocess.run(
        ["rabbitmqctl", *args], check=True, capture_output=True, text=True, timeout=60
    ).stdout


@pytest.fixture
def vhost() -> Iterator[str]:
    if shutil.which("rabbitmqctl") is None:
        pytest.skip("RabbitMQ is not installed here (rabbitmqctl not found)")
    name = f"dossier-test-{secrets.token_hex(4)}"
    _rabbitmqctl("add_vhost", name)
    _rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*")
    try:
        yield name
    finally:
        _rabbitmqctl("delete_vhost", name)


def _counts(http: httpx.Client, batch_id: str) -> dict:
    return http.get(f"/v1/batches/{batch_id}").json()


def test_a_killed_workers_chunk_comes_back_within_seconds(services: Services, vhost: str) -> None:
    with own_database(services) as database_url:
        _killed_worker_scenario(database_url, vhost)


def _killed_worker_scenario(database_url: str, vhost: str) -> None:
    env = {
        **os.environ,
        "DOSSIER_DATABASE_URL": database_url,
        "DOSSIER_BROKER_URL": AMQP + vhost,
        "DOSSIER_WORKER_METRICS_PORT": "0",
        # Long: on Redis the chunk would come back only after twice this; here it must not wait.
        "DOSSIER_TASK_TIME_LIMIT_SECONDS": "120",
    }
    with serve_process(env) as url:
        http = httpx.Client(base_url=url, timeout=30)
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        tenant = http.post("/v1/admin/tenants", json={"name": "amqp"}, headers=admin).json()
        http.headers["Authorization"] = f"Bearer {tenant['api_key']}"
        requests = [
            {
                "custom_id": f"k{i}",
                "body": {
                    "model": "m",
                    "state": f"ticket {i}",
                    "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}},
                },
            }
            for i in range(3000)
        ]
        created = http.post("/v1/batches", json={"requests": requests})
        assert created.status_code == 201, created.text
        batch_id = created.json()["id"]

        with worker_process(env) as first:
            deadline = time.monotonic() + 60
            while _counts(http, batch_id)["request_counts"]["succeeded"] < 400:
                assert time.monotonic() < deadline, "the first worker made no progress"
                time.sleep(0.05)
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
        assert _counts(http, batch_id)["status"] == "in_progress"
        queues = _rabbitmqctl("list_queues", "-p", vhost, "name", "type")
        assert "decisions\tquorum" in queues

        killed_at = time.monotonic()
        with worker_process(env):
            while _counts(http, batch_id)["status"] != "completed":
                # Redis would hold the killed chunk for 240 s (twice the time limit).
                assert time.monotonic() - killed_at < 60, _counts(http, batch_id)
                time.sleep(0.1)
        done = _counts(http, batch_id)
        assert done["request_counts"]["succeeded"] == 3000
        rows = http.get(f"/v1/batches/{batch_id}/results").text.splitlines()
        assert len(rows) == 3000
        info = http.get(f"/v1/admin/tenants/{tenant['tenant_id']}", headers=admin).json()
        assert Decimal(info["credit"]) == Decimal("10") - 3000 * Decimal("0.001")  # once each


def test_readiness_checks_the_configured_broker_not_the_cache(services: Services) -> None:
    # Nothing listens on port 1: with RabbitMQ configured there, the broker is down though the
    # Redis that holds the cache answers.
    env = {**os.environ, "DOSSIER_BROKER_URL": "amqp://guest:guest@127.0.0.1:1/"}
    with serve_process(env) as url:
        ready = httpx.get(f"{url}/readyz", timeout=10)
    assert ready.status_code == 503
    assert ready.json()["error"]["failed"] == ["broker"]
