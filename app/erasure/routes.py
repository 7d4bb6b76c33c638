"""Admin erasure routes (DOSSIER_ADMIN_TOKEN)."""

from __future__ import annotations

from datetime import datetime, time
from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.account.schemas import TENANT_ID
from app.deps import AdminDep, NoQueryString, UnitOfWorkRoute, UowDep
from app.erasure import service
from app.erasure.schemas import ErasureCreated, ErasureIn, ErasureOut, RetentionIn, RetentionOut
from app.tenants.routes import TenantIdPath

router = APIRouter(
    route_class=UnitOfWorkRoute, prefix="/v1/admin", tags=["admin"], dependencies=[AdminDep]
)

ERASURE_ID = "erase_5a0e2c4b7d9f4e1a8c3b6d0f2e4a7c91"
ERASURE_EXAMPLE = {
    "id": ERASURE_ID,
    "tenant_id": TENANT_ID,
    "kind": "users",
    "scope": {"users": ["user-17", "user-42"], "subjects": None, "untouched_since": None},
    "status": "running",
    "progress": {"erased": 1, "to_erase": 2},
    "proof": None,
    "error": None,
    "created_at": "2026-11-29T14:00:00Z",
    "started_at": "2026-11-29T14:00:01Z",
    "finished_at": None,
}


def _answer(example: Any) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"example": example}}}}


@router.post(
    "/erasures", status_code=202, dependencies=[NoQueryString], response_model=ErasureCreated
)
def create(body: ErasureIn, uow: UowDep) -> dict[str, Any]:
    """Erase a whole tenant, or its named end-users, named subjects, or everything untouched
    since a date. Answers at once with the job; the work runs on the erasure queue."""
    since = (
        datetime.combine(body.untouched_since, time.min).astimezone()
        if body.untouched_since
        else None
    )
    job = service.create_job(
        uow.session,
        uow.jobs,
        body.tenant_id,
        users=body.users,
        subjects=body.subjects,
        untouched_since=since,
    )
    return {"id": job.id, "status": job.status, "kind": job.kind}


@router.get("/erasures/{job_id}", response_model=ErasureOut, responses=_answer(ERASURE_EXAMPLE))
def get(job_id: Annotated[str, Path(examples=[ERASURE_ID])], uow: UowDep) -> dict[str, Any]:
    """Status, progress and, when done, the proof."""
    return service.describe(uow.session, job_id)


@router.put(
    "/tenants/{tenant_id}/retention",
    response_model=RetentionOut,
    responses=_answer({"tenant_id": TENANT_ID, "days": 365}),
)
def retention(tenant_id: TenantIdPath, body: RetentionIn, uow: UowDep) -> dict[str, Any]:
    """A retention period: a scheduled sweep erases subjects and end-users untouched that long."""
    service.set_retention(uow.session, tenant_id, body.days)
    return {"tenant_id": str(tenant_id), "days": body.days}
