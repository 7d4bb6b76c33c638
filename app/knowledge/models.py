"""The table of the per-tenant knowledge switch, which facts and documents share: no row (or
`enabled` false) and knowledge is off for the tenant; it also notes when document storage was
last metered."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, _now


class KnowledgeSettings(Base):
    """The tenant's switch. No row: knowledge is off."""

    __tablename__ = "knowledge_settings"

    tenant_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    enabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    storage_metered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = _now()
