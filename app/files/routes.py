"""File routes, in OpenAI's shapes: upload, list, read, download, delete."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse
from starlette.datastructures import UploadFile

from app.deps import NoLookOnly, NoQueryString, TenantDep, UnitOfWorkRoute, UowDep, run_and_commit
from app.errors import Invalid
from app.files.schemas import FileDeleted, FileOut, FilesPage
from app.files.service import MAX_LINES, FileService, content

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/files", tags=["files"])

FILE_ID = "file-3b5d0c2e9a7f4e6b8c1d2a3f4e5b6c7d"
FileIdPath = Annotated[str, Path(max_length=40, examples=[FILE_ID])]
FILE_EXAMPLE: dict[str, Any] = {
    "id": FILE_ID,
    "object": "file",
    "bytes": 1184,
    "created_at": 1795960800,
    "filename": "nightly.jsonl",
    "purpose": "batch",
    "status": "processed",
    "expires_at": None,
    "status_details": None,
    "lines": 2,
}
LINE_EXAMPLE = '{"custom_id": "ticket-1", "method": "POST", "url": "/v1/systemone", "body": {}}\n'
UPLOAD_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file", "purpose"],
                "properties": {
                    "file": {
                        "type": "string",
                        "format": "binary",
                        "description": "JSONL: one request object per line, "
                        f"at most {MAX_LINES} lines",
                    },
                    "purpose": {"type": "string", "enum": ["batch"]},
                },
            },
            "example": {"purpose": "batch", "file": "(nightly.jsonl)"},
        }
    },
}


def _service(uow: UowDep) -> FileService:
    return FileService(uow.session)


ServiceDep = Annotated[FileService, Depends(_service)]


def _answer(example: Any) -> dict[str, Any]:
    return {
        "description": "Successful Response",
        "content": {"application/json": {"example": example}},
    }


@router.post(
    "",
    status_code=201,
    openapi_extra={"requestBody": UPLOAD_BODY},
    response_model=FileOut,
    responses={201: _answer(FILE_EXAMPLE)},
)
async def upload(request: Request, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """Upload a JSONL file for a batch (multipart: `file`, `purpose=batch`). Each line must be
    one JSON object; the first that is not is a 422 naming its line."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        raise Invalid(
            "send the file as multipart/form-data with 'file' and 'purpose'", field="file"
        )
    form = await request.form(max_files=2, max_fields=4)
    try:
        purpose, file = form.get("purpose"), form.get("file")
        unknown = [name for name in form if name not in ("purpose", "file")]
        if unknown:
            raise Invalid(f"unknown field '{unknown[0]}'", field=unknown[0], code="unknown_field")
        if not isinstance(purpose, str):
            raise Invalid("purpose is required: 'batch'", field="purpose")
        if len(form.getlist("file")) > 1:
            raise Invalid("send one file per upload", field="file")
        if not isinstance(file, UploadFile):
            raise Invalid(
                "file is required: the JSONL file, as a multipart file part", field="file"
            )
        size = file.size if file.size is not None else 0
        return await run_and_commit(
            service.upload, tenant, purpose, file.filename or "", file.file, size
        )
    finally:
        await form.close()


@router.get(
    "",
    response_model=FilesPage,
    responses={
        200: _answer(
            {
                "object": "list",
                "data": [FILE_EXAMPLE],
                "first_id": FILE_ID,
                "last_id": FILE_ID,
                "has_more": False,
            }
        )
    },
)
def list_files(
    tenant: TenantDep,
    service: ServiceDep,
    after: Annotated[
        str | None, Query(description="the last id of the previous page", examples=[FILE_ID])
    ] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 10_000,
    order: Annotated[Literal["asc", "desc"], Query(description="by created_at")] = "desc",
    purpose: Annotated[str | None, Query(examples=["batch_output"])] = None,
) -> dict[str, Any]:
    """The tenant's files, newest first (`order=asc`: oldest first), paged with `after`."""
    return service.list(tenant, after, limit, order, purpose)


@router.get("/{file_id}", response_model=FileOut, responses={200: _answer(FILE_EXAMPLE)})
def get_file(file_id: FileIdPath, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """A file's size, name, purpose and when it was made."""
    return service.get(tenant, file_id)


@router.get(
    "/{file_id}/content",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "The file's bytes",
            "content": {
                "application/jsonl": {
                    "schema": {"type": "string", "description": "one JSON object per line"},
                    "example": LINE_EXAMPLE,
                }
            },
        }
    },
)
def file_content(file_id: FileIdPath, tenant: TenantDep, service: ServiceDep) -> StreamingResponse:
    """The file's bytes, streamed part by part."""
    file = service.owned(tenant, file_id)
    return StreamingResponse(
        content(file.id, file.bytes),
        media_type="application/jsonl",
        headers={
            "Content-Length": str(file.bytes),
            "Content-Disposition": f'attachment; filename="{_ascii(file.filename)}"',
        },
    )


@router.delete(
    "/{file_id}",
    dependencies=[NoQueryString, NoLookOnly],
    response_model=FileDeleted,
    responses={200: _answer({"id": FILE_ID, "object": "file", "deleted": True})},
)
def delete_file(file_id: FileIdPath, tenant: TenantDep, service: ServiceDep) -> dict[str, Any]:
    """Delete a file and its bytes. A batch made from it keeps its requests."""
    return service.delete(tenant, file_id)


def _ascii(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
