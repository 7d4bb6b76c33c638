"""`POST /v1/chat/completions`: OpenAI-compatible, plus `user`, `collection`, `thread` and
`member_count`.

With knowledge on, the request's last user message is searched over the user's facts and the
workspace's collections (or only the named collections plus the user's facts), the hits go in
as a system message before the conversation, and the response carries `sources`. A shared
conversation (`member_count > 0`) reads and stores nothing personal and carries `DISCLOSURE`.
After the answer, the user's new turns wait in their thread's batch for extraction.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
)

from app.chat import answerer
from app.chat.upstream import ChatClient, content_of
from app.documents.schemas import Slug
from app.engines.base import count_word_tokens
from app.errors import Invalid
from app.facts.schemas import UserId
from app.facts.service import ExtractionService
from app.knowledge.retrieval import TOP_K, Retrieved
from app.knowledge.service import RetrievalService
from app.ledger.service import free_call
from app.tenants.service import CurrentTenant
from app.validation import parse_body

DISCLOSURE = (
    "Shared threads carry no personal memory. What you have taught Dossier about yourself "
    "stays out of conversations other people can read."
)
"""The one wording of the shared-conversation disclosure, used verbatim wherever it appears."""

CHAT_ROUTE = "chat.completions"
"""The ledger route of a chat call under a thread that searched nothing (free, unbilled)."""

OPENAI_FIELDS = (
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "top_logprobs",
    "max_tokens",
    "max_completion_tokens",
    "n",
    "presence_penalty",
    "response_format",
    "seed",
    "stop",
    "stream_options",
    "temperature",
    "top_p",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "metadata",
    "store",
    "reasoning_effort",
    "service_tier",
    "modalities",
    "prediction",
    "audio",
    "safety_identifier",
    "prompt_cache_key",
    "verbosity",
    "web_search_options",
    "functions",
    "function_call",
)
"""OpenAI's own fields: accepted and passed to the upstream model as they are."""


class Message(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: str | list[Any] | None = None
    said_at: AwareDatetime | None = None
    """Dossier's own, optional: when the user said it (an imported or delayed conversation);
    relative days in it resolve against this. Default: when the call arrives."""


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1, max_length=200)
    messages: list[Message] = Field(min_length=1)
    stream: StrictBool = False
    user: UserId | None = None
    collection: Slug | list[Slug] | None = None
    thread: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None
    member_count: StrictInt = Field(default=0, ge=0)


def parse_chat(body: Any) -> ChatIn:
    if isinstance(body, dict):
        if "rag" in body:
            raise Invalid(
                "'rag' is not accepted: name the collections to read with 'collection' (a slug "
                "or a list of slugs); nothing was answered",
                field="rag",
                code="rag_renamed",
            )
        for name in body:
            if name not in ChatIn.model_fields and name not in OPENAI_FIELDS:
                raise Invalid(f"unknown field '{name}'", field=name, code="unknown_field")
    chat = parse_body(ChatIn, body)
    if isinstance(chat.collection, list) and not chat.collection:
        raise Invalid("collection: name at least one collection", field="collection")
    latest = datetime.now(UTC) + timedelta(days=1)
    for number, message in enumerate(chat.messages):
        if message.said_at is not None and message.said_at > latest:
            raise Invalid(
                f"messages.{number}.said_at: {message.said_at.isoformat()} is in the future",
                field=f"messages.{number}.said_at",
            )
    return chat


