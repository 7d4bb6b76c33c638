"""The OpenAPI document shows every answer: each operation's 2xx answer has a schema.

A client generated from the document (or a reader of it) must know what a route answers, not an
untyped object: a JSON answer needs a model (a `$ref`, or an object with properties, or a typed
map or list), and a binary or text answer its media type with a schema saying what it holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.main import create_app

NON_JSON_MEDIA_TYPES = frozenset(
    {
        # Batch results and uploaded files: JSON Lines, one object per line.
        "application/jsonl",
        # An account export's archive.
        "application/zip",
        # Prometheus' text format (`/metrics`).
        "text/plain; version=1.0.0; charset=utf-8",
    }
)
"""Answers that are not one JSON document: their schema is a string (text or binary)."""

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def _typed_json(schema: dict[str, Any] | None) -> bool:
    """A JSON schema that says what the answer holds: not missing, not `{}`, not a bare object
    that allows anything (FastAPI's schema for a route returning `dict[str, Any]`)."""
    if not schema:
        return False
    if "$ref" in schema or "properties" in schema:
        return True
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return all(_typed_json(part) for part in schema[key])
    kind = schema.get("type")
    if kind == "object":
        values = schema.get("additionalProperties")
        return isinstance(values, dict) and _typed_json(values)
    if kind == "array":
        return _typed_json(schema.get("items"))
    return kind in ("string", "integer", "number", "boolean")


def _untyped_answers(spec: dict[str, Any]) -> list[tuple[str, str, str]]:
    untyped = []
    for path, operations in spec["paths"].items():
        for method in METHODS:
            operation = operations.get(method)
            if operation is None:
                continue
            for status, answer in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                content = answer.get("content")
                if status == "204":
                    if content:
                        untyped.append((method.upper(), path, f"{status}: 204 with a body"))
                    continue
                if not content:
                    untyped.append((method.upper(), path, f"{status}: no content"))
                    continue
                for media_type, described in content.items():
                    schema = described.get("schema")
                    if media_type in NON_JSON_MEDIA_TYPES:
                        fine = bool(schema) and schema.get("type") == "string"
                    else:
                        fine = _typed_json(schema)
                    if not fine:
                        untyped.append((method.upper(), path, f"{status} {media_type}"))
    return untyped


def test_every_2xx_answer_has_a_schema(spec: dict[str, Any]) -> None:
    assert list(_untyped_answers(spec)) == []


def test_the_check_refuses_an_untyped_answer() -> None:
    assert not _typed_json({"type": "object", "additionalProperties": True})
    assert not _typed_json({})
    assert not _typed_json(None)
    assert _typed_json({"$ref": "#/components/schemas/BatchOut"})
    assert _typed_json({"type": "object", "additionalProperties": {"type": "string"}})
