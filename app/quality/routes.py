"""`PUT /v1/settings/quality` and `GET /v1/settings/quality`: a tenant's own quality setting."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictFloat

from app.deps import SecondTierDep, TenantDep, UnitOfWorkRoute, UowDep
from app.quality import service
from app.quality.tiers import QualityLevel, QualitySetting

router = APIRouter(route_class=UnitOfWorkRoute, prefix="/v1/settings", tags=["settings"])


class QualityIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"quality": "balanced", "temperature": 1.0}]},
    )
    quality: QualityLevel = Field(description="fast, balanced or best")
    temperature: StrictFloat = Field(
        default=1.0,
        gt=0,
        le=10,
        description="applied alike to every answer and pass; 1 leaves the engine's answer as is",
    )


class QualityOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"quality": "balanced", "temperature": 1.0, "second_tier": True}]
        }
    )

    quality: QualityLevel
    temperature: float
    second_tier: bool
    """Whether a second-tier engine is configured (balanced and best need one)."""


@router.put("/quality", response_model=QualityOut)
def put_quality(body: QualityIn, tenant: TenantDep, uow: UowDep, tier: SecondTierDep) -> QualityOut:
    """Set the tenant's quality and temperature for its decisions from now on. Not billed."""
    tenant.ensure_active("the quality setting")
    setting = service.set_quality(
        uow.session, tenant.id, QualitySetting(body.quality, body.temperature), tier
    )
    return QualityOut(
        quality=setting.level, temperature=setting.temperature, second_tier=tier is not None
    )


@router.get("/quality", response_model=QualityOut)
def get_quality(tenant: TenantDep, uow: UowDep, tier: SecondTierDep) -> QualityOut:
    setting = service.tenant_quality(uow.session, tenant.id)
    return QualityOut(
        quality=setting.level, temperature=setting.temperature, second_tier=tier is not None
    )
