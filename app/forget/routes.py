"""`POST /v1/memory/forget`: remove by concept, or preview what would go."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from app.deps import NoQueryString, TenantDep, UnitOfWorkRoute, look_only_refused
from app.forget.schemas import ForgetIn, ForgetOut
from app.forget.service import ForgetService
from app.memory.routes import ServiceDep as MemoryServiceDep

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/memory", tags=["memory"])


def _service(memory: MemoryServiceDep) -> ForgetService:
    return ForgetService(memory)


@router.post(
    "/forget",
    response_model=ForgetOut,
    response_model_exclude_none=True,
    dependencies=[NoQueryString],
)
def forget(
    tenant: TenantDep,
    # After the key is checked, before the body is validated.
    _look_only: Annotated[None, Depends(look_only_refused(allowed=frozenset({"preview"})))],
    service: Annotated[ForgetService, Depends(_service)],
    body: Annotated[
        ForgetIn,
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
    return service.forget(tenant, body)
