"""Batch routes: submit, list, read, results as JSONL, cancel, delete."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse

from app.batches.schemas import (
    EXAMPLE,
    EXAMPLE_FILE_LINES,
    EXAMPLE_REQUESTS,
    BatchDeleted,
    BatchesPage,
    BatchFileIn,
    BatchIdIn,
    BatchIn,
    BatchOut,
)
from app.batches.service import BatchService
from app.deps import (
    Idempotent,
    NoLookOnly,
    NoQueryString,
    TenantDep,
    UnitOfWorkRoute,
    UowDep,
    run_and_commit,
)
from app.errors import Invalid
from app.middleware import JSONL_TYPES
from app.pagination import LimitQuery
from app.tenants.service import CurrentTenant
from app.validation import parse_body

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/batches", tags=["batches"])


def _service(uow: UowDep) -> BatchService:
    return BatchService(uow.session, uow.jobs)


ServiceDep = Annotated[BatchService, Depends(_service)]
BATCH_ID = "batch_6f1c0d7e2b9a4c58a3e4f1b2c7d9e0a1"
BatchIdPath = Annotated[str, Path(examples=[BATCH_ID])]
# A batch's cursor is the last batch id of the previous page: OpenAI's `after` (its last_id),
# or Dossier's `cursor` (its next_cursor), the same thing under two names.
BatchCursor = Annotated[
    str | None, Query(description="next_cursor of the previous page", examples=[BATCH_ID])
]
BatchAfter = Annotated[
    str | None, Query(description="last_id of the previous page (OpenAI)", examples=[BATCH_ID])
]

# The route reads the raw body (JSON or JSONL), so its request body is documented by hand.
CREATE_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "oneOf": [BatchIn.model_json_schema(), BatchFileIn.model_json_schema()],
                "description": "Dossier's requests in the body (BatchIn), or OpenAI's batch of "
                "an uploaded file (BatchFileIn), whose lines are like "
                + json.dumps(EXAMPLE_FILE_LINES[0]),
            },
            "example": EXAMPLE,
        },
        "application/jsonl": {
            "schema": {
                "type": "string",
                "description": 'one {"custom_id", "body"} per line (application/x-ndjson and '
                "application/x-jsonlines are read alike); completion_window goes in the query",
            },
            "example": "".join(json.dumps(line) + "\n" for line in EXAMPLE_REQUESTS),
        },
    },
}

COUNTS_EXAMPLE = {
    "total": 2,
    "completed": 1,
    "failed": 0,
    "succeeded": 1,
    "errored": 0,
    "canceled": 0,
    "expired": 0,
}
BATCH_EXAMPLE: dict[str, Any] = {
    "id": BATCH_ID,
    "object": "batch",
    "endpoint": "/v1/systemone",
    "input_file_id": "file-3b5d0c2e9a7f4e6b8c1d2a3f4e5b6c7d",
    "status": "in_progress",
    "completion_window": "24h",
    "output_file_id": None,
    "error_file_id": None,
    "metadata": {"source": "nightly-triage"},
    "request_counts": COUNTS_EXAMPLE,
    "errors": {"object": "list", "data": []},
    "created_at": 1795960800,
    "expires_at": 1796047200,
    "in_progress_at": 1795960801,
    "finalizing_at": None,
    "completed_at": None,
    "failed_at": None,
    "expired_at": None,
    "cancelling_at": None,
    "cancelled_at": None,
}
CREATED_EXAMPLE: dict[str, Any] = {
    **BATCH_EXAMPLE,
    "status": "validating",
    "request_counts": {**COUNTS_EXAMPLE, "completed": 0, "succeeded": 0},
    "in_progress_at": None,
}


def _answer(example: Any, description: str = "Successful Response") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"example": example}}}


@router.post(
    "",
    status_code=201,
    dependencies=[Idempotent],
    openapi_extra={"requestBody": CREATE_BODY},
    response_model=BatchOut,
    response_model_exclude_unset=True,
    responses={201: _answer(CREATED_EXAMPLE)},
)
async def create(
    request: Request,
    tenant: TenantDep,
    service: ServiceDep,
    completion_window: Annotated[str | None, Query(description="JSONL uploads only")] = None,
) -> dict[str, Any]:
    """Submit up to 100,000 requests: OpenAI's `{"input_file_id", "endpoint",
    "completion_window": "24h", "metadata"?}` of a file uploaded with `POST /v1/files`
    (endpoint `/v1/systemone` or `/v1/chat/completions`; output and error files when it ends),
    or Dossier's /v1/systemone requests as a JSON body `{"requests": [{"custom_id", "body"}],
    "metadata"?, "completion_window"?}` or a JSONL upload (one `{"custom_id", "body"}` per line,
    `Content-Type: application/jsonl`)."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()
    # Parsing up to 256 MiB and the COPY of its items are not the event loop's work.
    return await run_and_commit(_create, service, tenant, raw, content_type, completion_window)


def _create(
    service: BatchService,
    tenant: CurrentTenant,
    raw: bytes,
    content_type: str,
    completion_window: str | None,
) -> dict[str, Any]:
    if content_type in JSONL_TYPES:
        body: Any = {"requests": _jsonl(raw)}
        if completion_window is not None:
            body["completion_window"] = completion_window
    else:
        if completion_window is not None:
            raise Invalid("completion_window goes in the JSON body", field="completion_window")
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise Invalid("the body is not valid JSON", code="invalid_json") from exc
        if isinstance(body, dict) and "input_file_id" in body:
            return service.create_from_file(tenant, parse_body(BatchFileIn, body))
    return service.create(tenant, parse_body(BatchIn, body))


def _jsonl(raw: bytes) -> list[Any]:
    requests = []
    for number, line in enumerate(raw.decode("utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            requests.append(json.loads(line))
        except ValueError as exc:
            raise Invalid(
                f"line {number} is not valid JSON", field=f"line {number}", code="invalid_jsonl"
            ) from exc
    if not requests:
        raise Invalid("the upload holds no request", field="requests")
    return requests


LIST_EXAMPLE = {
    "object": "list",
    "data": [BATCH_EXAMPLE],
    "first_id": BATCH_ID,
    "last_id": BATCH_ID,
    "has_more": False,
    "next_cursor": None,
}


@router.get(
    "",
    response_model=BatchesPage,
    response_model_exclude_unset=True,
    responses={200: _answer(LIST_EXAMPLE)},
)
def list_batches(
    tenant: TenantDep,
    service: ServiceDep,
    after: BatchAfter = None,
    cursor: BatchCursor = None,
    limit: LimitQuery = 20,
) -> dict[str, Any]:
    """The tenant's batches, newest first: the next page is `after=<last_id>` while
    `has_more` (OpenAI's), or `cursor=<next_cursor>` while there is one."""
    if after is not None and cursor is not None:
        raise Invalid("send after or cursor, not both: they name the same thing", field="after")
    if after is not None:
        return service.list(tenant, after, limit, field="after")
    return service.list(tenant, cursor, limit)


@router.get(
    "/{batch_id}",
    response_model=BatchOut,
    response_model_exclude_unset=True,
    responses={200: _answer(BATCH_EXAMPLE)},
)
def get_batch(batch_id: BatchIdPath, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """Status, times and request counts."""
    return service.get(tenant, batch_id)


RESULT_EXAMPLE = {
    "custom_id": "ticket-1",
    "result": {"type": "succeeded", "response": {"model": "dossier-hybrid-1", "answers": {}}},
}
RESULTS_ANSWER: dict[str, Any] = {
    "description": "Finished items, one JSON object per line",
    "content": {
        "application/jsonl": {
            "schema": {
                "type": "string",
                "description": 'JSON Lines: {"custom_id", "result": {"type": "succeeded", '
                '"response"} or {"type": "errored" | "canceled" | "expired", "error"?}} per line',
            },
            "example": json.dumps(RESULT_EXAMPLE) + "\n",
        }
    },
}


@router.get(
    "/{batch_id}/results",
    response_class=StreamingResponse,
    responses={200: RESULTS_ANSWER},
)
def results(batch_id: BatchIdPath, tenant: TenantDep, service: ServiceDep) -> StreamingResponse:
    """Finished items as JSONL, in submission order: `{custom_id, result: {type, response |
    error}}`."""
    rows = list(service.results(tenant, batch_id))  # read inside the request's transaction

    def lines() -> Iterator[bytes]:
        for row in rows:
            yield (json.dumps(row, ensure_ascii=False) + "\n").encode()

    return StreamingResponse(lines(), media_type="application/jsonl")


@router.post(
    "/{batch_id}/cancel",
    dependencies=[NoQueryString],
    response_model=BatchOut,
    response_model_exclude_unset=True,
    responses={
        200: _answer({**BATCH_EXAMPLE, "status": "cancelling", "cancelling_at": 1795961400})
    },
)
def cancel(batch_id: BatchIdPath, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """Running chunks finish; every item not started becomes canceled."""
    return service.cancel(tenant, batch_id)


@router.post(
    "/delete",
    dependencies=[NoQueryString, NoLookOnly],
    response_model=BatchDeleted,
    responses={200: _answer({"id": BATCH_ID, "deleted": True})},
)
def delete(body: BatchIdIn, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """Delete a batch in a final state, with its items and results."""
    return service.delete(tenant, body.id)
