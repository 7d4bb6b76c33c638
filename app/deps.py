"""Shared request dependencies, named once so route signatures stay short."""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.db import session_scope
from app.errors import Invalid, NotFound, Unauthorized
from app.settings import get_settings
from app.tenants.service import CurrentTenant, authenticate
from workers.enqueue import JobQueue


class UnitOfWork:
    """The request's session and the jobs to send once it commits."""

    def __init__(self, session: Session, jobs: JobQueue) -> None:
        self.session = session
        self.jobs = jobs


def _unit_of_work() -> Iterator[UnitOfWork]:
    with session_scope() as (session, jobs):
        yield UnitOfWork(session, jobs)


# scope="function": commit before the response is sent, so a client that reads right after a
# write sees it.
UowDep = Annotated[UnitOfWork, Depends(_unit_of_work, scope="function")]


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send 'Authorization: Bearer <api key>'")
    return token.strip()


def _current_tenant(request: Request, uow: UowDep) -> CurrentTenant:
    return authenticate(uow.session, _bearer(request))


TenantDep = Annotated[CurrentTenant, Depends(_current_tenant)]


def _admin(request: Request) -> None:
    token = get_settings().admin_token
    if token is None:
        raise NotFound("admin routes are off: set DOSSIER_ADMIN_TOKEN")
    if not hmac.compare_digest(_bearer(request).encode(), token.get_secret_value().encode()):
        raise Unauthorized("wrong admin token")


AdminDep = Depends(_admin)


def refuse_query_string(request: Request) -> None:
    """Routes that change data take everything from the body; a query string such as
    `?dry_run=true` could make a caller believe only a look was taken, so it is refused."""
    if request.url.query:
        name = request.url.query.split("&")[0].split("=")[0]
        raise Invalid(
            f"this route takes no query string; '{name}' was sent and nothing was changed",
            field=name,
            code="query_string_refused",
        )


NoQueryString = Depends(refuse_query_string)


async def refuse_look_only_body(request: Request) -> None:
    """Deleting routes have no preview: a field asking them only to look is refused by name."""
    import json

    from app.lookonly import refuse_look_only_fields

    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        return  # the body's own validation reports invalid JSON
    refuse_look_only_fields(body)


NoLookOnly = Depends(refuse_look_only_body)
