"""Schemathesis checks of Dossier's contract (`SCHEMATHESIS_HOOKS=ops.schemathesis_hooks`).

Besides schemathesis' own `not_a_server_error`: every 4xx answer is Dossier's error shape,
`{"error": {"code": str, "message": str, "field"?: str}}`. Also teaches schemathesis to send
`application/jsonl` bodies (a batch upload), and to send what clients get wrong and schemas do
not describe: a NUL or a lone surrogate in any string of a JSON body, and an `Authorization`
header that is not UTF-8 (each in some of the cases; every answer must be a 4xx, never a 5xx).
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis
from hypothesis import strategies as st

# Mostly nothing: most cases stay valid, so the routes behind the edge are fuzzed too.
_INJECTED = st.sampled_from(["", "", "", "", "", "\x00", "\ud800", "\udfff"])


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


@schemathesis.hook
def flatmap_body(ctx: Any, body: Any) -> Any:
    """Sometimes put a NUL or a lone surrogate into one string of the body (a JSON body: a
    multipart form, which holds its file as bytes, is encoded by the HTTP client, which cannot
    write a lone surrogate at all)."""
    paths = list(_string_paths(body, ()))
    if not paths or _takes_a_form(ctx):
        return st.just(body)
    return st.tuples(_INJECTED, st.sampled_from(paths)).map(
        lambda pick: _with_text(body, pick[1], pick[0]) if pick[0] else body
    )


@schemathesis.hook
def flatmap_case(ctx: Any, case: Any) -> Any:
    """Sometimes an `Authorization` header of bytes that are not UTF-8 (the run's own header,
    set on the command line, is replaced in those cases)."""

    def maybe_bad(bad: bool) -> Any:
        if bad:
            case.headers = {**(case.headers or {}), "Authorization": "Bearer \xff\xfe"}
        return case

    return st.sampled_from([False] * 9 + [True]).map(maybe_bad)


def _takes_a_form(ctx: Any) -> bool:
    bodies = getattr(getattr(ctx, "operation", None), "body", None) or []
    return any(str(getattr(body, "media_type", "")).startswith("multipart/") for body in bodies)


def _string_paths(value: Any, path: tuple[Any, ...]) -> Any:
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _string_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _string_paths(item, (*path, index))


def _with_text(value: Any, path: tuple[Any, ...], text: str) -> Any:
    if not path:
        return value + text if isinstance(value, str) else value
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _with_text(value[head], rest, text)}
    if isinstance(value, list):
        copy = list(value)
        copy[head] = _with_text(value[head], rest, text)
        return copy
    return value
