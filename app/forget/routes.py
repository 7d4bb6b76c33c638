"""`POST /v1/memory/forget`: remove by concept, or preview what would go."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends

from app.deps import NoQueryString, TenantDep, UnitOfWorkRoute
from app.forget.schemas import ForgetIn, ForgetOut
from app.forget.service import ForgetService
from app.lookonly import refuse_look_only_fields
from app.memory.routes import ServiceDep as MemoryServiceDep
from app.raw_bodies import documented_by
from app.validation import parse_body

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/memory", tags=["memory"])


def _service(memory: MemoryServiceDep) -> ForgetService:
    return ForgetService(memory)


@router.post(
    "/forget",
    response_model=ForgetOut,
    response_model_exclude_none=True,
    dependencies=[NoQueryString],
    openapi_extra=documented_by(ForgetIn),
)
def forget(
    tenant: TenantDep,
    service: Annotated[ForgetService, Depends(_service)],
    body: Annotated[
        Any,
        Body(
            openapi_examples={
                "preview": {
                    "value": {"subject": "acme", "concept": "Ann Lindqvist", "preview": True}
                }
            }
        ),
    ],
) -> ForgetOut:
    """Remove every line and rule holding all the concept's content words; `preview: true` only
    says what would go. Works at zero credit and while suspended."""
    refuse_look_only_fields(body, allowed=frozenset({"preview"}))
    return service.forget(tenant, parse_body(ForgetIn, body))
