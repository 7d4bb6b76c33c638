"""Request and response bodies of the knowledge-wide routes: the switch, blended search,
and an end-user's GDPR erasure."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
)

from app.documents.schemas import Slug
from app.facts.schemas import UserId
from app.memory.schemas import Body, Usage


class SettingsIn(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"enabled": True}, {"enabled": False, "on_disable": "keep"}]
        },
    )
    enabled: StrictBool
    on_disable: Literal["keep", "delete"] | None = Field(
        default=None,
        description="needed to turn knowledge off while facts or collections exist",
    )


class RetrievalOut(BaseModel):
    """How retrieval runs here (set by the operator, the same for every tenant): how many
    facts and passages a chat gets, and whether search reads meaning as well as words."""

    top_k: int
    embeddings: Literal["static", "encoder", "off"]


class SettingsOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"enabled": True, "retrieval": {"top_k": 8, "embeddings": "static"}}]
        }
    )
    enabled: bool
    deleted: dict[str, int] | None = None
    retrieval: RetrievalOut | None = None
    """In the GET's answer only."""


class UserErased(BaseModel):
    user: str
    deleted: dict[str, int]
    usage: Usage


class SearchIn(Body):
    query: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=8000)]
    user: UserId | None = None
    collection: Slug | list[Slug] | None = None
    top_k: StrictInt = Field(default=8, ge=1, le=20)
    semantic: StrictBool = Field(
        default=True, description="meaning as well as words; false: words alone"
    )


class SearchOut(BaseModel):
    data: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    searched: bool
    usage: Usage | None = None
