"""HTTP routes of end-user knowledge: the switch, search, end-users' facts and GDPR paths,
collections and documents, and chat completions. Validate, authorise, hand over."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse

from app.deps import (
    Idempotent,
    NoLookOnly,
    NoQueryString,
    TenantDep,
    UnitOfWorkRoute,
    UowDep,
    run_and_commit,
)
from app.errors import Invalid
from app.knowledge.chat import ChatIn, ChatService, parse_chat, stream_events
from app.knowledge.documents import CollectionService, Upload
from app.knowledge.indexes import knowledge_indexes
from app.knowledge.schemas import (
    CollectionIn,
    CollectionOut,
    CollectionsOut,
    DocumentOut,
    DocumentPatch,
    DocumentsOut,
    DocumentTextIn,
    FactDeleted,
    FactsAdded,
    FactsIn,
    FactsPage,
    GraphOut,
    HistoryIn,
    PromoteIn,
    PromoteOut,
    SearchIn,
    SearchOut,
    SettingsIn,
    SettingsOut,
    TenantFactsPage,
    UserErased,
)
from app.knowledge.service import KnowledgeService
from app.knowledge.upstream import ChatClient, configured_client
from app.memory.schemas import parse_body
from app.pagination import CursorQuery
from app.raw_bodies import documented_by
from app.settings import get_settings
from app.tenants.service import CurrentTenant

router = APIRouter(route_class=UnitOfWorkRoute)
knowledge_router = APIRouter(route_class=UnitOfWorkRoute, tags=["knowledge"])
collections_router = APIRouter(
    route_class=UnitOfWorkRoute, prefix="/v1/collections", tags=["collections"]
)
chat_router = APIRouter(route_class=UnitOfWorkRoute, tags=["chat"])

UserPath = Annotated[
    str,
    Path(pattern=r"^[A-Za-z0-9_.@:+-]{1,128}$", description="end-user id", examples=["user-17"]),
]
SlugPath = Annotated[
    str, Path(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64, examples=["support-docs"])
]
FactIdPath = Annotated[int, Path(examples=[311])]
DocumentIdPath = Annotated[int, Path(examples=[27])]
Limit = Annotated[int, Query(ge=1, le=500)]


def _knowledge(uow: UowDep) -> KnowledgeService:
    return KnowledgeService(uow.session, uow.jobs, get_settings(), knowledge_indexes())


def _collections(uow: UowDep) -> CollectionService:
    return CollectionService(uow.session, uow.jobs, get_settings(), knowledge_indexes())


def get_chat_client() -> ChatClient | None:
    """The upstream chat endpoint, or None for the embedded answerer (tests override this)."""
    return configured_client()


KnowledgeDep = Annotated[KnowledgeService, Depends(_knowledge)]
CollectionsDep = Annotated[CollectionService, Depends(_collections)]
ChatClientDep = Annotated[ChatClient | None, Depends(get_chat_client)]


# The switch and search


@knowledge_router.get(
    "/v1/knowledge/settings", response_model=SettingsOut, response_model_exclude_none=True
)
def read_settings(tenant: TenantDep, service: KnowledgeDep) -> SettingsOut:
    """Whether knowledge is on for this tenant."""
    return service.read_settings(tenant)


@knowledge_router.put(
    "/v1/knowledge/settings", response_model=SettingsOut, response_model_exclude_none=True
)
def put_settings(body: SettingsIn, tenant: TenantDep, service: KnowledgeDep) -> SettingsOut:
    """Turn knowledge on or off; off with stored data needs `on_disable` keep or delete."""
    if body.enabled:  # turning it off (and deleting what it holds) is a delete: always allowed
        tenant.ensure_active("the knowledge switch")
    return service.put_settings(tenant, body)


@knowledge_router.post(
    "/v1/knowledge/search", response_model=SearchOut, response_model_exclude_none=True
)
def search(body: SearchIn, tenant: TenantDep, service: KnowledgeDep) -> SearchOut:
    """Ranked facts and passages for a query, with their sources."""
    return service.search(tenant, body)


# End-users


@knowledge_router.get("/v1/users/{user}/facts", response_model=FactsPage)
def list_facts(
    user: UserPath,
    tenant: TenantDep,
    service: KnowledgeDep,
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


@knowledge_router.get("/v1/facts", response_model=TenantFactsPage)
def list_tenant_facts(
    tenant: TenantDep,
    service: KnowledgeDep,
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


@knowledge_router.post(
    "/v1/users/{user}/history",
    status_code=202,
    responses={202: {"content": {"application/json": {"example": IMPORT_EXAMPLE}}}},
)
def import_history(
    user: UserPath, body: HistoryIn, tenant: TenantDep, service: KnowledgeDep
) -> dict[str, Any]:
    """Import the user's past conversations (up to 5,000 turns a call), each turn with when it
    was said: extracted oldest first by a job on the extraction queue, relative days read
    against each turn's own date, billed per turn like live ones. Poll the import for its
    progress."""
    return service.import_history(tenant, user, body)


@knowledge_router.get(
    "/v1/users/{user}/history/{import_id}",
    responses={200: {"content": {"application/json": {"example": IMPORT_EXAMPLE}}}},
)
def history_import(
    user: UserPath,
    import_id: Annotated[str, Path(pattern=r"^imp_[0-9a-f]{32}$", examples=[IMPORT_EXAMPLE["id"]])],
    tenant: TenantDep,
    service: KnowledgeDep,
) -> dict[str, Any]:
    """A history import's status (queued, running, done, failed) and progress: batches by
    status, turns done, and the facts and events it added."""
    return service.history_import(tenant, user, import_id)


@knowledge_router.post(
    "/v1/users/{user}/facts", response_model=FactsAdded, dependencies=[Idempotent]
)
def add_facts(
    user: UserPath, body: FactsIn, tenant: TenantDep, service: KnowledgeDep
) -> FactsAdded:
    """Facts you already know about the user, reconciled like learned ones."""
    return service.import_facts(tenant, user, body)


@knowledge_router.delete(
    "/v1/users/{user}/facts/{fact_id}",
    response_model=FactDeleted,
    dependencies=[NoQueryString, NoLookOnly],
)
def delete_fact(
    user: UserPath, fact_id: FactIdPath, tenant: TenantDep, service: KnowledgeDep
) -> FactDeleted:
    """Forget one fact: deleted outright, from retrieval, the graph and every export."""
    return service.delete_fact(tenant, user, fact_id)


@knowledge_router.post("/v1/users/{user}/facts/{fact_id}/promote", response_model=PromoteOut)
def promote(
    user: UserPath, fact_id: FactIdPath, body: PromoteIn, tenant: TenantDep, service: KnowledgeDep
) -> PromoteOut:
    """Move a fact into collections (a document in each); it leaves personal memory."""
    return service.promote(tenant, user, fact_id, body.collections)


@knowledge_router.get("/v1/users/{user}/graph", response_model=GraphOut)
def graph(user: UserPath, tenant: TenantDep, service: KnowledgeDep) -> GraphOut:
    """Entities and relationships of the user's facts, retired ones included."""
    return service.graph(tenant, user)


