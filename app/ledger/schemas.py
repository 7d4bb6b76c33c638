"""Response bodies of the ledger routes: priced lines, and the threads calls were grouped under."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class LedgerLineOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 1042,
                    "route": "knowledge.retrieval",
                    "subject": None,
                    "thread": "t-17",
                    "units": 1,
                    "cost": 0.0001,
                    "billed": True,
                    "created_at": "2026-11-29T14:00:00Z",
                }
            ]
        }
    )

    id: int
    route: str
    subject: str | None
    thread: str | None
    """The chat body's `thread` the call was sent under; None outside a conversation."""
    units: int
    cost: float
    billed: bool
    created_at: datetime


class ThreadOut(BaseModel):
    """One conversation's calls, counted: ids, routes and times, never its messages."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "thread": "t-17",
                    "calls": 3,
                    "routes": {"knowledge.retrieval": 2, "chat.completions": 1},
                    "cost": 0.0002,
                    "first_at": "2026-11-29T14:00:00Z",
                    "last_at": "2026-11-29T14:06:12Z",
                }
            ]
        }
    )

    thread: str
    calls: int
    routes: dict[str, int]
    cost: float
    first_at: datetime
    last_at: datetime
