"""HTTP routes of collections and their documents. Validate, authorise, hand over."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from app.deps import (
    Idempotent,
    NoLookOnly,
    NoQueryString,
    TenantDep,
    UnitOfWorkRoute,
    UowDep,
    run_and_commit,
)
from app.documents.schemas import (
    CollectionDeleted,
    CollectionIn,
    CollectionOut,
    CollectionsOut,
    DocumentDeleted,
    DocumentOut,
    DocumentPatch,
    DocumentsAdded,
    DocumentsOut,
    DocumentTextIn,
)
from app.documents.service import CollectionService, DocumentService, Upload
from app.errors import Invalid
from app.knowledge.indexes import knowledge_indexes
from app.pagination import CursorQuery
from app.settings import get_settings
from app.tenants.service import CurrentTenant
from app.validation import parse_body

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/collections", tags=["collections"])

SlugPath = Annotated[
    str, Path(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64, examples=["support-docs"])
]
DocumentIdPath = Annotated[int, Path(examples=[27])]
Limit = Annotated[int, Query(ge=1, le=500)]


def _collections(uow: UowDep) -> CollectionService:
    return CollectionService(uow.session, get_settings(), knowledge_indexes())


def _documents(uow: UowDep) -> DocumentService:
    return DocumentService(uow.session, uow.jobs, get_settings(), knowledge_indexes())


CollectionsDep = Annotated[CollectionService, Depends(_collections)]
DocumentsDep = Annotated[DocumentService, Depends(_documents)]


@router.post("", response_model=CollectionOut, status_code=201)
def create_collection(
    body: CollectionIn, tenant: TenantDep, service: CollectionsDep
) -> CollectionOut:
    """A collection; its slug comes from the name and never changes."""
    return service.create(tenant, body)


@router.get("", response_model=CollectionsOut)
def list_collections(tenant: TenantDep, service: CollectionsDep) -> CollectionsOut:
    """The tenant's collections with their document counts."""
    return service.all(tenant)


@router.patch("/{slug}", response_model=CollectionOut)
def rename_collection(
    slug: SlugPath, body: CollectionIn, tenant: TenantDep, service: CollectionsDep
) -> CollectionOut:
    """Rename: only the display name changes."""
    return service.rename(tenant, slug, body)


@router.delete(
    "/{slug}", response_model=CollectionDeleted, dependencies=[NoQueryString, NoLookOnly]
)
def delete_collection(
    slug: SlugPath, tenant: TenantDep, service: CollectionsDep
) -> CollectionDeleted:
    """Delete a collection with its documents and their chunks."""
    return service.delete(tenant, slug)


@router.post(
    "/{slug}/documents",
    status_code=202,
    response_model=DocumentOut | DocumentsAdded,
    dependencies=[Idempotent],
)
async def add_documents(
    slug: SlugPath, request: Request, tenant: TenantDep, service: DocumentsDep
) -> DocumentOut | DocumentsAdded:
    """Pasted text (JSON `{"title", "text", "source"?}`) or a multipart upload of PDF, .txt
    and .md files (field `files`, several allowed, with optional `title`/`text`/`source` for
    pasted text beside them). One document answers `{"id", "status", …}`; several, `{"data"}`."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        pasted, files = await _read_form(request)
        return await run_and_commit(_add_uploaded, service, tenant, slug, pasted, files)
    return await run_and_commit(_add_pasted, service, tenant, slug, await request.body())


def _added(created: list[DocumentOut]) -> DocumentOut | DocumentsAdded:
    """One document answers as itself; several, as `{"data"}`."""
    if len(created) == 1:
        return created[0]
    return DocumentsAdded(data=created)


def _add_uploaded(
    service: DocumentService,
    tenant: CurrentTenant,
    slug: str,
    pasted: DocumentTextIn | None,
    files: list[Upload],
) -> DocumentOut | DocumentsAdded:
    return _added(service.add(tenant, slug, pasted=pasted, files=files))


def _add_pasted(
    service: DocumentService, tenant: CurrentTenant, slug: str, raw: bytes
) -> DocumentOut | DocumentsAdded:
    try:
        body = parse_body(DocumentTextIn, json.loads(raw))
    except ValueError as exc:
        raise Invalid("the body is not valid JSON", code="invalid_json") from exc
    return _added(service.add(tenant, slug, pasted=body, files=[]))


async def _read_form(request: Request) -> tuple[DocumentTextIn | None, list[Upload]]:
    settings = get_settings()
    form = await request.form(
        max_files=100, max_fields=20, max_part_size=settings.document_max_bytes
    )
    files: list[Upload] = []
    fields: dict[str, str] = {}
    for name, value in form.multi_items():
        if isinstance(value, str):
            if name not in ("title", "text", "source"):
                raise Invalid(f"unknown field '{name}'", field=name, code="unknown_field")
            fields[name] = value
        elif name in ("files", "file"):
            data = await value.read()
            files.append(Upload(value.filename or "untitled", value.content_type, data))
        else:
            raise Invalid(f"unknown field '{name}'", field=name, code="unknown_field")
    await form.close()
    pasted = parse_body(DocumentTextIn, fields) if fields else None
    return pasted, files


@router.get("/{slug}/documents", response_model=DocumentsOut)
def list_documents(
    slug: SlugPath,
    tenant: TenantDep,
    service: DocumentsDep,
    cursor: CursorQuery = None,
    limit: Limit = 100,
) -> DocumentsOut:
    """The collection's documents, newest first, with their status."""
    return service.documents(tenant, slug, cursor, limit)


@router.get("/{slug}/documents/{document_id}", response_model=DocumentOut)
def get_document(
    slug: SlugPath, document_id: DocumentIdPath, tenant: TenantDep, service: DocumentsDep
) -> DocumentOut:
    """A document's status: processing, ready, or failed with the reason."""
    return service.get(tenant, slug, document_id)


@router.patch("/{slug}/documents/{document_id}", response_model=DocumentOut)
def patch_document(
    slug: SlugPath,
    document_id: DocumentIdPath,
    body: DocumentPatch,
    tenant: TenantDep,
    service: DocumentsDep,
) -> DocumentOut:
    """Rename a document or change its source label (it cannot move to another collection)."""
    return service.patch(tenant, slug, document_id, body)


@router.delete(
    "/{slug}/documents/{document_id}",
    response_model=DocumentDeleted,
    dependencies=[NoQueryString, NoLookOnly],
)
def delete_document(
    slug: SlugPath, document_id: DocumentIdPath, tenant: TenantDep, service: DocumentsDep
) -> DocumentDeleted:
    """Delete a document and its chunks."""
    return service.delete_document(tenant, slug, document_id)
