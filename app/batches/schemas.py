from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_REQUESTS = 100_000
_WINDOW = re.compile(r"^(\d+)\s*([smhd])$")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def window_seconds(value: str | int) -> int:
    """ "24h", "30m", "90s", "2d" or a number of seconds; 1 second to 7 days."""
    if isinstance(value, int) and not isinstance(value, bool):
        seconds = value
    elif isinstance(value, str) and (match := _WINDOW.match(value.strip())):
        seconds = int(match.group(1)) * _UNIT[match.group(2)]
    else:
        raise ValueError('a completion window is like "24h", "30m" or "90s"')
    if not 1 <= seconds <= 7 * 86400:
        raise ValueError("a completion window is between 1 second and 7 days")
    return seconds


# Two /v1/systemone requests, as a JSON body's `requests` or as the lines of a JSONL upload.
EXAMPLE_REQUESTS: list[dict[str, Any]] = [
    {
        "custom_id": "ticket-1",
        "body": {
            "model": "dossier-hybrid-1",
            "subject": "acme",
            "state": "Dashboards have been slow since this morning.",
            "questions": {"urgent": {"type": "noul", "instructions": "Urgent?"}},
        },
    },
    {
        "custom_id": "ticket-2",
        "body": {
            "model": "dossier-hybrid-1",
            "subject": "acme",
            "state": "Please resend last month's invoice.",
            "questions": {"urgent": {"type": "noul", "instructions": "Urgent?"}},
        },
    },
]
EXAMPLE: dict[str, Any] = {
    "requests": EXAMPLE_REQUESTS,
    "metadata": {"source": "nightly-triage"},
    "completion_window": "24h",
}


class BatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    requests: list[Any] = Field(min_length=1, max_length=MAX_REQUESTS)
    metadata: dict[str, str] | None = None
    completion_window: str | int = "24h"

    @field_validator("completion_window")
    @classmethod
    def _window(cls, value: str | int) -> str | int:
        window_seconds(value)
        return value


SYSTEMONE = "/v1/systemone"
CHAT = "/v1/chat/completions"
ENDPOINTS = (SYSTEMONE, CHAT)

# A batch of a file uploaded with POST /v1/files, as OpenAI's Batch API takes it.
FILE_EXAMPLE: dict[str, Any] = {
    "input_file_id": "file-3b5d0c2e9a7f4e6b8c1d2a3f4e5b6c7d",
    "endpoint": SYSTEMONE,
    "completion_window": "24h",
    "metadata": {"source": "nightly-triage"},
}
# Lines of such a file: OpenAI's request lines, `url` the batch's endpoint.
EXAMPLE_FILE_LINES: list[dict[str, Any]] = [
    {"method": "POST", "url": SYSTEMONE, **request} for request in EXAMPLE_REQUESTS
]


class BatchFileIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [FILE_EXAMPLE]})

    input_file_id: str = Field(min_length=1, max_length=40)
    endpoint: Literal["/v1/systemone", "/v1/chat/completions"]
    completion_window: str = Field(
        default="24h",
        description='"24h", as OpenAI takes it; Dossier also takes a shorter window ("1h", '
        '"90s") or a longer one up to "7d"',
    )
    metadata: dict[str, str] | None = Field(default=None, max_length=16)

    @field_validator("completion_window")
    @classmethod
    def _window(cls, value: str) -> str:
        window_seconds(value)
        return value


class BatchIdIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"id": "batch_6f1c0d7e2b9a4c58a3e4f1b2c7d9e0a1"}]},
    )
    id: str = Field(min_length=1, max_length=40)


# --- answers -------------------------------------------------------------------------------------
# OpenAI's batch and list objects, field for field (the `openai` client validates them strictly),
# plus Dossier's own fields (`next_cursor`, the per-outcome counts). Every key the
# service puts in an answer is a field here: a missing one would be dropped from the answer.


class RequestCounts(BaseModel):
    total: int
    completed: int = Field(description="OpenAI's: the lines of the output file")
    failed: int = Field(description="OpenAI's: the lines of the error file")
    succeeded: int
    errored: int
    canceled: int
    expired: int


class BatchError(BaseModel):
    """A line validation refused; `param` is left out of an error that is not about a field
    (the routes answer with `response_model_exclude_unset`, so it stays out)."""

    line: int | None
    custom_id: str | None
    code: str
    message: str
    param: str | None = None


class BatchErrors(BaseModel):
    object: Literal["list"]
    data: list[BatchError]


class BatchOut(BaseModel):
    """A batch: OpenAI's Batch object; times are Unix seconds, null until they happen."""

    id: str
    object: Literal["batch"]
    endpoint: str
    input_file_id: str | None
    status: str
    completion_window: str
    output_file_id: str | None
    error_file_id: str | None
    metadata: dict[str, str] | None
    request_counts: RequestCounts
    errors: BatchErrors
    created_at: int
    expires_at: int | None
    in_progress_at: int | None
    finalizing_at: int | None
    completed_at: int | None
    failed_at: int | None
    expired_at: int | None
    cancelling_at: int | None
    cancelled_at: int | None


class BatchesPage(BaseModel):
    """OpenAI's list (`after=<last_id>` while `has_more`) and Dossier's `next_cursor`."""

    object: Literal["list"]
    data: list[BatchOut]
    first_id: str | None
    last_id: str | None
    has_more: bool
    next_cursor: str | None


class BatchDeleted(BaseModel):
    id: str
    deleted: bool
