"""Request and response bodies of the memory routes, with the seed's field names."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
)

SubjectId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9_-]{1,36}$",
        description="letters, digits, underscore and hyphen, 1–36 characters",
        examples=["acme"],
    ),
]
AliasText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class Body(BaseModel):
    """Every request body refuses fields it does not know, naming them."""

    model_config = ConfigDict(extra="forbid")


class RememberIn(Body):
    subject: SubjectId
    text: str = Field(description="one line per line of text; blank lines are skipped")

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"subject": "acme", "text": "ACME Logistics holds an enterprise contract."}
            ]
        },
    )


class LineWarning(BaseModel):
    code: Literal["memory_negative_rule", "memory_number_rule"]
    line: str
    message: str


class Usage(BaseModel):
    cost: float
    billed: bool


class RememberOut(BaseModel):
    subject: str
    stored: list[str]
    line_count: int
    warnings: list[LineWarning]
    usage: Usage


class Exclude(Body):
    question: str | None = Field(default=None, description="question name; null: every question")
    options: list[Annotated[str, StringConstraints(min_length=1)]] = Field(min_length=1)


class When(Body):
    path: str = Field(min_length=1, max_length=200, description="dotted path into the state")
    op: Literal[">", ">=", "<", "<=", "==", "!="]
    value: StrictFloat


class RuleIn(Body):
    subject: SubjectId
    text: str = Field(min_length=1)
    pin: StrictBool = False
    exclude: Exclude | None = None
    when: When | None = None


class RuleOut(BaseModel):
    id: int
    text: str
    pin: bool
    exclude: dict[str, Any] | None = None
    when: dict[str, Any] | None = None


class RuleCreated(BaseModel):
    subject: str
    rule: RuleOut
    usage: Usage


class RulesDeleteIn(Body):
    subject: SubjectId
    ids: list[StrictInt] = Field(min_length=1, max_length=1000)


class RulesDeleted(BaseModel):
    subject: str
    deleted: list[int]
    usage: Usage


class AliasesIn(Body):
    subject: SubjectId
    aliases: list[AliasText] = Field(min_length=1, max_length=100)


class AliasesOut(BaseModel):
    subject: str
    aliases: list[str]
    usage: Usage


class SubjectIn(Body):
    subject: SubjectId


class RetiredLine(BaseModel):
    text: str
    retired: bool = True
    retired_at: datetime
    learned_request_id: str | None


class MemoryOut(BaseModel):
    subject: str
    line_count: int
    rule_count: int
    alias_count: int
    lines: list[str] | None = None
    retired_lines: list[RetiredLine] | None = None
    rules: list[RuleOut] | None = None
    aliases: list[str] | None = None
    usage: Usage


class DeletedOut(BaseModel):
    subject: str
    deleted: dict[str, int] = Field(
        description="what went, by kind: lines, rules, aliases, and batch_items (the subject's "
        "requests and results taken out of batches)",
        examples=[{"lines": 12, "rules": 1, "aliases": 2, "batch_items": 3}],
    )
    usage: Usage
