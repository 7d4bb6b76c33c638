"""Shared request dependencies, named once so route signatures stay short, and the route class
that runs each request's work and its commit in one thread."""

from __future__ import annotations

import functools
import hmac
import inspect
import json
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from datetime import timedelta
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute

from app.db import UnitOfWork
from app.engines.registry import SecondTier, configured_second_tier
from app.errors import Invalid, NotFound, Unauthorized
from app.idempotency import service as idempotency
from app.idempotency.claims import HEADER, KeyedRequest, checked_key
from app.lookonly import refuse_look_only_fields
from app.settings import get_settings
from app.tenants.service import CurrentTenant, authenticate

T = TypeVar("T")

_current_unit: ContextVar[UnitOfWork | None] = ContextVar("dossier_unit_of_work", default=None)
_keyed: ContextVar[KeyedRequest | None] = ContextVar("dossier_idempotency_key", default=None)
"""The request's `Idempotency-Key`, if it sent one (`Idempotent`), for its unit of work."""


async def _unit_of_work() -> AsyncIterator[UnitOfWork]:
    """The request's unit of work. Made in the event loop (no I/O: the session connects at its
    first statement); the route's own thread commits it (`UnitOfWorkRoute`), so a request never
    holds a connection, or a lock, while it waits for another thread."""
    unit = UnitOfWork(bounded=True)
    _current_unit.set(unit)
    try:
        yield unit
    except BaseException:
        if not unit.finished:
            await run_in_threadpool(unit.abort)
        raise
    if not unit.finished:  # an async route that did no work in a thread of its own
        await run_in_threadpool(unit.commit)


# scope="function": commit before the response is sent, so a client that reads right after a
# write sees it.
UowDep = Annotated[UnitOfWork, Depends(_unit_of_work, scope="function")]


def _finish(unit: UnitOfWork | None, work: Callable[[], T]) -> T:
    """Run `work`, then commit the request's unit in the same thread (roll it back on error).

    A request that names an `Idempotency-Key` claims it in the unit before the work and stores
    its answer in the unit after it, so both commit with the work or neither does."""
    keyed = _keyed.get() if unit is not None else None
    try:
        claim = keyed.claim() if keyed is not None else None
        if claim is not None and unit is not None:
            kept = timedelta(hours=get_settings().idempotency_hours)
            idempotency.claim_or_replay(unit.session, claim, kept)
        result = work()
        if claim is not None and unit is not None:
            idempotency.record(unit.session, claim, result)
    except BaseException:
        if unit is not None:
            unit.abort()
        raise
    if unit is not None:
        unit.commit()
    return result


async def run_and_commit(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """For an `async` route: its database work and the commit, together in one thread."""
    unit = _current_unit.get()
    return await run_in_threadpool(_finish, unit, functools.partial(work, *args, **kwargs))


def _committing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(endpoint)
    def run(*args: Any, **kwargs: Any) -> Any:
        return _finish(_current_unit.get(), functools.partial(endpoint, *args, **kwargs))

    return run


class UnitOfWorkRoute(APIRoute):
    """A route whose sync endpoint commits the request's unit of work in its own thread."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = _committing(endpoint)
        super().__init__(path, endpoint, **kwargs)


def bearer_token(header: str) -> str:
    """The API key of an `Authorization: Bearer <key>` header (the API's and `/mcp`'s)."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send 'Authorization: Bearer <api key>'")
    return token.strip()


def tenant_for_key(api_key: str) -> CurrentTenant:
    """Authenticate in a short unit of its own: its connection goes back to the pool at once,
    and the request's unit starts only when the route's thread begins its work."""
    unit = UnitOfWork(bounded=True)
    try:
        return authenticate(unit.session, api_key)
    finally:
        unit.abort()


def _bearer(request: Request) -> str:
    return bearer_token(request.headers.get("authorization", ""))


def _current_tenant(request: Request) -> CurrentTenant:
    return tenant_for_key(_bearer(request))


TenantDep = Annotated[CurrentTenant, Depends(_current_tenant)]


async def _idempotency_key(
    request: Request,
    tenant: TenantDep,
    key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            description="1-255 visible ASCII characters, new for each new request: a retry "
            "with the same key within a day gets the first answer again (with "
            "`Idempotent-Replayed: true`) and nothing is stored twice",
            examples=["3f1c2a7e-5b9d-4e0f-8a6c-1d2e3f4a5b6c"],
        ),
    ] = None,
) -> None:
    """Read the request's `Idempotency-Key`, if it sent one, into the claim its unit of work
    takes (`_finish`)."""
    if key is None:
        return
    route = request.scope.get("route")
    _keyed.set(
        KeyedRequest(
            tenant_id=tenant.id,
            key=checked_key(key),
            method=request.method,
            path=request.url.path,
            query=request.url.query,
            content_type=request.headers.get("content-type", ""),
            body=await request.body(),
            route=getattr(route, "path", request.url.path),
            status_code=getattr(route, "status_code", None) or 200,
            end_user=request.path_params.get("user"),
        )
    )


Idempotent = Depends(_idempotency_key)
"""For routes that write: honours an `Idempotency-Key` header."""


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


def look_only_refused(allowed: frozenset[str] = frozenset()) -> Callable[..., Any]:
    """A dependency refusing, by name, a body field that asks a removing route only to look
    (except the `allowed` ones, such as forget's own `preview`), before the body is validated:
    a misspelt `"preveiw": true` must not remove data while its caller believes it looked."""

    async def refuse(request: Request) -> None:
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            return  # the body's own validation reports invalid JSON
        refuse_look_only_fields(body, allowed=allowed)

    return refuse


NoLookOnly = Depends(look_only_refused())
"""Deleting routes have no preview: a field asking them only to look is refused by name."""


def second_tier() -> SecondTier | None:
    """The second-tier engine of quality `balanced` and `best`; a dependency so tests can put in
    one of their own."""
    return configured_second_tier()


SecondTierDep = Annotated[SecondTier | None, Depends(second_tier)]