@knowledge_router.get("/v1/users/{user}/export", response_model=FactsPage)
def export(
    user: UserPath,
    tenant: TenantDep,
    service: KnowledgeDep,
    cursor: CursorQuery = None,
    limit: Limit = 500,
) -> FactsPage:
    """Everything held about the user: their facts, active and retired (GDPR Article 15)."""
    return service.export(tenant, user, cursor, limit)


@knowledge_router.delete(
    "/v1/users/{user}", response_model=UserErased, dependencies=[NoQueryString, NoLookOnly]
)
def erase_user(user: UserPath, tenant: TenantDep, service: KnowledgeDep) -> UserErased:
    """Erase the user's facts at once and for good (GDPR Article 17)."""
    return service.erase_user(tenant, user)


# Collections and documents


@collections_router.post("", response_model=CollectionOut, status_code=201)
def create_collection(
    body: CollectionIn, tenant: TenantDep, service: CollectionsDep
) -> CollectionOut:
    """A collection; its slug comes from the name and never changes."""
    return service.create(tenant, body)


@collections_router.get("", response_model=CollectionsOut)
def list_collections(tenant: TenantDep, service: CollectionsDep) -> CollectionsOut:
    """The tenant's collections with their document counts."""
    return service.all(tenant)


@collections_router.patch("/{slug}", response_model=CollectionOut)
def rename_collection(
    slug: SlugPath, body: CollectionIn, tenant: TenantDep, service: CollectionsDep
) -> CollectionOut:
    """Rename: only the display name changes."""
    return service.rename(tenant, slug, body)


@collections_router.delete("/{slug}", dependencies=[NoQueryString, NoLookOnly])
def delete_collection(slug: SlugPath, tenant: TenantDep, service: CollectionsDep) -> dict[str, Any]:
    """Delete a collection with its documents and their chunks."""
    return service.delete(tenant, slug)


