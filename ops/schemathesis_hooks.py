"""Schemathesis checks of Dossier's contract (`SCHEMATHESIS_HOOKS=ops.schemathesis_hooks`).

Besides schemathesis' own `not_a_server_error`: every 4xx answer is Dossier's error shape,
`{"error": {"code": str, "message": str, "field"?: str}}`. Also teaches schemathesis to send
`application/jsonl` bodies (a batch upload).
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.check
def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = json.loads(response.content or b"null")
    except ValueError as exc:
        raise AssertionError(f"a {response.status_code} answer is not JSON") from exc
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise AssertionError(f'a {response.status_code} answer has no "error" object: {body!r}')
    if not isinstance(error.get("code"), str) or not isinstance(error.get("message"), str):
        raise AssertionError(f"the error of a {response.status_code} lacks a code or a message")
    if "field" in error and not isinstance(error["field"], str):
        raise AssertionError(f"the error's field is not a string: {error['field']!r}")
    return True


@schemathesis.serializer("application/jsonl")
def jsonl(ctx: Any, value: Any) -> bytes:
    """A generated JSONL body: text as it is, a list one JSON value per line, else one line."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", errors="surrogatepass")
    lines = value if isinstance(value, list) else [value]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()
