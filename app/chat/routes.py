"""`POST /v1/chat/completions`. Validate, authorise, hand over."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse, StreamingResponse

from app.chat.schemas import ChatCompletion
from app.chat.service import ChatIn, ChatService, parse_chat, stream_events
from app.chat.upstream import ChatClient, configured_client
from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.facts.service import ExtractionService
from app.knowledge.indexes import knowledge_indexes
from app.knowledge.routes import RetrievalDep
from app.raw_bodies import documented_by
from app.settings import get_settings

router = APIRouter(route_class=UnitOfWorkRoute, tags=["chat"])


def get_chat_client() -> ChatClient | None:
    """The upstream chat endpoint, or None for the embedded answerer (tests override this)."""
    return configured_client()


ChatClientDep = Annotated[ChatClient | None, Depends(get_chat_client)]


def _chat(uow: UowDep, retrieval: RetrievalDep, upstream: ChatClientDep) -> ChatService:
    turns = ExtractionService(uow.session, uow.jobs, get_settings(), knowledge_indexes())
    return ChatService(retrieval, turns, upstream)


ChatDep = Annotated[ChatService, Depends(_chat)]

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


@router.post(
    "/v1/chat/completions",
    response_model=ChatCompletion,
    openapi_extra=documented_by(ChatIn),
)
def chat_completions(
    tenant: TenantDep,
    chat_service: ChatDep,
    body: Annotated[Any, Body(openapi_examples=CHAT_EXAMPLES)],
) -> JSONResponse | StreamingResponse:
    """OpenAI-compatible chat completions, plus `user`, `collection`, `thread` and
    `member_count`; every response carries `sources`."""
    chat = parse_chat(body)
    response = chat_service.complete(tenant, chat)
    if chat.stream:
        return StreamingResponse(stream_events(response), media_type="text/event-stream")
    # As it came from the model, with Dossier's fields: `ChatCompletion` documents it, and an
    # upstream's answer is not reshaped by validating it again (app.chat.schemas).
    return JSONResponse(response)