@collections_router.post("/{slug}/documents", status_code=202, dependencies=[Idempotent])
async def add_documents(
    slug: SlugPath, request: Request, tenant: TenantDep, service: CollectionsDep
) -> dict[str, Any]:
    """Pasted text (JSON `{"title", "text", "source"?}`) or a multipart upload of PDF, .txt
    and .md files (field `files`, several allowed, with optional `title`/`text`/`source` for
    pasted text beside them). One document answers `{"id", "status", …}`; several, `{"data"}`."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        pasted, files = await _read_form(request)
        return await run_and_commit(_add_uploaded, service, tenant, slug, pasted, files)
    return await run_and_commit(_add_pasted, service, tenant, slug, await request.body())


def _added(created: list[DocumentOut]) -> dict[str, Any]:
    if len(created) == 1:
        return created[0].model_dump(mode="json")
    return {"data": [doc.model_dump(mode="json") for doc in created]}


def _add_uploaded(
    service: CollectionService,
    tenant: CurrentTenant,
    slug: str,
    pasted: DocumentTextIn | None,
    files: list[Upload],
) -> dict[str, Any]:
    return _added(service.add(tenant, slug, pasted=pasted, files=files))


def _add_pasted(
    service: CollectionService, tenant: CurrentTenant, slug: str, raw: bytes
) -> dict[str, Any]:
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


@collections_router.get("/{slug}/documents", response_model=DocumentsOut)
def list_documents(
    slug: SlugPath,
    tenant: TenantDep,
    service: CollectionsDep,
    cursor: CursorQuery = None,
    limit: Limit = 100,
) -> DocumentsOut:
    """The collection's documents, newest first, with their status."""
    return service.documents(tenant, slug, cursor, limit)


@collections_router.get("/{slug}/documents/{document_id}", response_model=DocumentOut)
def get_document(
    slug: SlugPath, document_id: DocumentIdPath, tenant: TenantDep, service: CollectionsDep
) -> DocumentOut:
    """A document's status: processing, ready, or failed with the reason."""
    return service.get(tenant, slug, document_id)


@collections_router.patch("/{slug}/documents/{document_id}", response_model=DocumentOut)
def patch_document(
    slug: SlugPath,
    document_id: DocumentIdPath,
    body: DocumentPatch,
    tenant: TenantDep,
    service: CollectionsDep,
) -> DocumentOut:
    """Rename a document or change its source label (it cannot move to another collection)."""
    return service.patch(tenant, slug, document_id, body)


@collections_router.delete(
    "/{slug}/documents/{document_id}", dependencies=[NoQueryString, NoLookOnly]
)
def delete_document(
    slug: SlugPath, document_id: DocumentIdPath, tenant: TenantDep, service: CollectionsDep
) -> dict[str, Any]:
    """Delete a document and its chunks."""
    return service.delete_document(tenant, slug, document_id)


# Chat completions

CHAT_EXAMPLES: dict[str, Any] = {
    "personal": {
        "summary": "an end-user's question, with their facts and a collection",
        "value": {
            "model": "dossier",
            "messages": [{"role": "user", "content": "Where do I live?"}],
            "user": "user-17",
            "collection": "support-docs",
            "thread": "t-17",
        },
    },
    "shared": {
        "summary": "a shared conversation: collections only, no personal facts",
        "value": {
            "model": "dossier",
            "messages": [{"role": "user", "content": "How are annual plans refunded?"}],
            "collection": ["support-docs"],
            "member_count": 3,
        },
    },
}


@chat_router.post("/v1/chat/completions", response_model=None, openapi_extra=documented_by(ChatIn))
def chat_completions(
    tenant: TenantDep,
    knowledge: KnowledgeDep,
    upstream: ChatClientDep,
    body: Annotated[Any, Body(openapi_examples=CHAT_EXAMPLES)],
) -> dict[str, Any] | StreamingResponse:
    """OpenAI-compatible chat completions, plus `user`, `collection`, `thread` and
    `member_count`; every response carries `sources`."""
    chat = parse_chat(body)
    response = ChatService(knowledge, upstream).complete(tenant, chat)
    if chat.stream:
        return StreamingResponse(stream_events(response), media_type="text/event-stream")
    return response


router.include_router(knowledge_router)
router.include_router(collections_router)
router.include_router(chat_router)
