from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.account.schemas import PENDING_EXAMPLE, TENANT_ID, DeletionOut

KEY_ID = "9d4b7e21-5c3a-4f8e-b6d0-2a1e8c7f3b59"
API_KEY = "dsk_example0key0shown0once0at0creation0abcdefgh"  # the shape of a real one


class TenantIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, examples=["Acme"])
    credit: Decimal | None = Field(default=None, ge=0, max_digits=18, decimal_places=6)


class TenantCreated(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"tenant_id": TENANT_ID, "api_key": API_KEY, "key_id": KEY_ID}]
        }
    )
    tenant_id: uuid.UUID
    api_key: str
    key_id: uuid.UUID


class KeyCreated(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"tenant_id": TENANT_ID, "api_key": API_KEY, "key_id": KEY_ID}]
        }
    )
    tenant_id: uuid.UUID
    api_key: str
    key_id: uuid.UUID


class CreditIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"credit": 250}]})
    credit: Decimal = Field(ge=0, max_digits=18, decimal_places=6)


class StatusIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"status": "suspended"}]}
    )
    status: Literal["active", "suspended"]


class TenantOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "tenant_id": TENANT_ID,
                    "name": "Acme",
                    "status": "active",
                    "credit": "250.000000",
                    "deletion": None,
                },
                {
                    "tenant_id": TENANT_ID,
                    "name": "Acme",
                    "status": "deletion_requested",
                    "credit": "250.000000",
                    "deletion": PENDING_EXAMPLE,
                },
            ]
        }
    )
    tenant_id: uuid.UUID
    name: str
    status: str
    """active, suspended (by an operator), deletion_requested (by the tenant, until its erasure
    runs or it withdraws), erasing or erased."""
    credit: Decimal
    deletion: DeletionOut | None = None
    """The tenant's latest account deletion request, whatever became of it."""
