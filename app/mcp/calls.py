"""One MCP tool call: its unit of work, committed in the thread that did the work, and
Dossier's errors turned into tool errors the model can read and act on.

A tool call is a request like any other: the same services, one transaction, the same ledger
line and audit event as the HTTP route, and the jobs it wrote sent once it commits.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import psycopg
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.db import UnitOfWork
from app.errors import DossierError
from app.lookonly import looks_only
from app.validation import first_problem


def run_in_unit(work: Callable[[UnitOfWork], BaseModel]) -> dict[str, Any]:
    """Run `work` in a unit of work of its own and commit it; roll back on any error."""
    with tool_errors():
        unit = UnitOfWork(bounded=True)
        try:
            result = work(unit)
        except BaseException:
            unit.abort()
            raise
        unit.commit()  # the charges are settled here, so a 402 can still come from it
    return result.model_dump(mode="json", exclude_none=True)


@contextmanager
def tool_errors() -> Iterator[None]:
    """Expected failures become `ToolError`s (`isError: true`, the message for the model);
    anything else stays a crash the SDK logs and answers with a generic error."""
    try:
        yield
    except DossierError as exc:
        raise ToolError(_described(exc)) from exc
    except ValidationError as exc:
        problem = first_problem(exc.errors(include_url=False))
        # As a DossierError reads, without repeating the field its message starts with; a
        # problem with no field is pydantic's message alone.
        text = f"{problem.code}: {problem.message}" if problem.field else problem.message
        raise ToolError(text) from exc
    except (psycopg.DataError, DataError) as exc:
        # Only the first line: the rest can quote the data.
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise ToolError(f"invalid: a value in the arguments cannot be stored: {reason}") from exc
    except (psycopg.OperationalError, OperationalError, PoolTimeout) as exc:
        raise ToolError(
            "unavailable: the database is busy or unavailable; nothing was changed, retry in a "
            "moment"
        ) from exc


def refuse_unknown(arguments: Mapping[str, Any], known: Collection[str]) -> None:
    """An argument the tool does not take is refused by name, never ignored: a model that
    sends `dry_run: true` to a deleting tool must not have data deleted while believing it only
    looked, and a misspelt `collections` must not quietly widen a search."""
    for name in arguments:
        if name in known:
            continue
        if looks_only(name):
            raise ToolError(
                f"look_only_argument: '{name}' asks this tool only to look, which it cannot do; "
                "nothing was changed"
            )
        raise ToolError(
            f"unknown_argument: this tool takes no '{name}'; it takes: {', '.join(sorted(known))}"
        )


def _described(exc: DossierError) -> str:
    field = f" (argument: {exc.field})" if exc.field else ""
    return f"{exc.code}: {exc.message}{field}"
