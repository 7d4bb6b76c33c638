"""Answers of the decision routes that are Dossier's own: a decision (System One's answer plus
Dossier's blocks) and a pass job. `GET /v1/models` answers System One's `ModelMetadataList`
(`app.engines.wire`).

The memory, quality and pass blocks are documented as objects, not modelled field by field: they
are built in `app.decisions.passes`/`quality` and vary with the options asked for, and a model
missing one of their keys would drop it from the answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.engines.wire import Answer


class DecisionUsage(BaseModel):
    input_tokens: int
    output_tokens: int
    cost: float
    billed: bool


class Reading(BaseModel):
    turns_dropped: int = Field(description="the state's oldest array elements placement left out")


class LearningQueued(BaseModel):
    """The gate runs after the answer; poll `GET /v1/learning/{request_id}`."""

    request_id: str
    status: Literal["queued"]


class DecisionOut(BaseModel):
    """System One's response (`model`, `answers`, `usage`) plus Dossier's blocks. `learning`
    is there only when `memory.learn` asked for it (the route answers with
    `response_model_exclude_unset`, so it stays out otherwise)."""

    model: str
    answers: dict[str, Answer]
    usage: DecisionUsage
    memory: dict[str, Any] | None = Field(
        description="the lines and rules sent, and the compare/explain/placebo blocks or "
        "`passes_job`; null without a subject or with `memory.use: false`"
    )
    quality: dict[str, Any] = Field(description="level, temperature, tiers, the first answers")
    warnings: list[str]
    reading: Reading
    learning: LearningQueued | None = None


class PassJobOut(BaseModel):
    """A pass job; the four blocks are null until it is done (and stay null if not asked)."""

    id: str
    status: Literal["queued", "running", "done", "failed"]
    created_at: str = Field(description="ISO 8601")
    finished_at: str | None
    error: str | None
    without_memory: dict[str, Any] | None
    changes: dict[str, Any] | None
    explain: list[dict[str, Any]] | None
    placebo: dict[str, Any] | None
