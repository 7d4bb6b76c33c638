"""SQL is written in one place per domain: its `repository.py`.

Routes, services and workers call repository functions named for what they fetch or write; they
do not build statements (`select(`, `update(`, `text(`, `func.`...) nor execute them
(`session.execute(`, `.scalars(`, a psycopg `conn.execute(`...). Unit-of-work calls on ORM
objects (`session.add`, `session.get` by key, `session.delete`, `flush`) are not SQL written by
hand and stay where the work is. The scan reads the source (AST), so it needs no database.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("app", "workers")
SKIPPED_DIRS = ("app/embeddings/default_model/",)


ALLOWED: dict[str, str] = {
    # Infrastructure, not a domain's data:
    "app/db.py": "engine and session setup; the advisory lock `lead` takes and the statement "
    "timeout `local_statement_timeout` sets are transaction primitives every domain uses",
    "app/embedded.py": "the embedded server's bootstrap creates its database with psycopg, "
    "before any engine or session exists",
    "app/observability/health.py": "the readiness probe's `SELECT 1` checks that PostgreSQL "
    "answers; it reads no data",
}

SQL_BUILDERS = frozenset(
    {
        "select",
        "insert",
        "update",
        "delete",
        "text",
        "func",
        "exists",
        "bindparam",
        "literal",
        "literal_column",
        "and_",
        "or_",
        "not_",
        "case",
        "union",
        "union_all",
        "tuple_",
        "values",
        "column",
        "table",
        "cast",
    }
)
"""Names that build SQL when imported from sqlalchemy (or called on the module)."""

EXECUTORS = frozenset({"execute", "executemany", "exec_driver_sql", "scalar", "scalars", "query"})
"""Methods that run SQL when called with a statement. Called without one they are something
else: a Redis pipeline's `execute()`, a result's `scalar()`."""

SCHEMA_MODULE = "models.py"
"""Table declarations may use `func` and `text` for server defaults and partial-index
predicates: that is DDL the migrations write too, not a query."""


def violations(source: str, path: str) -> list[str]:
    """Where `source` (the file at `path`, relative to the repository root) writes or runs SQL."""
    tree = ast.parse(source, filename=path)
    schema = path.endswith("/" + SCHEMA_MODULE)
    found: list[str] = []
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "sqlalchemy" or alias.name.startswith("sqlalchemy."):
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and not schema:
            module = node.module or ""
            if module == "sqlalchemy" or module.startswith("sqlalchemy."):
                for alias in node.names:
                    if alias.name in SQL_BUILDERS:
                        found.append(f"{path}:{node.lineno}: imports {alias.name} from {module}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in EXECUTORS and (node.args or node.keywords):
                found.append(f"{path}:{node.lineno}: .{name}(...) runs SQL")
            elif name == "copy" and node.args:
                found.append(f"{path}:{node.lineno}: .copy(...) (COPY) runs SQL")
            receiver = node.func.value
            if (
                not schema
                and name in SQL_BUILDERS
                and isinstance(receiver, ast.Name)
                and receiver.id in modules
            ):
                found.append(f"{path}:{node.lineno}: {receiver.id}.{name}(...) builds SQL")
    return found


def _scanned_files() -> list[tuple[str, Path]]:
    files = []
    for top in SCANNED:
        for file in sorted((ROOT / top).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if path.startswith(SKIPPED_DIRS):
                continue
            if file.name == "repository.py" or path in ALLOWED:
                continue
            files.append((path, file))
    return files


def test_sql_is_only_in_repositories() -> None:
    found = [
        where
        for path, file in _scanned_files()
        for where in violations(file.read_text(encoding="utf-8"), path)
    ]
    assert not found, (
        "SQL outside a repository.py (move it into the domain's repository, as a function "
        "named for what it fetches or writes):\n" + "\n".join(found)
    )


def test_allowed_files_exist() -> None:
    """An allow-list entry for a file that is gone (or moved) would silently allow nothing."""
    missing = [path for path in ALLOWED if not (ROOT / path).is_file()]
    assert not missing, missing


def test_the_scan_catches_a_query_in_a_route() -> None:
    route = """
from sqlalchemy import select

from app.models import Subject


@router.get("/subjects")
def list_subjects(tenant: TenantDep, uow: UowDep) -> list[str]:
    return list(uow.session.execute(select(Subject.name)).scalars())
"""
    found = violations(route, "app/memory/routes.py")
    assert any("imports select" in where for where in found)
    assert any(".execute(...)" in where for where in found)


def test_the_scan_catches_raw_sql_and_module_calls() -> None:
    service = """
import sqlalchemy as sa


def count(connection, session):
    connection.exec_driver_sql("SELECT 1")
    return session.scalar(sa.select(sa.func.count()))
"""
    found = violations(service, "app/things/service.py")
    assert any("exec_driver_sql" in where for where in found)
    assert any("sa.select(" in where for where in found)


def test_the_scan_leaves_unit_of_work_calls_and_redis_alone() -> None:
    service = """
def work(session, client, row):
    session.add(row)
    session.get(type(row), 1)
    session.delete(row)
    pipe = client.pipeline()
    pipe.llen("q")
    return pipe.execute(), {}.copy()
"""
    assert violations(service, "app/things/service.py") == []
