"""Request and response bodies of the facts routes."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
)

from app.documents.schemas import Slug
from app.isotime import IsoDatetime
from app.memory.schemas import Body, Usage

UserId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9_.@:+-]{1,128}$",
        description="the end-user's id in your app: letters, digits and _ . @ : + -, 1-128",
        examples=["user-4821"],
    ),
]


class FactOut(BaseModel):
    id: int
    user: str
    kind: Literal["fact", "event"]
    text: str
    slot: str | None
    value: str | None
    status: Literal["active", "upcoming", "retired"]
    valid_from: date | None
    valid_until: date | None
    happened_on: date | None
    said_on: date | None
    retired_on: date | None
    source: str
    created_at: datetime
    updated_at: datetime


class FactsPage(BaseModel):
    user: str
    data: list[FactOut]
    next_cursor: str | None


class TenantFactsPage(BaseModel):
    """Facts of every end-user of the tenant; each names its end-user in `user`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "id": 311,
                            "user": "user-17",
                            "kind": "fact",
                            "text": "Lives in Lisbon",
                            "slot": "home",
                            "value": "Lisbon",
                            "status": "active",
                            "valid_from": None,
                            "valid_until": None,
                            "happened_on": None,
                            "said_on": "2026-11-29",
                            "retired_on": None,
                            "source": "extracted",
                            "created_at": "2026-11-29T14:00:00Z",
                            "updated_at": "2026-11-29T14:00:00Z",
                        }
                    ],
                    "next_cursor": "311",
                }
            ]
        }
    )
    data: list[FactOut]
    next_cursor: str | None


class FactIn(Body):
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
    kind: Literal["fact", "event"] = "fact"
    slot: Annotated[str, StringConstraints(max_length=120)] | None = None
    value: str | None = None
    valid_from: date | None = None
    valid_until: date | None = None
    happened_on: date | None = None


class FactsIn(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "facts": [
                        {"text": "Lives in Lisbon", "slot": "home", "value": "Lisbon"},
                        {"text": "Prefers vegan food", "slot": "diet", "value": "vegan"},
                        {
                            "text": "Renewed the enterprise plan",
                            "kind": "event",
                            "happened_on": "2026-11-02",
                        },
                    ]
                }
            ]
        },
    )
    facts: list[FactIn] = Field(min_length=1, max_length=1000)


class FactsAdded(BaseModel):
    user: str
    ids: list[int]
    updated: list[int]
    retired: list[int]
    duplicates: int
    usage: Usage


class FactDeleted(BaseModel):
    user: str
    deleted: int
    usage: Usage


class PromoteIn(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"collections": ["support-docs"]}]}
    )
    collections: list[Slug] = Field(min_length=1, max_length=50)


class PromotedDocument(BaseModel):
    collection: str
    id: int
    status: str


class PromoteOut(BaseModel):
    fact_id: int
    documents: list[PromotedDocument]


class GraphNode(BaseModel):
    id: str
    type: str
    label: str


class GraphEdge(BaseModel):
    source: str
    target: str
    relation: str
    fact_id: int
    status: str
    valid_from: date | None = None
    valid_until: date | None = None
    happened_on: date | None = None
    retired_on: date | None = None


class GraphOut(BaseModel):
    user: str
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class PastTurnIn(Body):
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20_000)]
    said_at: AwareDatetime = Field(
        description="when the user said it, with its time zone (relative days resolve against it)"
    )
    thread: Annotated[str, StringConstraints(max_length=200)] = ""


class HistoryIn(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "turns": [
                        {
                            "text": "I moved to Lisbon yesterday.",
                            "said_at": "2025-03-03T09:12:00+00:00",
                            "thread": "onboarding",
                        },
                        {
                            "text": "I'm on leave until 1 October.",
                            "said_at": "2025-09-10T16:40:00+02:00",
                        },
                    ]
                }
            ]
        },
    )
    turns: list[PastTurnIn] = Field(min_length=1, max_length=5_000)


class ImportBatches(BaseModel):
    """An import's batches by status."""

    pending: int
    done: int
    failed: int
    skipped: int


class HistoryImportOut(BaseModel):
    """A history import's status and progress."""

    id: str
    object: Literal["history_import"] = "history_import"
    user: str
    status: Literal["queued", "running", "done", "failed"]
    error: str | None
    turns: int
    batches: ImportBatches
    turns_done: int
    facts: int
    events: int
    created_at: IsoDatetime
    finished_at: IsoDatetime | None
