"""HTTP routes of end-user facts: list them (a user's, or every user's), add them, forget
one, promote one into collections, draw their graph, and import past conversations. Validate,
authorise, hand over."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from app.deps import Idempotent, NoLookOnly, NoQueryString, TenantDep, UnitOfWorkRoute, UowDep
from app.facts.schemas import (
    FactDeleted,
    FactsAdded,
    FactsIn,
    FactsPage,
    GraphOut,
    HistoryImportOut,
    HistoryIn,
    PromoteIn,
    PromoteOut,
    TenantFactsPage,
)
from app.facts.service import FactService, HistoryService
from app.knowledge.indexes import knowledge_indexes
from app.pagination import CursorQuery
from app.settings import get_settings

router = APIRouter(route_class=UnitOfWorkRoute, tags=["knowledge"])

UserPath = Annotated[
    str,
    Path(pattern=r"^[A-Za-z0-9_.@:+-]{1,128}$", description="end-user id", examples=["user-17"]),
]
FactIdPath = Annotated[int, Path(examples=[311])]
Limit = Annotated[int, Query(ge=1, le=500)]


def _facts(uow: UowDep) -> FactService:
    return FactService(uow.session, uow.jobs, get_settings(), knowledge_indexes())


def _history(uow: UowDep) -> HistoryService:
    return HistoryService(uow.session, uow.jobs)


FactsDep = Annotated[FactService, Depends(_facts)]
HistoryDep = Annotated[HistoryService, Depends(_history)]


@router.get("/v1/users/{user}/facts", response_model=FactsPage)
def list_facts(
    user: UserPath,
    tenant: TenantDep,
    service: FactsDep,
    q: Annotated[str | None, Query(max_length=200, description="text the fact holds")] = None,
    status: Annotated[str, Query(pattern="^(active|retired|all)$")] = "all",
    sort: Annotated[str, Query(pattern="^(newest|oldest)$")] = "newest",
    cursor: CursorQuery = None,
    limit: Limit = 100,
) -> FactsPage:
    """The user's facts: search their text, filter active or retired, newest or oldest first."""
    return service.list_facts(
        tenant, user, text=q, status=status, sort=sort, cursor=cursor, limit=limit
    )


@router.get("/v1/facts", response_model=TenantFactsPage)
def list_tenant_facts(
    tenant: TenantDep,
    service: FactsDep,
    q: Annotated[
        str | None,
        Query(
            max_length=200,
            pattern=r"^[^\x00]*$",
            description="text found in the fact or in its end-user's id",
        ),
    ] = None,
    user: Annotated[
        str | None,
        Query(pattern=r"^[A-Za-z0-9_.@:+-]{1,128}$", description="one end-user, exactly"),
    ] = None,
    status: Annotated[str, Query(pattern="^(active|retired|all)$")] = "all",
    sort: Annotated[str, Query(pattern="^(newest|oldest|user)$")] = "newest",
    cursor: CursorQuery = None,
    limit: Limit = 100,
) -> TenantFactsPage:
    """Every end-user's facts in one list: search by end-user or text, filter active or
    retired, newest or oldest first or by end-user; `next_cursor` pages on."""
    return service.list_tenant_facts(
        tenant, text=q, user=user, status=status, sort=sort, cursor=cursor, limit=limit
    )


IMPORT_EXAMPLE = {
    "id": "imp_1f0c2a4b9d8e4f6a8b7c6d5e4f3a2b1c",
    "object": "history_import",
    "user": "user-17",
    "status": "running",
    "error": None,
    "turns": 2,
    "batches": {"pending": 1, "done": 1, "failed": 0, "skipped": 0},
    "turns_done": 1,
    "facts": 1,
    "events": 0,
    "created_at": "2026-11-30T19:30:00+00:00",
    "finished_at": None,
}


@router.post(
    "/v1/users/{user}/history",
    status_code=202,
    response_model=HistoryImportOut,
    responses={202: {"content": {"application/json": {"example": IMPORT_EXAMPLE}}}},
)
def import_history(
    user: UserPath, body: HistoryIn, tenant: TenantDep, service: HistoryDep
) -> HistoryImportOut:
    """Import the user's past conversations (up to 5,000 turns a call), each turn with when it
    was said: extracted oldest first by a job on the extraction queue, relative days read
    against each turn's own date, billed per turn like live ones. Poll the import for its
    progress."""
    return service.import_history(tenant, user, body)


@router.get(
    "/v1/users/{user}/history/{import_id}",
    response_model=HistoryImportOut,
    responses={200: {"content": {"application/json": {"example": IMPORT_EXAMPLE}}}},
)
def history_import(
    user: UserPath,
    import_id: Annotated[str, Path(pattern=r"^imp_[0-9a-f]{32}$", examples=[IMPORT_EXAMPLE["id"]])],
    tenant: TenantDep,
    service: HistoryDep,
) -> HistoryImportOut:
    """A history import's status (queued, running, done, failed) and progress: batches by
    status, turns done, and the facts and events it added."""
    return service.history_import(tenant, user, import_id)


@router.post("/v1/users/{user}/facts", response_model=FactsAdded, dependencies=[Idempotent])
def add_facts(user: UserPath, body: FactsIn, tenant: TenantDep, service: FactsDep) -> FactsAdded:
    """Facts you already know about the user, reconciled like learned ones."""
    return service.import_facts(tenant, user, body)


@router.delete(
    "/v1/users/{user}/facts/{fact_id}",
    response_model=FactDeleted,
    dependencies=[NoQueryString, NoLookOnly],
)
def delete_fact(
    user: UserPath, fact_id: FactIdPath, tenant: TenantDep, service: FactsDep
) -> FactDeleted:
    """Forget one fact: deleted outright, from retrieval, the graph and every export."""
    return service.delete_fact(tenant, user, fact_id)


@router.post("/v1/users/{user}/facts/{fact_id}/promote", response_model=PromoteOut)
def promote(
    user: UserPath, fact_id: FactIdPath, body: PromoteIn, tenant: TenantDep, service: FactsDep
) -> PromoteOut:
    """Move a fact into collections (a document in each); it leaves personal memory."""
    return service.promote(tenant, user, fact_id, body.collections)


@router.get("/v1/users/{user}/graph", response_model=GraphOut)
def graph(user: UserPath, tenant: TenantDep, service: FactsDep) -> GraphOut:
    """Entities and relationships of the user's facts, retired ones included."""
    return service.graph(tenant, user)
