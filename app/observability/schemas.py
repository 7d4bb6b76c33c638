"""The answer of `/readyz` (its 503 is the error shape, with `failed` and `checks`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ReadyOut(BaseModel):
    status: Literal["ready"]
    checks: dict[str, str] = Field(
        description='postgresql, redis, broker: "ok", or the error that one answered'
    )
