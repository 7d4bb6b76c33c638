"""Pydantic's validation errors as Dossier's 422: the one translator every body goes through.

A body is validated in three places: by FastAPI before the route runs (`RequestValidationError`,
rendered by `app.main`), by a route that reads its body raw first (`parse_body`, for the reasons
`app.raw_bodies` gives), and as a System One request (`app.engines.wire.parse_request`, also
for each line of a batch); MCP tool calls validate their arguments too (`app.mcp.calls`). All of
them name the first problem the same way, here: `{"code", "message", "field"?}` with the codes
`unknown_field`, `invalid_json` and `invalid`.

System One requests keep the wire's own rendering (`wire=True`): the field is a path without the
union tag pydantic inserts (`questions.team.criteria`, list items as `[0]`), an unknown field is
`invalid` with pydantic's message, and a problem with no field says `body: …`. Clients of the
System One API (typesafe-sdk) have always seen that form, and its tests pin it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.errors import Invalid

M = TypeVar("M", bound=BaseModel)

REQUEST_PARTS = ("body", "query", "path")
"""Where FastAPI says a value came from; not part of the field a client names. (Dropped wherever
they occur in a location, as before: a body field named `path` is located at its parent.)"""

UNION_TAGS: Mapping[str, Collection[str]] = {
    "questions": ("choice", "noul", "score", "box"),
    "answers": ("choice", "noul", "score", "box"),
}
"""System One's tagged unions: under these keys pydantic locates an error after the tag."""

_NO_ERROR: Mapping[str, Any] = {"loc": (), "msg": "invalid request", "type": ""}


@dataclass(frozen=True)
class Problem:
    """The first validation problem, as the client sees it."""

    code: str
    message: str
    field: str | None

    def error(self) -> Invalid:
        return Invalid(self.message, field=self.field, code=self.code)

    def body(self) -> dict[str, Any]:
        """The 422's JSON body (the same `DossierError.to_dict` renders)."""
        return self.error().to_dict()


def first_problem(errors: Sequence[Mapping[str, Any]], *, wire: bool = False) -> Problem:
    """The first of pydantic's `errors` (`ValidationError.errors()`), named for the client."""
    first = errors[0] if errors else _NO_ERROR
    loc = tuple(first.get("loc", ()))
    message = str(first.get("msg"))
    if wire:
        path = field_path(loc)
        return Problem("invalid", f"{path or 'body'}: {message}", path or None)
    field = ".".join(str(part) for part in loc) or None
    if first.get("type") == "extra_forbidden":
        return Problem("unknown_field", f"unknown field '{field}'", field)
    if first.get("type") == "json_invalid":
        return Problem("invalid_json", "the body is not valid JSON", None)
    return Problem("invalid", f"{field}: {message}" if field else message, field)


NOT_AN_OBJECT = "the body must be a JSON object"
NOT_AN_OBJECT_TYPES = frozenset({"model_attributes_type", "model_type", "dict_type"})
"""Pydantic's error types for a body that is a list, a string or null where an object goes."""


def _body_itself(error: Mapping[str, Any]) -> str | None:
    """What is wrong with the body as a whole (absent, or not an object), if that is the error."""
    if tuple(error.get("loc", ())) != ("body",):
        return None
    if error.get("type") in NOT_AN_OBJECT_TYPES:
        return NOT_AN_OBJECT
    return str(error.get("msg")) if error.get("type") == "missing" else None


def request_problem(errors: Sequence[Mapping[str, Any]]) -> Problem:
    """The first of FastAPI's `RequestValidationError.errors()`, without where it came from."""
    whole = _body_itself(errors[0]) if errors else None
    if whole is not None:
        return Problem("invalid", whole, None)
    located = [
        {**error, "loc": tuple(p for p in error.get("loc", ()) if p not in REQUEST_PARTS)}
        for error in errors[:1]
    ]
    return first_problem(located)


def wire_request_problem(errors: Sequence[Mapping[str, Any]]) -> Problem:
    """FastAPI's `RequestValidationError.errors()` of a System One body, in the wire's form.

    A body that is not JSON, absent or not an object is not the wire's to name: it reads as on
    every route."""
    if errors and (errors[0].get("type") == "json_invalid" or _body_itself(errors[0])):
        return request_problem(errors)
    first = dict(errors[0]) if errors else dict(_NO_ERROR)
    loc = tuple(first.get("loc", ()))
    first["loc"] = loc[1:] if loc[:1] == ("body",) else loc
    return first_problem([first], wire=True)


def parse_body(model: type[M], body: Any) -> M:
    """Validate a decoded JSON body (for routes that inspect the raw body first).

    Raises:
        Invalid: the body is not an object, or its first problem, naming the field.
    """
    if not isinstance(body, dict):
        raise Invalid(NOT_AN_OBJECT)
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise first_problem(exc.errors(include_url=False)).error() from exc


def field_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a dotted path, without the union tag pydantic inserts.

    Pydantic locates an error inside a tagged union as ("questions", "team", "choice",
    "criteria"); a client knows the field as `questions.team.criteria`.
    """
    parts = list(loc)
    if len(parts) >= 3 and parts[2] in UNION_TAGS.get(str(parts[0]), ()):
        del parts[2]
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path
