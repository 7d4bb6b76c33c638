"""Request and response bodies of the collections and documents routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
)

from app.memory.schemas import Body

Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class CollectionIn(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Support docs"}]}
    )
    name: Name


class CollectionOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "slug": "support-docs",
                    "name": "Support docs",
                    "documents": 12,
                    "created_at": "2026-11-29T14:00:00Z",
                }
            ]
        }
    )
    slug: str
    name: str
    documents: int = 0
    created_at: datetime


class CollectionsOut(BaseModel):
    data: list[CollectionOut]


class DocumentTextIn(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "title": "Refund policy",
                    "text": "Refunds for annual plans are prorated to the day.",
                    "source": "https://help.acme.example/refunds",
                }
            ]
        },
    )
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]
    text: str = Field(min_length=1)
    source: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)] | None = None


class DocumentPatch(Body):
    title: (
        Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]
        | None
    ) = None
    source: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)] | None = None
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"title": "Refund policy (2026)"}]},
    )


class DocumentOut(BaseModel):
    id: int
    collection: str
    title: str
    source: str | None
    filename: str | None
    media_type: str
    status: Literal["processing", "ready", "failed"]
    error: str | None
    size_bytes: int
    tokens: int
    created_at: datetime
    finished_at: datetime | None


class DocumentsOut(BaseModel):
    data: list[DocumentOut]
    next_cursor: str | None = None


class CollectionDeletedCounts(BaseModel):
    documents: int


class CollectionDeleted(BaseModel):
    slug: str
    deleted: CollectionDeletedCounts


class DocumentsAdded(BaseModel):
    """Several documents added in one request (one answers as the document itself)."""

    data: list[DocumentOut]


class DocumentDeleted(BaseModel):
    id: int
    deleted: Literal[True]
