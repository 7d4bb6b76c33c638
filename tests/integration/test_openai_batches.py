"""The official `openai` client, strict about every response's shape, running batches on
Dossier over real HTTP with a real worker: files up and down, both endpoints, the output and
error files line by line, paging to the end, cancel and expiry; and chat items surviving a
killed worker exactly once; and chat items asking a configured upstream model (the stub chat
endpoint of the LLM extraction tests)."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import openai
import pytest
from fastapi.testclient import TestClient
from openai.types import Batch

from app.serving import serve_process, worker_process
from tests.integration.test_llm_extraction import StubChat, stub_server
from tests.knowledge_support import document_ready, enable
from tests.support import Services, Tenant, admin_headers, new_tenant, own_services, tenant_http

pytestmark = pytest.mark.integration

FINAL = {"completed", "failed", "expired", "cancelled"}


def sdk_for(live_url: str, tenant: Tenant) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{live_url}/v1",
        api_key=tenant.api_key,
        max_retries=0,
        _strict_response_validation=True,
    )


@pytest.fixture
def sdk(live_url: str, tenant: Tenant) -> openai.OpenAI:
    return sdk_for(live_url, tenant)


def decision(custom_id: str, state: str = "Dashboards are slow.") -> dict[str, Any]:
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": "/v1/systemone",
        "body": {
            "model": "dossier-lexical-1",
            "state": state,
            "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
        },
    }


def chat(custom_id: str, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": {"model": "dossier", "messages": [{"role": "user", "content": text}], **extra},
    }


def upload(sdk: openai.OpenAI, lines: list[dict[str, Any]], name: str = "in.jsonl") -> str:
    content = "".join(json.dumps(line) + "\n" for line in lines).encode()
    made = sdk.files.create(file=(name, io.BytesIO(content)), purpose="batch")
    assert made.bytes == len(content) and made.purpose == "batch"
    return made.id


def poll(sdk: openai.OpenAI, batch_id: str, timeout: float = 90, files: bool = False) -> Batch:
    """Until the batch is final (and, with `files`, its files are written)."""
    deadline = time.monotonic() + timeout
    while True:
        batch = sdk.batches.retrieve(batch_id)
        written = batch.output_file_id is not None or batch.error_file_id is not None
        if batch.status in FINAL and (written or not files):
            return batch
        assert time.monotonic() < deadline, batch
        time.sleep(0.2)


def lines_of(sdk: openai.OpenAI, file_id: str | None) -> list[dict[str, Any]]:
    if file_id is None:
        return []
    return [json.loads(line) for line in sdk.files.content(file_id).text.splitlines()]


def by_id(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found = {line["custom_id"]: line for line in lines}
    assert len(found) == len(lines), "a custom_id is in the files twice"
    for line in lines:
        assert line["id"].startswith("batch_req_")
        if line["response"] is not None:
            assert line["response"]["request_id"].startswith("req_")
    return found


def test_a_decision_batch_runs_from_a_file_to_its_output_and_error_files(
    live_url: str, client: TestClient, worker: Services
) -> None:
    # 250 decisions at 0.001 and 0.21 of credit: the first chunk is covered, so the batch is
    # taken; 40 find the credit gone and answer 402 in the error file.
    tenant = new_tenant(client, credit="0.21")
    sdk = sdk_for(live_url, tenant)
    file_id = upload(sdk, [decision(f"d{i}") for i in range(250)])
    created = sdk.batches.create(
        input_file_id=file_id,
        endpoint="/v1/systemone",  # type: ignore[arg-type]
        completion_window="24h",
        metadata={"run": "nightly"},
    )
    assert created.status == "validating" and created.input_file_id == file_id
    assert created.completion_window == "24h" and created.metadata == {"run": "nightly"}
    done = poll(sdk, created.id)
    assert done.status == "completed" and done.endpoint == "/v1/systemone"
    assert done.request_counts is not None
    assert (done.request_counts.total, done.request_counts.completed) == (250, 210)
    assert done.request_counts.failed == 40
    for moment in ("created_at", "in_progress_at", "finalizing_at", "completed_at"):
        assert isinstance(getattr(done, moment), int)

    output, errors = lines_of(sdk, done.output_file_id), lines_of(sdk, done.error_file_id)
    succeeded, failed = by_id(output), by_id(errors)
    assert set(succeeded) | set(failed) == {f"d{i}" for i in range(250)}
    assert len(succeeded) == 210 and len(failed) == 40
    first = next(iter(succeeded.values()))
    assert first["error"] is None and first["response"]["status_code"] == 200
    assert "urgent" in json.dumps(first["response"]["body"])
    for line in failed.values():
        assert line["response"]["status_code"] == 402 and line["error"] is None
        assert line["response"]["body"]["error"]["code"] == "insufficient_credit"
    files = {f.id: f for f in sdk.files.list()}
    assert files[done.output_file_id].purpose == "batch_output"  # type: ignore[index]
    assert files[done.output_file_id].filename == f"{done.id}_output.jsonl"  # type: ignore[index]


def test_a_chat_batch_answers_every_line_and_names_its_failures(
    sdk: openai.OpenAI, client: TestClient, tenant: Tenant, worker: Services
) -> None:
    questions = [chat(f"c{i}", f"Question {i}: how are refunds made?") for i in range(5)]
    missing = chat("c-missing", "What is in there?", collection="no-such-collection")
    file_id = upload(sdk, [*questions, missing])
    created = sdk.batches.create(
        input_file_id=file_id, endpoint="/v1/chat/completions", completion_window="24h"
    )
    done = poll(sdk, created.id)
    assert done.status == "completed" and done.endpoint == "/v1/chat/completions"
    succeeded = by_id(lines_of(sdk, done.output_file_id))
    failed = by_id(lines_of(sdk, done.error_file_id))
    assert set(succeeded) == {f"c{i}" for i in range(5)} and set(failed) == {"c-missing"}
    answer = succeeded["c0"]["response"]["body"]
    assert answer["object"] == "chat.completion" and answer["choices"][0]["message"]["content"]
    # What POST /v1/chat/completions itself answers for a collection that is not there.
    assert failed["c-missing"]["response"]["status_code"] == 422
    assert failed["c-missing"]["response"]["body"]["error"]["code"] == "unknown_collection"


def test_a_file_with_bad_lines_fails_its_batch_naming_each_line(
    sdk: openai.OpenAI, worker: Services
) -> None:
    wrong_url = {**decision("b2"), "url": "/v1/chat/completions"}
    no_method = {k: v for k, v in decision("b3").items() if k != "method"}
    streaming = chat("b4", "hi", stream=True)
    file_id = upload(sdk, [decision("b1"), wrong_url, no_method, decision("b1")])
    done = poll(
        sdk,
        sdk.batches.create(
            input_file_id=file_id, endpoint="/v1/systemone", completion_window="24h"
        ).id,
    )  # type: ignore[arg-type]
    assert done.status == "failed" and isinstance(done.failed_at, int)
    assert done.errors is not None and done.errors.data is not None
    named = {(e.line, e.code, e.param) for e in done.errors.data}
    assert named == {
        (2, "invalid_url", "url"),
        (3, "invalid_method", "method"),
        (4, "duplicate_custom_id", "custom_id"),
    }
    assert done.output_file_id is None and done.error_file_id is None
    chat_file = upload(sdk, [streaming])
    chat_done = poll(
        sdk,
        sdk.batches.create(
            input_file_id=chat_file, endpoint="/v1/chat/completions", completion_window="24h"
        ).id,
    )
    assert chat_done.errors is not None and chat_done.errors.data is not None
    assert [(e.line, e.param) for e in chat_done.errors.data] == [(1, "body.stream")]


def test_batches_and_files_are_listed_to_the_end(sdk: openai.OpenAI) -> None:
    file_id = upload(sdk, [decision("l1")])
    ids = {
        sdk.batches.create(
            input_file_id=file_id,
            endpoint="/v1/systemone",
            completion_window="24h",  # type: ignore[arg-type]
        ).id
        for _ in range(5)
    }
    listed = [batch.id for batch in sdk.batches.list(limit=2)]  # three pages, then has_more false
    assert sorted(listed) == sorted(ids)
    page = sdk.batches.list(limit=5)
    assert page.has_more is False and len(page.data) == 5
    more_files = {upload(sdk, [decision(f"f{i}")]) for i in range(2)}
    # (The batches' output files, if a worker has run them by now, are purpose batch_output.)
    uploaded = {f.id for f in sdk.files.list(limit=1, purpose="batch")}
    assert uploaded == more_files | {file_id}
    assert sdk.files.delete(file_id).deleted is True
    assert file_id not in {f.id for f in sdk.files.list()}


def test_refusals_name_their_field(sdk: openai.OpenAI) -> None:
    with pytest.raises(openai.UnprocessableEntityError) as purpose:
        sdk.files.create(file=("x.jsonl", io.BytesIO(b"{}\n")), purpose="fine-tune")
    assert purpose.value.body["field"] == "purpose"  # type: ignore[index]
    file_id = upload(sdk, [decision("r1")])
    with pytest.raises(openai.UnprocessableEntityError) as endpoint:
        sdk.batches.create(
            input_file_id=file_id, endpoint="/v1/embeddings", completion_window="24h"
        )
    assert endpoint.value.body["field"] == "endpoint"  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as missing:
        sdk.batches.create(
            input_file_id="file-nope", endpoint="/v1/chat/completions", completion_window="24h"
        )
    assert missing.value.body["field"] == "input_file_id"  # type: ignore[index]


def test_a_cancelled_batch_writes_batch_cancelled_lines(
    sdk: openai.OpenAI, worker: Services
) -> None:
    count = 4000
    file_id = upload(sdk, [decision(f"k{i}") for i in range(count)])
    created = sdk.batches.create(
        input_file_id=file_id, endpoint="/v1/systemone", completion_window="24h"
    )  # type: ignore[arg-type]
    time.sleep(0.3)
    cancelling = sdk.batches.cancel(created.id)
    assert cancelling.status in ("cancelling", "cancelled")
    done = poll(sdk, created.id, files=True)
    assert done.status == "cancelled" and isinstance(done.cancelled_at, int)
    succeeded = by_id(lines_of(sdk, done.output_file_id))
    cancelled = by_id(lines_of(sdk, done.error_file_id))
    assert set(succeeded) | set(cancelled) == {f"k{i}" for i in range(count)}
    assert not set(succeeded) & set(cancelled) and cancelled
    for line in cancelled.values():
        assert line["response"] is None and line["error"]["code"] == "batch_cancelled"
    assert done.request_counts is not None
    assert done.request_counts.failed == len(cancelled)
    assert done.request_counts.completed == len(succeeded)


def test_an_expired_batch_writes_batch_expired_lines(sdk: openai.OpenAI, worker: Services) -> None:
    from workers.celery import celery_app

    file_id = upload(sdk, [decision(f"e{i}") for i in range(300)])
    worker.stop_worker()  # so the window passes before any item runs
    try:
        created = sdk.batches.create(
            input_file_id=file_id,
            endpoint="/v1/systemone",  # type: ignore[arg-type]
            completion_window="1s",  # type: ignore[arg-type]
        )
        assert created.completion_window == "1s"
        time.sleep(1.2)
        celery_app.send_task("dossier.scheduled.expire_batches")
    finally:
        worker.start_worker()
    done = poll(sdk, created.id, files=True)
    assert done.status == "expired" and isinstance(done.expired_at, int)
    output, expired = lines_of(sdk, done.output_file_id), by_id(lines_of(sdk, done.error_file_id))
    assert output == [] or all(line["response"]["status_code"] == 200 for line in output)
    assert len(output) + len(expired) == 300 and expired
    for line in expired.values():
        assert line["response"] is None and line["error"]["code"] == "batch_expired"


def test_a_worker_killed_mid_chat_batch_loses_and_duplicates_nothing(
    client: TestClient, live_url: str, worker: Services
) -> None:
    tenant = new_tenant(client)  # 10 credits; a retrieval costs 0.0001
    enable(client, tenant)
    slug = client.post("/v1/collections", json={"name": "FAQ"}, headers=tenant.headers).json()[
        "slug"
    ]
    doc = client.post(
        f"/v1/collections/{slug}/documents",
        json={"title": "Refunds", "text": "Refunds are paid back within 14 days."},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, slug, doc["id"])
    sdk = sdk_for(live_url, tenant)
    count = 1200
    file_id = upload(sdk, [chat(f"q{i}", f"When are refunds paid? ({i})") for i in range(count)])
    created = sdk.batches.create(
        input_file_id=file_id, endpoint="/v1/chat/completions", completion_window="24h"
    )
    deadline = time.monotonic() + 90
    while True:
        counts = sdk.batches.retrieve(created.id).request_counts
        assert counts is not None
        if counts.completed >= 200:
            break
        assert time.monotonic() < deadline, counts
        time.sleep(0.05)
    assert worker.worker is not None
    os.killpg(worker.worker.pid, signal.SIGKILL)
    worker.worker.wait()
    assert sdk.batches.retrieve(created.id).status == "in_progress"
    worker.start_worker()
    done = poll(sdk, created.id, timeout=180)
    assert done.status == "completed" and done.error_file_id is None
    answered = by_id(lines_of(sdk, done.output_file_id))
    assert set(answered) == {f"q{i}" for i in range(count)}
    assert answered["q7"]["response"]["body"]["sources"]  # it searched the collection
    info = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers()).json()
    # The document's ingestion was charged too; each answer's retrieval once.
    ingest = Decimal(info["credit"])
    retrievals = [
        line for line in _all_ledger(client, tenant) if line["route"] == "knowledge.retrieval"
    ]
    assert len(retrievals) == count
    spent = sum(Decimal(str(line["cost"])) for line in _all_ledger(client, tenant))
    assert ingest == Decimal("10") - spent


def _all_ledger(client: TestClient, tenant: Tenant) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 500}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/ledger", params=params, headers=tenant.headers).json()
        lines += page["data"]
        cursor = page["next_cursor"]
        if not cursor:
            return lines


class UpstreamChat(StubChat):
    """The stub chat endpoint of the LLM extraction tests, with one question it cannot
    answer (no choices): the item's line answers 502, as the route would."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        text = body["messages"][-1]["content"]
        self.asked.append(text)
        return {"choices": []} if "unanswerable" in text else super().answer(body)


