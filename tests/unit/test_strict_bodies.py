"""Every boolean and number in every request body is strict, as the OpenAPI document types it:
`"pin": "yes"`, `"top_k": "5"` or `"enabled": 1` is a 422 naming the field, never read as what
a lax parser would guess. (A credit is documented as a number or a decimal string, the form
the API answers it in, and is read so.)"""

from __future__ import annotations

import inspect
import sys
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.main import create_app

LAX_VALUES: dict[str, list[Any]] = {
    "boolean": ["yes", "true", 1, 0],
    "integer": ["5", True, 5.5],
    "number": ["0.5", True],
}


def _body_schema_names(spec: dict[str, Any]) -> set[str]:
    """The component schemas a request body refers to, nested ones included."""
    components = spec["components"]["schemas"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    walk(components[name])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in spec["paths"].values():
        for operation in path.values():
            walk(operation.get("requestBody", {}))
    return found


def _models_by_name() -> dict[str, type[BaseModel]]:
    """The pydantic models of the modules the API imported, by name."""
    models: dict[str, type[BaseModel]] = {}
    for name, module in sorted(sys.modules.items()):
        if name.startswith("app.") and module is not None:
            for value in vars(module).values():
                if inspect.isclass(value) and issubclass(value, BaseModel):
                    models.setdefault(value.__name__, value)
    return models


def _json_type(schema: dict[str, Any]) -> str | None:
    """boolean, integer or number when that is all the property may be (null aside)."""
    options = schema.get("anyOf", [schema])
    types = {option.get("type") for option in options} - {"null"}
    return types.pop() if len(types) == 1 and types <= set(LAX_VALUES) else None


def _strict_fields() -> list[tuple[type[BaseModel], str, str]]:
    spec = create_app().openapi()
    components, models = spec["components"]["schemas"], _models_by_name()
    fields = []
    for name in sorted(_body_schema_names(spec)):
        for field, schema in components[name].get("properties", {}).items():
            kind = _json_type(schema)
            if kind is not None:
                fields.append((models[name], field, kind))
    return fields


FIELDS = _strict_fields()


def test_the_request_bodies_have_booleans_and_numbers_to_check() -> None:
    names = {f"{model.__name__}.{field}" for model, field, _ in FIELDS}
    expected = {"RuleIn.pin", "SettingsIn.enabled", "SearchIn.top_k", "MemoryOptions.top_k"}
    assert expected | {"ChatIn.stream", "ForgetIn.preview", "When.value"} <= names


@pytest.mark.parametrize(
    ("model", "field", "kind"), FIELDS, ids=[f"{m.__name__}.{f}" for m, f, _ in FIELDS]
)
def test_a_boolean_or_number_of_another_type_is_refused(
    model: type[BaseModel], field: str, kind: str
) -> None:
    for lax in LAX_VALUES[kind]:
        with pytest.raises(ValidationError) as refused:
            model.model_validate({field: lax})
        assert any(
            error["loc"][:1] == (field,) and error["type"].endswith("_type")
            for error in refused.value.errors()
        ), f"{model.__name__}.{field} took {lax!r}"
