"""HTTP routes of knowledge as a whole: the switch, blended search, and an end-user's GDPR
paths (export, erasure). Validate, authorise, hand over."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.deps import NoLookOnly, NoQueryString, TenantDep, UnitOfWorkRoute, UowDep
from app.facts.routes import Limit, UserPath
from app.facts.schemas import FactsPage
from app.knowledge.indexes import knowledge_indexes
from app.knowledge.schemas import SearchIn, SearchOut, SettingsIn, SettingsOut, UserErased
from app.knowledge.service import EndUserService, RetrievalService
from app.knowledge.switch import SwitchService
from app.pagination import CursorQuery
from app.settings import get_settings

router = APIRouter(route_class=UnitOfWorkRoute, tags=["knowledge"])


def _switch(uow: UowDep) -> SwitchService:
    return SwitchService(uow.session, get_settings(), knowledge_indexes())


def _retrieval(uow: UowDep) -> RetrievalService:
    """Also what chat completions retrieve with (tests override it)."""
    return RetrievalService(uow.session, get_settings(), knowledge_indexes())


def _end_users(uow: UowDep) -> EndUserService:
    return EndUserService(uow.session, uow.jobs, get_settings(), knowledge_indexes())


SwitchDep = Annotated[SwitchService, Depends(_switch)]
RetrievalDep = Annotated[RetrievalService, Depends(_retrieval)]
EndUsersDep = Annotated[EndUserService, Depends(_end_users)]


@router.get("/v1/knowledge/settings", response_model=SettingsOut, response_model_exclude_none=True)
def read_settings(tenant: TenantDep, service: SwitchDep) -> SettingsOut:
    """Whether knowledge is on for this tenant."""
    return service.read_settings(tenant)


@router.put("/v1/knowledge/settings", response_model=SettingsOut, response_model_exclude_none=True)
def put_settings(body: SettingsIn, tenant: TenantDep, service: SwitchDep) -> SettingsOut:
    """Turn knowledge on or off; off with stored data needs `on_disable` keep or delete."""
    if body.enabled:  # turning it off (and deleting what it holds) is a delete: always allowed
        tenant.ensure_active("the knowledge switch")
    return service.put_settings(tenant, body)


@router.post("/v1/knowledge/search", response_model=SearchOut, response_model_exclude_none=True)
def search(body: SearchIn, tenant: TenantDep, service: RetrievalDep) -> SearchOut:
    """Ranked facts and passages for a query, with their sources."""
    return service.search(tenant, body)


@router.get("/v1/users/{user}/export", response_model=FactsPage)
def export(
    user: UserPath,
    tenant: TenantDep,
    service: EndUsersDep,
    cursor: CursorQuery = None,
    limit: Limit = 500,
) -> FactsPage:
    """Everything held about the user: their facts, active and retired (GDPR Article 15)."""
    return service.export(tenant, user, cursor, limit)


@router.delete(
    "/v1/users/{user}", response_model=UserErased, dependencies=[NoQueryString, NoLookOnly]
)
def erase_user(user: UserPath, tenant: TenantDep, service: EndUsersDep) -> UserErased:
    """Erase the user's facts at once and for good (GDPR Article 17)."""
    return service.erase_user(tenant, user)
