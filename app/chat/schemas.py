"""The documented answer of `POST /v1/chat/completions`.

The request body (`ChatIn`) is parsed by the route itself (`app.chat.service.parse_chat`, which
names unknown fields its own way). The answer is an upstream model's answer relayed as it came,
with Dossier's fields added, so these models describe it for the OpenAPI document and clients;
the route does not re-validate the upstream's JSON through them (that would reshape an
upstream's answer), it sends it as it is.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class ChatMessageOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: Literal["assistant"]
    content: str


class ChatChoice(BaseModel):
    model_config = ConfigDict(extra="allow")
    index: int
    message: ChatMessageOut
    finish_reason: str | None


class ChatUsage(BaseModel):
    model_config = ConfigDict(extra="allow")
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class KnowledgeUsed(BaseModel):
    """What knowledge did for the call."""

    enabled: bool
    searched: bool
    personal: bool
    """Whether the user's own facts were read and their turns kept (never in a shared thread)."""
    facts: int
    passages: int


class ChatCompletion(BaseModel):
    """OpenAI's chat completion (an upstream model's, with its own fields kept), plus
    `sources`, `knowledge`, and `thread` and `disclosure` when they apply."""

    model_config = ConfigDict(extra="allow")
    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[ChatChoice]
    usage: ChatUsage | None = None
    sources: list[dict[str, Any]]
    knowledge: KnowledgeUsed
    thread: str | None = None
    disclosure: str | None = None
    """In a shared conversation (`member_count` > 0): why no personal memory was used."""
