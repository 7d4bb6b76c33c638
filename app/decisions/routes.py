"""`POST /v1/systemone`: wire-compatible with the System One API, plus `subject` and `memory`;
`GET /v1/jobs/{id}`: the passes a decision asked for with `"passes": "async"`."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Request, Response
from fastapi.exceptions import RequestValidationError

from app.decisions.pass_jobs import job_view
from app.decisions.schemas import DecisionOut, PassJobOut
from app.decisions.service import DecisionService
from app.deps import SecondTierDep, TenantDep, UnitOfWorkRoute, UowDep
from app.engines.registry import default_engine
from app.engines.wire import ModelMetadataList, SystemOneRequest
from app.memory.routes import ServiceDep as MemoryServiceDep
from app.recall.cache import shared_indexes
from app.settings import get_settings
from app.validation import wire_request_problem


class SystemOneRoute(UnitOfWorkRoute):
    """The decisions router's routes: a typed body's 422 (only `/v1/systemone` takes a body)
    reads as the System One API has always named it (`questions.team.criteria: …`,
    `app.validation.wire_request_problem`), not in the generic form of the other routers."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def wire_errors(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                raise wire_request_problem(exc.errors()).error() from exc

        return wire_errors


router = APIRouter(route_class=SystemOneRoute, tags=["decisions"])


def _service(memory: MemoryServiceDep, second_tier: SecondTierDep) -> DecisionService:
    return DecisionService(
        memory, shared_indexes(), default_engine(), get_settings(), second_tier=second_tier
    )


ServiceDep = Annotated[DecisionService, Depends(_service)]

EXAMPLE = {
    "model": "dossier-hybrid-1",
    "subject": "northwind-traders",
    "state": "Our service is down and customers cannot log in.",
    "questions": {"escalate": {"type": "noul", "instructions": "Escalate this ticket?"}},
    "memory": {"top_k": 6},
}


@router.post(
    "/v1/systemone",
    response_model=DecisionOut,
    response_model_exclude_unset=True,
)
def systemone(
    tenant: TenantDep,
    service: ServiceDep,
    body: Annotated[SystemOneRequest, Body(examples=[EXAMPLE])],
) -> dict[str, Any]:
    """Answer System One questions about a state, with the subject's memory placed before it."""
    return service.decide(tenant, body)


JOB_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
JOB_EXAMPLE = {
    "id": JOB_ID,
    "status": "queued",
    "created_at": "2026-11-29T14:00:00.412000+00:00",
    "finished_at": None,
    "error": None,
    "without_memory": None,
    "changes": None,
    "explain": None,
    "placebo": None,
}
MODELS_EXAMPLE = {
    "models": [
        {
            "name": "dossier-hybrid-1",
            "description": "embedded engine",
            "release_date": "2026-11-29",
        },
        {
            "name": "dossier-lexical-1",
            "description": "embedded engine",
            "release_date": "2026-11-29",
        },
    ]
}


def _answer(example: Any) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"example": example}}}}


@router.get("/v1/jobs/{job_id}", response_model=PassJobOut, responses=_answer(JOB_EXAMPLE))
def pass_job(
    job_id: Annotated[str, Path(examples=[JOB_ID])], tenant: TenantDep, uow: UowDep
) -> dict[str, Any]:
    """A pass job's status (queued, running, done, failed) and, once done, the same
    `without_memory`, `changes`, `explain` and `placebo` blocks a synchronous decision gives.
    Not billed."""
    return job_view(uow.session, tenant, job_id)


@router.get("/v1/models", response_model=ModelMetadataList, responses=_answer(MODELS_EXAMPLE))
def models(_: TenantDep) -> dict[str, Any]:
    """The models the configured engine answers with."""
    return {
        "models": [
            {
                "name": name,
                "description": f"{default_engine().name} engine",
                "release_date": "2026-11-29",
            }
            for name in default_engine().models()
        ]
    }
