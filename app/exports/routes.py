"""The console's Settings > Data export: start an export of everything the tenant holds, follow
it, download its archive. Served with the console's routes (app.console.routes), with the key
the console signs in with, like every console listing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import StreamingResponse

from app.deps import NoQueryString, TenantDep, UnitOfWorkRoute, UowDep
from app.exports import archive, service
from app.exports.schemas import EXPORT_ID, ExportCreated, ExportOut, ExportsList

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/console/exports", tags=["console"])

ExportIdPath = Annotated[str, Path(pattern=r"^exp_[0-9a-f]{32}$", examples=[EXPORT_ID])]


@router.post("", status_code=202, response_model=ExportCreated, dependencies=[NoQueryString])
def create(tenant: TenantDep, uow: UowDep) -> ExportCreated:
    """Export everything the tenant holds, across all its subjects, end-users, collections and
    batches. Answers at once with the export; a worker writes the archive. One at a time."""
    export = service.create(uow.session, uow.jobs, tenant)
    return ExportCreated(id=export.id, status=export.status)


@router.get("", response_model=ExportsList)
def list_exports(
    tenant: TenantDep, uow: UowDep, limit: Annotated[int, Query(ge=1, le=100)] = 10
) -> ExportsList:
    """The tenant's latest exports, newest first."""
    exports = service.recent(uow.session, tenant, limit)
    return ExportsList(data=[ExportOut.model_validate(service.describe(e)) for e in exports])


@router.get("/{export_id}", response_model=ExportOut)
def get(export_id: ExportIdPath, tenant: TenantDep, uow: UowDep) -> ExportOut:
    """An export's status and progress; once completed, its counts and download link."""
    return ExportOut.model_validate(service.describe(service.get(uow.session, tenant, export_id)))


@router.get(
    "/{export_id}/download",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
            "description": "the archive",
        }
    },
)
def download(export_id: ExportIdPath, tenant: TenantDep, uow: UowDep) -> StreamingResponse:
    """The archive: a zip of JSON Lines files and manifest.json. 409 until the export has
    completed, 410 once it has expired."""
    export, handle, size = service.open_download(uow.session, tenant, export_id)
    day = (export.finished_at or export.created_at).date().isoformat()
    return StreamingResponse(
        archive.read_chunks(handle),
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="dossier-export-{day}.zip"',
            "Content-Length": str(size),
        },
    )
