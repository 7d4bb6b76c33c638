"""`GET /v1/memory/subjects`: the tenant's subjects with their line, rule and alias counts.

A listing for people (the console) and scripts: by name, a page at a time. Not billed, like the
ledger and audit listings: it reads counts, never a line's text.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.errors import Invalid
from app.memory import repository as repo
from app.pagination import CursorQuery

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/memory", tags=["memory"])

_SUBJECT = re.compile(r"^[A-Za-z0-9_-]{1,36}$")


class SubjectSummary(BaseModel):
    subject: str
    line_count: int
    """Lines recall reads (retired learned lines are counted apart)."""
    retired_line_count: int
    rule_count: int
    alias_count: int
    created_at: datetime
    touched_at: datetime


class SubjectsPage(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "subject": "acme",
                            "line_count": 2,
                            "retired_line_count": 0,
                            "rule_count": 1,
                            "alias_count": 1,
                            "created_at": "2026-11-29T12:53:38Z",
                            "touched_at": "2026-11-29T12:55:01Z",
                        }
                    ],
                    "next_cursor": None,
                }
            ]
        }
    )

    data: list[SubjectSummary]
    next_cursor: str | None


@router.get("/subjects", response_model=SubjectsPage)
def list_subjects(
    tenant: TenantDep,
    uow: UowDep,
    cursor: CursorQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> SubjectsPage:
    """The tenant's subjects by name, with line, rule and alias counts; `next_cursor` pages on."""
    if cursor is not None:
        # The cursor is the last name of the previous page: names are unique per tenant.
        if not _SUBJECT.match(cursor):
            raise Invalid("cursor is not one this API gave out", field="cursor")
    rows = repo.subject_summaries(uow.session, tenant.id, after=cursor, limit=limit)
    data = [
        SubjectSummary(
            subject=name,
            line_count=lines,
            retired_line_count=retired,
            rule_count=rules,
            alias_count=aliases,
            created_at=created_at,
            touched_at=touched_at,
        )
        for name, lines, retired, rules, aliases, created_at, touched_at in rows[:limit]
    ]
    more = len(rows) > limit
    return SubjectsPage(data=data, next_cursor=data[-1].subject if more else None)
