"""What beat runs for knowledge as a whole, under a PostgreSQL advisory lock so two beats never
sweep at once: the facts' sweep (`app.facts.sweeps`: facts whose end day has come retire,
batches whose delayed task was lost are sent again, extracted turns past their keeping time
go), then documents' storage is metered. Here, above both rooms, because one lock and one
answer cover both."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.db import lead
from app.documents.service import meter_storage
from app.facts.sweeps import sweep_facts
from app.jobs.outbox import JobQueue
from app.settings import Settings

SWEEP_LOCK = 7_331_101


def sweep(
    session: Session, jobs: JobQueue, settings: Settings, now: datetime | None = None
) -> dict[str, int]:
    now = now or datetime.now(UTC)
    if not lead(session, SWEEP_LOCK):
        return {}
    swept = sweep_facts(session, jobs, settings, now)
    metered = meter_storage(session, settings, now)
    return {**swept, "tenants_metered": metered}
