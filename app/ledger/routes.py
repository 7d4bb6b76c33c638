"""The ledger: the tenant's priced requests, and (the Activity view) its calls by thread."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.errors import Invalid
from app.ledger import repository as repo
from app.ledger.schemas import LedgerLineOut, ThreadOut
from app.pagination import CursorQuery, LimitQuery, Page, page_of

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/ledger", tags=["ledger"])

ThreadQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        pattern=r"^[^\x00]+$",
        description="only the calls sent under this thread (the chat body's `thread`)",
        examples=["t-17"],
    ),
]


@router.get("", response_model=Page[LedgerLineOut])
def list_ledger(
    tenant: TenantDep,
    uow: UowDep,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
    thread: ThreadQuery = None,
) -> Page[LedgerLineOut]:
    """The tenant's priced requests, newest first; `thread` narrows to one conversation's
    calls (every chat completion sent under it, free ones included)."""
    rows = repo.lines(uow.session, tenant.id, thread=thread, cursor=cursor, limit=limit)
    out = [
        LedgerLineOut(
            id=r.id,
            route=r.route,
            subject=r.subject,
            thread=r.thread,
            units=r.units,
            cost=float(r.cost),
            billed=r.billed,
            created_at=r.created_at,
        )
        for r in rows
    ]
    return page_of(out, [r.id for r in rows], limit)


@router.get("/threads", response_model=Page[ThreadOut])
def list_threads(
    tenant: TenantDep, uow: UowDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[ThreadOut]:
    """The threads calls were sent under, most recently used first: per thread, its call
    count, the routes they took, their cost and first and last time. Ids and counts only:
    no message of a conversation is kept."""
    if cursor is not None and not cursor.isdigit():
        raise Invalid("cursor is not one this API gave out", field="cursor")
    rows = repo.threads(
        uow.session, tenant.id, before_id=int(cursor) if cursor else None, limit=limit
    )
    routes = repo.routes_of(uow.session, tenant.id, [r.thread for r in rows[:limit]])
    out = [
        ThreadOut(
            thread=r.thread,
            calls=r.calls,
            routes=routes.get(r.thread, {}),
            cost=float(r.cost),
            first_at=r.first_at,
            last_at=r.last_at,
        )
        for r in rows
    ]
    return page_of(out, [r.last_id for r in rows], limit)
