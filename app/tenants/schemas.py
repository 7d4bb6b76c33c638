from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class TenantIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, examples=["Acme"])
    credit: Decimal | None = Field(default=None, ge=0, max_digits=18, decimal_places=6)


class TenantCreated(BaseModel):
    tenant_id: uuid.UUID
    api_key: str
    key_id: uuid.UUID


class KeyCreated(BaseModel):
    tenant_id: uuid.UUID
    api_key: str
    key_id: uuid.UUID


class CreditIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credit: Decimal = Field(max_digits=18, decimal_places=6)


class StatusIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["active", "suspended"]


class TenantOut(BaseModel):
    tenant_id: uuid.UUID
    name: str
    status: str
    credit: Decimal
