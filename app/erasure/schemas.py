"""Request and answer bodies of the admin erasure routes."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from app.account.schemas import TENANT_ID
from app.isotime import IsoDatetime

Ids = list[str]


class ErasureIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"tenant_id": TENANT_ID, "users": ["user-17", "user-42"]},
                {"tenant_id": TENANT_ID, "untouched_since": "2025-11-29"},
            ]
        },
    )
    tenant_id: uuid.UUID
    users: Ids | None = Field(None, min_length=1, max_length=10_000)
    subjects: Ids | None = Field(None, min_length=1, max_length=100_000)
    untouched_since: date | None = None

    @model_validator(mode="after")
    def _one_scope(self) -> ErasureIn:
        given = [
            f for f in ("users", "subjects", "untouched_since") if getattr(self, f) is not None
        ]
        if len(given) > 1:
            raise ValueError(f"give one of users, subjects or untouched_since, not {given}")
        return self


class RetentionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"days": 365}]})
    days: StrictInt | None = Field(
        description="erase what is untouched this long; null: never", ge=1
    )


class ErasureCreated(BaseModel):
    id: str
    status: str
    kind: str = Field(description="tenant, users, subjects or untouched")


class ErasureOut(BaseModel):
    """A job: its scope as asked (end-user ids hashed once it ends), progress and proof."""

    id: str
    tenant_id: str
    kind: str
    scope: dict[str, Any]
    status: str
    progress: dict[str, Any] | None
    proof: dict[str, Any] | None
    error: str | None
    created_at: IsoDatetime
    started_at: IsoDatetime | None
    finished_at: IsoDatetime | None


class RetentionOut(BaseModel):
    tenant_id: str
    days: int | None = Field(description="null: never")
