"""The import layers hold: the contracts of `[tool.importlinter]` in pyproject.toml (also run by
`lint-imports`), checked on the real import graph, and shown to break on a wrong-way import; and
no import is hidden inside a function, where it would mask a cycle.

The only function-level imports allowed are the command line's (`app/cli/`: each command loads
what it runs, so `dossier --help` starts in under a second instead of loading the whole API) and
lines marked `# optional extra` (a package a user installs only for that feature).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.api import read_configuration
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).parents[2]
CONTRACT_TYPES: dict[str, Any] = {"layers": LayersContract, "forbidden": ForbiddenContract}
LAZY_IMPORTS_ALLOWED = ROOT / "app" / "cli"
OPTIONAL_EXTRA = "# optional extra"


@pytest.fixture(scope="module")
def graph() -> Any:
    return grimp.build_graph("app", "workers", cache_dir=None)


def _broken_contracts(graph: Any) -> list[str]:
    config = read_configuration(str(ROOT / "pyproject.toml"))
    broken = []
    for options in config["contracts_options"]:
        contract = CONTRACT_TYPES[options["type"]](
            name=options["name"],
            session_options=config["session_options"],
            contract_options=options,
        )
        # A copy each: a contract takes its ignored imports out of the graph it checks.
        if not contract.check(copy.deepcopy(graph), verbose=False).kept:
            broken.append(options["name"])
    return broken


def test_every_layer_holds(graph: Any) -> None:
    assert _broken_contracts(graph) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("app.memory.repository", "app.memory.service"),  # a repository calling up to a service
        ("app.ledger.service", "app.ledger.routes"),  # a service reaching for the HTTP edge
        ("app.ledger.service", "workers.celery"),  # shared code importing a worker
        ("workers.batches", "app.batches.repository"),  # a task skipping its service
        ("app.engines.base", "app.decisions.service"),  # the engines calling back into decisions
        ("app.recall.index", "app.rules.evaluate"),  # two independent parts of the core
    ],
)
def test_an_import_the_wrong_way_breaks_a_contract(
    graph: Any, importer: str, imported: str
) -> None:
    graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    try:
        assert _broken_contracts(graph) != []
    finally:
        graph.remove_import(importer=importer, imported=imported)


def _imports_in_functions(tree: ast.AST) -> Iterator[ast.stmt]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def test_no_import_is_hidden_in_a_function() -> None:
    hidden = []
    for folder in ("app", "workers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(LAZY_IMPORTS_ALLOWED):
                continue
            lines = path.read_text().splitlines()
            for node in _imports_in_functions(ast.parse("\n".join(lines))):
                if OPTIONAL_EXTRA not in lines[node.lineno - 1]:
                    hidden.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hidden == []
