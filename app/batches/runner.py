"""Running a batch's chunks, finishing batches, and expiring those past their window.

Everything here runs in a worker, in a session the task owns (`app.db.session_scope`).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.batches import repository as repo
from app.batches.models import BatchItem
from app.batches.service import now, stop_code
from app.cache import get_subject_cache
from app.decisions.service import DecisionService
from app.decisions.wire import parse_request
from app.engines.registry import default_engine
from app.errors import DossierError
from app.memory.service import MemoryService
from app.models import Tenant
from app.recall.cache import shared_indexes
from app.settings import get_settings
from app.tenants.service import CurrentTenant
from workers.enqueue import JobQueue

log = logging.getLogger(__name__)

EXPIRY_LOCK = 7_331_001
"""pg advisory lock key of the expiry sweep: one leader at a time, however many beats run."""


def decision_service(session: Session, jobs: JobQueue) -> DecisionService:
    settings = get_settings()
    memory = MemoryService(session, jobs, get_subject_cache(), settings)
    return DecisionService(memory, shared_indexes(), default_engine(), settings)


def run_chunk(session: Session, jobs: JobQueue, batch_id: str, first: int, last: int) -> int:
    """Decide the chunk's pending items; returns how many this run finished."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None:
        return 0  # deleted
    if batch.status != "in_progress":
        return 0  # cancelling/cancelled/expired: the batch's own transition closed the items
    tenant_id = batch.tenant_id
    session.commit()  # release the batch row: other chunks of this batch run beside this one
    items = repo.lock_chunk(session, batch_id, first, last)
    if not items:
        return 0
    tenant = _tenant(session, tenant_id)
    service = decision_service(session, jobs)
    stopped: str | None = None
    for item in items:
        item.result = (
            _decide(session, service, tenant, item) if stopped is None else _stopped(stopped)
        )
        item.status = item.result["type"]
        item.finished_at = now()
        if stopped is None and item.status == "errored":
            stopped = stop_code_of(item.result)
    jobs.add("dossier.decisions.finish_batch", batch_id)
    return len(items)


def _decide(
    session: Session, service: DecisionService, tenant: CurrentTenant, item: BatchItem
) -> dict[str, Any]:
    savepoint = session.begin_nested()  # a failed item takes back its own charge, nothing else
    try:
        response = service.decide(tenant, parse_request(item.body["body"]))
    except DossierError as exc:
        savepoint.rollback()
        return {
            "type": "errored",
            "error": {"code": exc.code, "message": exc.message, "stop": stop_code(exc)},
        }
    savepoint.commit()
    return {"type": "succeeded", "response": response}


def stop_code_of(result: dict[str, Any]) -> str | None:
    stop = result.get("error", {}).get("stop")
    return stop if isinstance(stop, str) else None


def _stopped(code: str) -> dict[str, Any]:
    messages = {
        "insufficient_credit": "the tenant's credit ran out before this request",
        "tenant_suspended": "the tenant was suspended before this request",
    }
    return {"type": "errored", "error": {"code": code, "message": messages[code], "stop": code}}


def _tenant(session: Session, tenant_id: uuid.UUID) -> CurrentTenant:
    status = session.scalar(select(Tenant.status).where(Tenant.id == tenant_id))
    return CurrentTenant(id=tenant_id, status=status or "suspended")


def finish(session: Session, batch_id: str) -> None:
    """in_progress → finalizing → completed once no item is pending; cancelling → cancelled."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None:
        return
    if batch.status == "cancelling":
        repo.close_pending(session, batch_id, "canceled")
        if not repo.pending_left(session, batch_id):
            repo.set_status(session, batch, "cancelled", now())
    elif batch.status == "in_progress" and not repo.pending_left(session, batch_id):
        repo.set_status(session, batch, "finalizing", now())
        repo.set_status(session, batch, "completed", now())


def expire_due(session: Session) -> list[str]:
    """Batches past their completion window: pending items become expired. Runs under an
    advisory lock so two beat processes never sweep at once; returns the batches expired."""
    if not session.scalar(select(_try_lock(EXPIRY_LOCK))):
        return []
    expired = []
    for batch_id in repo.due_to_expire(session, now()):
        batch = repo.lock_batch(session, batch_id)
        if batch is None or batch.status in repo.FINAL:
            continue
        repo.close_pending(session, batch_id, "expired")
        repo.set_status(session, batch, "expired", now())
        expired.append(batch_id)
    return expired


def _try_lock(key: int) -> Any:
    from sqlalchemy import func

    return func.pg_try_advisory_xact_lock(key)
