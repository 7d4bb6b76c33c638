"""What beat runs for facts: facts whose end day has come retire, batches whose delayed task
was lost are sent again, extracted turns past their keeping time go (under the knowledge sweep's
lock, `app.knowledge.sweeps`); and, less often and under a lock of its own, batches extracted by
another extractor are re-extracted with the current one."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.db import lead
from app.facts import repository as repo
from app.jobs.names import EXTRACT_BATCH, REEXTRACT_BATCH
from app.jobs.outbox import JobQueue
from app.settings import Settings

REEXTRACT_LOCK = 7_331_102


def sweep_facts(
    session: Session, jobs: JobQueue, settings: Settings, now: datetime
) -> dict[str, int]:
    """One pass over every tenant's facts; the caller holds the sweep's lock."""
    retired_users = repo.retire_ended(session, now.date())
    # A batch's delayed task waits in its worker; one lost with its worker is sent again here.
    grace = timedelta(seconds=2 * settings.knowledge_sweep_seconds)
    overdue = repo.overdue_batches(session, now - grace)
    for batch_id in overdue:
        jobs.add(EXTRACT_BATCH, batch_id)
    purged = repo.purge_turns(session, now - timedelta(days=settings.extraction_keep_days))
    return {
        "users_with_retired_facts": len(retired_users),
        "overdue_batches": len(overdue),
        "purged_turns": purged,
    }


def reextract(session: Session, jobs: JobQueue, extractor_name: str, limit: int = 200) -> int:
    """Send the batches extracted by another extractor to be extracted again."""
    if not lead(session, REEXTRACT_LOCK):
        return 0
    stale = repo.stale_batches(session, extractor_name, limit)
    for batch_id in stale:
        jobs.add(REEXTRACT_BATCH, batch_id)
    return len(stale)
