"""Logs, request ids and metrics without services: formatters, the middleware, Celery's signals."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.observability.context import (
    TaskContext,
    accept_request_id,
    bind_request_id,
    request_id_var,
    task_var,
)
from app.observability.logs import ContextFilter, JsonFormatter, TextFormatter


def record(message: str = "hello %s", *args: Any, **extra: Any) -> logging.LogRecord:
    made = logging.LogRecord("dossier.test", logging.INFO, __file__, 1, message, args, None)
    for name, value in extra.items():
        setattr(made, name, value)
    ContextFilter().filter(made)
    return made


def test_a_json_line_has_the_fields_and_the_request_id() -> None:
    token = bind_request_id("req-1")
    try:
        line = json.loads(JsonFormatter().format(record("hello %s", "world", route="/x")))
    finally:
        request_id_var.reset(token)
    assert line["level"] == "INFO" and line["logger"] == "dossier.test"
    assert line["message"] == "hello world" and line["request_id"] == "req-1"
    assert line["route"] == "/x" and line["time"].endswith("+00:00")
    assert "task_name" not in line


def test_a_json_line_keeps_the_exception_and_drops_celery_task_data() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        failed = record("failed", data={"args": "['secret']"})
        failed.exc_info = sys.exc_info()
    line = json.loads(JsonFormatter().format(failed))
    assert "ValueError: boom" in line["exception"]
    assert "data" not in line


def test_text_lines_name_the_request_and_the_task() -> None:
    from app.observability.context import bind_task

    request_token, task_token = bind_request_id("req-2"), bind_task("dossier.x.y", "t-1")
    try:
        line = TextFormatter().format(record("working"))
    finally:
        task_var.reset(task_token)
        request_id_var.reset(request_token)
    assert line.endswith("working [request_id=req-2 task=dossier.x.y[t-1]]")
    assert TextFormatter().format(record("plain")).endswith("dossier.test plain")


@pytest.mark.parametrize(
    ("sent", "kept"),
    [("abc-123", True), ("a" * 128, True), ("a" * 129, False), ("two words", False), ("", False)],
)
def test_a_client_request_id_is_kept_only_when_plain(sent: str, kept: bool) -> None:
    assert (accept_request_id(sent) == sent) is kept
    assert len(accept_request_id(None)) == 32


def _count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def app() -> FastAPI:
    from app.main import create_app

    made = create_app()

    @made.get("/things/{thing_id}")
    def thing(thing_id: str) -> dict[str, str]:
        return {"id": thing_id}

    @made.get("/boom/{thing_id}")
    def boom(thing_id: str) -> None:
        raise RuntimeError(f"boom {thing_id}")

    return made


def test_the_id_is_echoed_and_latency_is_labelled_by_route_template(app: FastAPI) -> None:
    labels = {"method": "GET", "route": "/things/{thing_id}", "status": "200"}
    before = _count("dossier_http_request_duration_seconds_count", **labels)
    client = TestClient(app)  # no lifespan: nothing here needs the database
    answer = client.get("/things/123", headers={"X-Request-ID": "mine-1"})
    assert answer.status_code == 200 and answer.headers["x-request-id"] == "mine-1"
    assert _count("dossier_http_request_duration_seconds_count", **labels) == before + 1


def test_an_unexpected_error_keeps_the_id_in_its_answer_and_its_log_line(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    labels = {"method": "GET", "route": "/boom/{thing_id}", "status": "500"}
    before = _count("dossier_http_request_duration_seconds_count", **labels)
    caplog.handler.addFilter(ContextFilter())
    client = TestClient(app, raise_server_exceptions=False)
    with caplog.at_level(logging.ERROR, logger="app.main"):
        answer = client.get("/boom/7", headers={"X-Request-ID": "mine-2"})
    assert answer.status_code == 500
    assert answer.json() == {"error": {"code": "internal", "message": "internal error"}}
    assert answer.headers["x-request-id"] == "mine-2"
    logged = [r for r in caplog.records if r.getMessage() == "unexpected error"]
    assert logged and getattr(logged[0], "request_id", None) == "mine-2"
    assert _count("dossier_http_request_duration_seconds_count", **labels) == before + 1


def test_unknown_paths_share_one_label(app: FastAPI) -> None:
    labels = {"method": "GET", "route": "unmatched", "status": "404"}
    before = _count("dossier_http_request_duration_seconds_count", **labels)
    client = TestClient(app)
    client.get("/no/such/thing/1")
    client.get("/no/such/thing/2")
    assert _count("dossier_http_request_duration_seconds_count", **labels) == before + 2


def test_task_signals_bind_the_request_id_and_time_the_task() -> None:
    from workers import observability

    headers = {"request_id": "r-9"}
    task = SimpleNamespace(name="dossier.test.signals", request=SimpleNamespace(get=headers.get))
    labels = {"task": "dossier.test.signals", "state": "SUCCESS"}
    before = _count("dossier_task_duration_seconds_count", **labels)
    observability._task_started(task_id="t-9", task=task)
    assert request_id_var.get() == "r-9"
    assert task_var.get() == TaskContext("dossier.test.signals", "t-9")
    observability._task_finished(task_id="t-9", task=task, state="SUCCESS")
    assert request_id_var.get() is None and task_var.get() is None
    assert _count("dossier_task_duration_seconds_count", **labels) == before + 1

    observability._task_failed(sender=task, exception=KeyError("x"))
    assert (
        _count("dossier_task_failures_total", task="dossier.test.signals", exception="KeyError")
        >= 1
    )


def test_a_task_sent_while_handling_a_request_carries_its_id() -> None:
    from workers import observability

    headers: dict[str, Any] = {}
    token = bind_request_id("r-10")
    try:
        observability._carry_request_id(headers=headers)
    finally:
        request_id_var.reset(token)
    assert headers == {"request_id": "r-10"}
    untouched = {"request_id": "earlier"}
    observability._carry_request_id(headers=untouched)
    assert untouched == {"request_id": "earlier"}


def test_the_operations_routes_are_documented_with_examples(app: FastAPI) -> None:
    from ops.openapi_examples import operations_without_example

    missing = operations_without_example(app.openapi())
    assert not {"GET /healthz", "GET /readyz", "GET /metrics"} & set(missing)
