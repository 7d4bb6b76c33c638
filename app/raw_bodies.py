"""OpenAPI for routes that read their body raw.

`/v1/chat/completions` takes the decoded JSON and validates it itself: it accepts the rest of
OpenAI's request fields by name, refuses any other (and the renamed `rag` with its own code),
and checks each message's date, so FastAPI does not see its model. (`POST /v1/batches` reads
JSON or JSONL, and uploads are multipart: they describe their bodies in their routes.)
`documented_by(Model)` puts the model back in the route's request body, and
`add_raw_body_models` adds the models (and the models they hold) to the document's components,
where the `$ref` points.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

REF = "#/components/schemas/{model}"
_MODELS: list[type[BaseModel]] = []


def documented_by(model: type[BaseModel]) -> dict[str, Any]:
    """The route's `openapi_extra`: its JSON body is `model`."""
    _MODELS.append(model)
    schema = {"$ref": REF.format(model=model.__name__)}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def add_raw_body_models(app: FastAPI) -> None:
    """Make `app.openapi()` hold the schemas of every model `documented_by` named."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            _, schemas = models_json_schema(
                [(model, "validation") for model in _MODELS], ref_template=REF
            )
            components = document.setdefault("components", {}).setdefault("schemas", {})
            for name, schema in schemas.get("$defs", {}).items():
                components.setdefault(name, schema)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