def test_chat_items_ask_the_configured_upstream_model(services: Services, tmp_path: Path) -> None:
    upstream = UpstreamChat()
    with (
        stub_server(upstream) as chat_url,
        own_services(services, tmp_path, chat_url=chat_url) as own,
        serve_process(own.env) as url,
        worker_process(own.env),
    ):
        key = tenant_http(url, "upstream-batch").headers["authorization"].split()[1]
        sdk = openai.OpenAI(
            base_url=f"{url}/v1", api_key=key, max_retries=0, _strict_response_validation=True
        )
        lines = [chat(f"u{i}", f"Question {i}") for i in range(3)]
        lines.append(chat("u-broken", "An unanswerable question"))
        created = sdk.batches.create(
            input_file_id=upload(sdk, lines),
            endpoint="/v1/chat/completions",
            completion_window="24h",
        )
        done = poll(sdk, created.id)
        answered = by_id(lines_of(sdk, done.output_file_id))
        failed = by_id(lines_of(sdk, done.error_file_id))
    assert done.status == "completed"
    assert {
        cid: line["response"]["body"]["choices"][0]["message"]["content"]
        for cid, line in answered.items()
    } == {f"u{i}": "Noted." for i in range(3)}
    assert failed["u-broken"]["response"]["status_code"] == 502
    assert failed["u-broken"]["response"]["body"]["error"]["code"] == "upstream_failed"
    assert sorted(upstream.asked) == sorted(
        [f"Question {i}" for i in range(3)] + ["An unanswerable question"]
    )