@dataclass
class ChatService:
    """One chat completion: retrieval before the answer (`knowledge`), the answer (the
    upstream model, or the embedded answerer when there is none), and the user's new turns
    queued for extraction after it (`turns`)."""

    knowledge: RetrievalService
    turns: ExtractionService
    upstream: ChatClient | None

    def complete(self, tenant: CurrentTenant, chat: ChatIn) -> dict[str, Any]:
        """The answer, with `sources`, `knowledge` and (shared) `disclosure` added."""
        slugs = [chat.collection] if isinstance(chat.collection, str) else chat.collection
        collections = (
            self.knowledge.resolve_collections(tenant, slugs) if slugs is not None else None
        )
        enabled = self.knowledge.enabled(tenant)
        shared = chat.member_count > 0
        query = _last_user_text(chat.messages)
        retrieved = Retrieved(user=chat.user)
        line = None
        if enabled and query:
            retrieved, line = self.knowledge.retrieve(
                tenant,
                query=query,
                user_name=chat.user,
                collections=collections,
                personal=not shared,
                top_k=TOP_K,
                route="knowledge.retrieval",
                thread=chat.thread,
            )
        response = self._answer(chat, retrieved, query)
        if chat.thread is not None and line is None:
            # The call searched nothing, so no line was charged: a free one carries the thread
            # (its id only; the conversation itself is never kept).
            free_call(self.knowledge.session, tenant, route=CHAT_ROUTE, thread=chat.thread)
        if enabled and chat.user and not shared:
            self.turns.record_turns(tenant, chat.user, chat.thread or "", _new_turns(chat))
        response["sources"] = retrieved.sources()
        response["knowledge"] = {
            "enabled": enabled,
            "searched": retrieved.searched,
            "personal": bool(enabled and chat.user and not shared),
            "facts": len(retrieved.fact_ids),
            "passages": len(retrieved.chunk_ids),
        }
        if chat.thread is not None:
            response["thread"] = chat.thread
        if shared:
            response["disclosure"] = DISCLOSURE
        return response

    def _answer(self, chat: ChatIn, retrieved: Retrieved, query: str) -> dict[str, Any]:
        messages = [m.model_dump(exclude_none=True) for m in chat.messages]
        if retrieved.hits:
            messages = _with_context(messages, retrieved)
        if self.upstream is None:
            text = answerer.answer(query, retrieved.hits)
            prompt = sum(count_word_tokens(_text(m.get("content"))) for m in messages)
            return _completion(answerer.MODEL, text, prompt)
        body = {k: v for k, v in chat.model_dump(exclude_none=True).items() if k in OPENAI_FIELDS}
        body.pop("stream_options", None)
        body.update(model=self.knowledge.settings.chat_model or chat.model, messages=messages)
        body["stream"] = False
        if chat.user and chat.member_count == 0:
            body["user"] = chat.user
        data = self.upstream.complete(body)
        content_of(data)
        return data


def stream_events(response: dict[str, Any]) -> Iterator[bytes]:
    """A finished answer as OpenAI's server-sent chunks; the first carries the extra fields."""
    extra: dict[str, Any] = {
        k: response[k] for k in ("sources", "knowledge", "thread", "disclosure") if k in response
    }

    base = {
        "id": response.get("id", _completion_id()),
        "object": "chat.completion.chunk",
        "created": response.get("created", int(time.time())),
        "model": response.get("model", ""),
    }
    text = content_of(response)

    def chunk(delta: dict[str, Any], finish: str | None, more: dict[str, Any]) -> bytes:
        payload = {
            **base,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            **more,
        }
        return f"data: {json.dumps(payload, ensure_ascii=False, default=str)}\n\n".encode()

    yield chunk({"role": "assistant", "content": ""}, None, extra)
    yield chunk({"content": text}, None, {})
    yield chunk({}, "stop", {})
    yield b"data: [DONE]\n\n"


def _with_context(messages: list[dict[str, Any]], retrieved: Retrieved) -> list[dict[str, Any]]:
    lines = ["Dossier retrieved this knowledge for the request; use what is relevant."]
    facts = [h for h in retrieved.hits if h.type == "fact"]
    passages = [h for h in retrieved.hits if h.type == "passage"]
    if facts:
        lines.append("\nWhat is known about the user:")
        lines.extend(f"- {h.text}" for h in facts)
    if passages:
        lines.append("\nPassages from the workspace's documents:")
        lines.extend(
            f"[{n}] {h.title} ({h.collection}): {h.text}" for n, h in enumerate(passages, 1)
        )
    context = {"role": "system", "content": "\n".join(lines)}
    first = next(
        (n for n, m in enumerate(messages) if m.get("role") not in ("system", "developer")),
        len(messages),
    )
    return [*messages[:first], context, *messages[first:]]


def _completion(model: str, text: str, prompt_tokens: int) -> dict[str, Any]:
    completion = count_word_tokens(text)
    return {
        "id": _completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion,
            "total_tokens": prompt_tokens + completion,
        },
    }


def _completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex}"


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") in ("text", "input_text")
        )
    return ""


def _last_user_text(messages: list[Message]) -> str:
    for message in reversed(messages):
        if message.role == "user":
            return _text(message.content).strip()
    return ""


def _new_turns(chat: ChatIn) -> list[tuple[str, datetime | None]]:
    """The user's messages after the last assistant message, with when they were said if the
    client says: what this call adds (earlier turns were in earlier calls and are queued)."""
    turns: list[tuple[str, datetime | None]] = []
    for message in reversed(chat.messages):
        if message.role == "assistant":
            break
        if message.role == "user":
            turns.append((_text(message.content), message.said_at))
    return list(reversed(turns))
