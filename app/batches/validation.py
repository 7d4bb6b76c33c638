"""Checking a batch's requests before any runs: every line, every problem named. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.decisions.wire import parse_request
from app.errors import Invalid

MAX_REPORTED = 1_000


@dataclass(frozen=True)
class LineError:
    line: int
    custom_id: str | None
    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "custom_id": self.custom_id,
            "code": self.code,
            "message": self.message,
        }


def request_errors(lines: Iterable[tuple[int, Any]]) -> list[LineError]:
    """Problems of each `(line, request)`: shape, custom_id (a unique string), and the body as a
    /v1/systemone request. At most MAX_REPORTED are returned."""
    errors: list[LineError] = []
    seen: set[str] = set()
    for line, request in lines:
        if len(errors) >= MAX_REPORTED:
            break
        error = _line_error(line, request, seen)
        if error is not None:
            errors.append(error)
    return errors


def _line_error(line: int, request: Any, seen: set[str]) -> LineError | None:
    if not isinstance(request, dict):
        return LineError(line, None, "invalid_request", "each request is an object")
    custom_id = request.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 64:
        return LineError(
            line, None, "invalid_custom_id", "custom_id is a string of 1-64 characters"
        )
    if custom_id in seen:
        return LineError(
            line, custom_id, "duplicate_custom_id", f"custom_id '{custom_id}' is used twice"
        )
    seen.add(custom_id)
    unknown = set(request) - {"custom_id", "body", "method", "url"}
    if unknown:
        return LineError(line, custom_id, "unknown_field", f"unknown field '{sorted(unknown)[0]}'")
    if request.get("url", "/v1/systemone") != "/v1/systemone":
        return LineError(line, custom_id, "invalid_url", "a batch runs /v1/systemone requests only")
    try:
        parse_request(request.get("body"))
    except Invalid as exc:
        return LineError(line, custom_id, "invalid_body", exc.message)
    return None
