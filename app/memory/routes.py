"""HTTP routes of subject memory: validate, authorise, hand over to the service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.cache import SubjectCache, get_subject_cache
from app.deps import (
    Idempotent,
    NoLookOnly,
    NoQueryString,
    TenantDep,
    UnitOfWorkRoute,
    UowDep,
)
from app.memory.schemas import (
    AliasesIn,
    AliasesOut,
    DeletedOut,
    MemoryOut,
    RememberIn,
    RememberOut,
    RuleCreated,
    RuleIn,
    RulesDeleted,
    RulesDeleteIn,
    SubjectId,
    SubjectIn,
)
from app.memory.service import MemoryService
from app.settings import get_settings

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/memory", tags=["memory"])


CacheDep = Annotated[SubjectCache, Depends(get_subject_cache)]


def _service(uow: UowDep, cache: CacheDep) -> MemoryService:
    return MemoryService(uow.session, uow.jobs, cache, get_settings())


ServiceDep = Annotated[MemoryService, Depends(_service)]


@router.post("/remember", response_model=RememberOut, dependencies=[Idempotent])
def remember(body: RememberIn, tenant: TenantDep, service: ServiceDep) -> RememberOut:
    """Store one line per line of text; warns about lines that belong in a rule."""
    return service.remember(tenant, body)


@router.get("", response_model=MemoryOut, response_model_exclude_none=True)
def read(
    tenant: TenantDep,
    service: ServiceDep,
    subject: Annotated[SubjectId, Query()],
    lines: Annotated[bool, Query(description="include every line, rule and alias")] = False,
) -> MemoryOut:
    """Counts of a subject's memory; with `lines=true`, every line and rule word for word."""
    return service.read(tenant, subject, with_lines=lines)


@router.post("/rules", response_model=RuleCreated, dependencies=[Idempotent])
def add_rule(body: RuleIn, tenant: TenantDep, service: ServiceDep) -> RuleCreated:
    """Add a rule: pinned, an exclusion, a numeric condition, or plain text."""
    return service.add_rule(tenant, body)


@router.post("/rules/delete", response_model=RulesDeleted, dependencies=[NoQueryString, NoLookOnly])
def delete_rules(body: RulesDeleteIn, tenant: TenantDep, service: ServiceDep) -> RulesDeleted:
    """Delete rules by id; all or nothing."""
    return service.delete_rules(tenant, body)


@router.post("/aliases", response_model=AliasesOut, dependencies=[Idempotent])
def add_aliases(body: AliasesIn, tenant: TenantDep, service: ServiceDep) -> AliasesOut:
    """Other names the subject goes by; recall searches them with the state."""
    return service.add_aliases(tenant, body)


@router.post("/aliases/delete", response_model=AliasesOut, dependencies=[NoQueryString, NoLookOnly])
def delete_aliases(body: AliasesIn, tenant: TenantDep, service: ServiceDep) -> AliasesOut:
    """Take names out of the subject's aliases; adds none."""
    return service.delete_aliases(tenant, body)


@router.post("/delete", response_model=DeletedOut, dependencies=[NoQueryString, NoLookOnly])
def delete(body: SubjectIn, tenant: TenantDep, service: ServiceDep) -> DeletedOut:
    """Delete the whole subject: lines, rules and aliases, from PostgreSQL and the cache."""
    return service.delete_subject(tenant, body.subject)
