"""Reading and setting a tenant's quality and temperature."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from app.engines.registry import SecondTier
from app.errors import Conflict
from app.quality import repository as repo
from app.quality.tiers import QualityLevel, QualitySetting


def tenant_quality(session: Session, tenant_id: uuid.UUID) -> QualitySetting:
    row = repo.quality_row(session, tenant_id)
    if row is None:
        return QualitySetting()
    level: QualityLevel = row.quality if row.quality in ("balanced", "best") else "fast"
    return QualitySetting(level, float(row.temperature))


def set_quality(
    session: Session,
    tenant_id: uuid.UUID,
    setting: QualitySetting,
    second_tier: SecondTier | None,
) -> QualitySetting:
    """Store the setting. balanced and best need a second-tier engine: without one they would
    quietly answer as fast, so they are refused (409) instead."""
    if setting.level != "fast" and second_tier is None:
        raise Conflict(
            f"quality {setting.level!r} needs a second-tier engine, and none is configured "
            "(DOSSIER_SECOND_TIER_ENGINE)",
            field="quality",
            code="no_second_tier",
        )
    repo.set_quality(session, tenant_id, setting.level, setting.temperature)
    return setting
