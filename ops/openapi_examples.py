"""List the API operations whose OpenAPI documentation has no example.

An operation counts as documented with an example when its request body, one of its parameters
or one of its 2xx answers carries `example` / `examples` (directly or on the schema it refers to).

    python ops/openapi_examples.py          # prints the ones without; exit 1 when there are any
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def has_example(node: Any, schemas: dict[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    if isinstance(node, dict):
        if "example" in node or "examples" in node:
            return True
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen and has_example(schemas.get(name, {}), schemas, seen | {name}):
                return True
        return any(has_example(value, schemas, seen) for value in node.values())
    if isinstance(node, list):
        return any(has_example(value, schemas, seen) for value in node)
    return False


def operations_without_example(spec: dict[str, Any]) -> list[str]:
    schemas = spec.get("components", {}).get("schemas", {})
    missing = []
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            answers = {
                code: answer
                for code, answer in operation.get("responses", {}).items()
                if str(code).startswith("2")
            }
            parts = (operation.get("requestBody"), operation.get("parameters"), answers)
            if not any(has_example(part, schemas) for part in parts if part):
                missing.append(f"{method.upper()} {path}")
    return missing


def main() -> None:
    from app.main import create_app

    missing = operations_without_example(create_app().openapi())
    for operation in missing:
        print(operation)
    print(f"{len(missing)} operations without an example", file=sys.stderr)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
