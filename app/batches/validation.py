"""Checking a batch's requests before any runs: every line, every problem named. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.batches.schemas import CHAT, SYSTEMONE
from app.chat.service import parse_chat
from app.engines.wire import parse_request
from app.errors import Invalid

MAX_REPORTED = 1_000
MAX_CUSTOM_ID = 64
MAX_FILE_CUSTOM_ID = 512
"""OpenAI's files carry longer ids than Dossier's JSON form ever took."""


@dataclass(frozen=True)
class LineError:
    line: int
    custom_id: str | None
    code: str
    message: str
    param: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "custom_id": self.custom_id,
            "code": self.code,
            "message": self.message,
            "param": self.param,
        }


def request_errors(
    lines: Iterable[tuple[int, Any]], endpoint: str = SYSTEMONE, *, from_file: bool = False
) -> list[LineError]:
    """Problems of each `(line, request)`: shape, custom_id (a unique string), and the body as
    a request to `endpoint`. A line of a file (`from_file`) is OpenAI's: `method` POST and `url`
    the batch's endpoint, both required. At most MAX_REPORTED are returned."""
    errors: list[LineError] = []
    seen: set[str] = set()
    for line, request in lines:
        if len(errors) >= MAX_REPORTED:
            break
        error = _line_error(line, request, seen, endpoint, from_file)
        if error is not None:
            errors.append(error)
    return errors


def _line_error(
    line: int, request: Any, seen: set[str], endpoint: str, from_file: bool
) -> LineError | None:
    if not isinstance(request, dict):
        return LineError(line, None, "invalid_request", "each request is an object")
    custom_id = request.get("custom_id")
    longest = MAX_FILE_CUSTOM_ID if from_file else MAX_CUSTOM_ID
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= longest:
        return LineError(
            line,
            None,
            "invalid_custom_id",
            f"custom_id is a string of 1-{longest} characters",
            "custom_id",
        )
    if custom_id in seen:
        return LineError(
            line,
            custom_id,
            "duplicate_custom_id",
            f"custom_id '{custom_id}' is used twice",
            "custom_id",
        )
    seen.add(custom_id)
    unknown = set(request) - {"custom_id", "body", "method", "url"}
    if unknown:
        name = sorted(unknown)[0]
        return LineError(line, custom_id, "unknown_field", f"unknown field '{name}'", name)
    if from_file:
        if request.get("method") != "POST":
            return LineError(line, custom_id, "invalid_method", "method must be POST", "method")
        if request.get("url") != endpoint:
            return LineError(
                line,
                custom_id,
                "invalid_url",
                f"url must be the batch's endpoint, {endpoint}",
                "url",
            )
    elif request.get("url", SYSTEMONE) != SYSTEMONE:
        return LineError(line, custom_id, "invalid_url", "a batch runs /v1/systemone requests only")
    try:
        _check_body(endpoint, request.get("body"))
    except Invalid as exc:
        param = f"body.{exc.field}" if exc.field else "body"
        return LineError(line, custom_id, "invalid_body", exc.message, param)
    return None


def _check_body(endpoint: str, body: Any) -> None:
    if endpoint == CHAT:
        if parse_chat(body).stream:
            raise Invalid("a batch's chat completions cannot stream", field="stream")
    else:
        parse_request(body)
