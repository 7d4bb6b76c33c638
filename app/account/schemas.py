from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

# The example tenant of the admin routes (app.tenants.schemas takes it from here).
TENANT_ID = "3f2c9a4e-8b1d-4c6f-9e2a-7d5b1c0a4f18"
DELETION_ID = "del_6b1f0c9e2d4a4f7e8a3c5b2d1e0f9a87"
ERASURE_ID = "erase_5a0e2c4b7d9f4e1a8c3b6d0f2e4a7c91"
WITHDRAW = "DELETE /v1/account/deletion"

DeletionStatus = Literal["pending", "withdrawn", "erasing", "erased", "failed"]

PENDING_EXAMPLE: dict[str, Any] = {
    "id": DELETION_ID,
    "tenant_id": TENANT_ID,
    "status": "pending",
    "account_status": "deletion_requested",
    "requested_at": "2026-12-01T09:00:00Z",
    "erase_after": "2026-12-04T09:00:00Z",
    "withdrawn_at": None,
    "started_at": None,
    "started_by": None,
    "erasure_id": None,
    "withdraw": WITHDRAW,
}


class DeletionIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"confirm": "Acme"}, {"confirm": TENANT_ID}]},
    )
    confirm: StrictStr = Field(
        min_length=1,
        max_length=200,
        description="the account's name or its tenant id, typed again: nothing else deletes it",
    )


class DeletionOut(BaseModel):
    """A deletion request. While `pending`, the account (`account_status` `deletion_requested`)
    reads, forgets and deletes, and writes nothing; the first sweep after `erase_after` starts
    the erasure (`erasure_id`, whose proof says what went). `withdraw` says how to keep the
    account, while that is still possible."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                PENDING_EXAMPLE,
                {
                    **PENDING_EXAMPLE,
                    "status": "erasing",
                    "account_status": "erasing",
                    "started_at": "2026-12-04T09:05:00Z",
                    "started_by": "schedule",
                    "erasure_id": ERASURE_ID,
                    "withdraw": None,
                },
            ]
        }
    )

    id: str
    tenant_id: str
    status: DeletionStatus
    account_status: str
    requested_at: datetime
    erase_after: datetime
    withdrawn_at: datetime | None
    started_at: datetime | None
    started_by: Literal["schedule", "operator"] | None
    erasure_id: str | None
    withdraw: str | None


class DeletionsList(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"data": [PENDING_EXAMPLE]}]})
    data: list[DeletionOut]
