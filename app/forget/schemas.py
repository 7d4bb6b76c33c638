from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.memory.schemas import SubjectId, Usage


class ForgetIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"subject": "acme", "concept": "Ann Lindqvist", "preview": True}]
        },
    )

    subject: SubjectId
    concept: str = Field(min_length=1, max_length=2_000)
    preview: StrictBool = Field(
        default=False, description="true: say what would go, remove nothing"
    )


class RuleRef(BaseModel):
    id: int
    text: str


class LinesAndRules(BaseModel):
    lines: list[str]
    rules: list[RuleRef]


class ForgetOut(BaseModel):
    subject: str
    preview: bool
    removed_lines: list[str]
    removed_rules: list[RuleRef]
    related: LinesAndRules
    matched_unsure: LinesAndRules
    verified_forgotten: bool | None = None
    leaks: list[str] | None = None
    usage: Usage | None = None
