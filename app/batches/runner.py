"""Running a batch's chunks, finishing batches, and expiring those past their window.

Everything here runs in a worker, in a session the task owns (`app.db.session_scope`).
"""

from __future__ import annotations

import logging
import uuid
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from app.batches import repository as repo
from app.batches.models import BatchItem
from app.batches.outputs import write_if_done
from app.batches.schemas import CHAT
from app.batches.service import now
from app.cache import get_subject_cache
from app.chat.service import ChatService, parse_chat
from app.chat.upstream import configured_client
from app.db import lead
from app.decisions.service import DecisionService
from app.engines.registry import configured_second_tier, default_engine
from app.engines.wire import parse_request
from app.errors import DossierError
from app.facts.service import ExtractionService
from app.jobs.names import FINISH_BATCH
from app.jobs.outbox import JobQueue
from app.knowledge.indexes import knowledge_indexes
from app.knowledge.service import RetrievalService
from app.ledger.repository import ChargeLine
from app.ledger.service import charge_many, charge_mark, settle_in_turn
from app.memory import repository as memory_repo
from app.memory.service import MemoryService
from app.quality.service import tenant_quality
from app.quality.tiers import QualitySetting
from app.recall.cache import shared_indexes
from app.settings import get_settings
from app.tenants import repository as tenants_repo
from app.tenants.service import CurrentTenant

log = logging.getLogger(__name__)

EXPIRY_LOCK = 7_331_001
"""pg advisory lock key of the expiry sweep: one leader at a time, however many beats run."""


def decision_service(session: Session, jobs: JobQueue) -> DecisionService:
    settings = get_settings()
    memory = MemoryService(session, jobs, get_subject_cache(), settings)
    return DecisionService(
        memory, shared_indexes(), default_engine(), settings, second_tier=configured_second_tier()
    )


def chat_service(session: Session, jobs: JobQueue) -> ChatService:
    settings, indexes = get_settings(), knowledge_indexes()
    retrieval = RetrievalService(session, settings, indexes)
    turns = ExtractionService(session, jobs, settings, indexes)
    return ChatService(retrieval, turns, configured_client())


def run_chunk(session: Session, jobs: JobQueue, batch_id: str, first: int, last: int) -> int:
    """Run the chunk's pending items and charge them; returns how many finished.

    Decisions are made first and charged in one step at the end, so the tenant's row (whose
    credit every chunk of every batch takes from) is locked for moments, not for the chunk: two
    workers then run one tenant's chunks side by side. Chat completions are charged as the
    route charges them, each when its retrieval runs, the credit taken at commit
    (`app.ledger.service`). Either way the results, the ledger lines and the credit commit
    together with the items' row locks released, or not at all.
    """
    batch = repo.lock_batch(session, batch_id)
    if batch is None:
        return 0  # deleted
    if batch.status != "in_progress":
        return 0  # cancelling/cancelled/expired: the batch's own transition closed the items
    tenant_id, endpoint = batch.tenant_id, batch.endpoint
    session.commit()  # release the batch row: other chunks of this batch run beside this one
    # The subjects as they are before the items are locked: a delete that commits after this
    # either took the (then unlocked) items itself or shows here as a subject gone.
    names = repo.subjects_in_range(session, batch_id, first, last)
    subjects = memory_repo.subject_ids(session, tenant_id, names)
    items = repo.lock_chunk(session, batch_id, first, last)
    if not items:
        return 0
    tenant = _tenant(session, tenant_id)
    if tenant.suspended:
        stop = "deletion_requested" if tenant.status == "deletion_requested" else "tenant_suspended"
        results = [_stopped(stop) for _ in items]
        items, results = _without_deleted_subjects(session, tenant_id, subjects, items, results)
    elif endpoint == CHAT:
        chat = chat_service(session, jobs)
        marks, results = [], []
        for item in items:
            marks.append(charge_mark(session))
            results.append(_complete(session, chat, tenant, item))
        for position in settle_in_turn(session, tenant.id, marks):
            results[position] = _stopped("insufficient_credit")
    else:
        service = decision_service(session, jobs)
        quality = tenant_quality(session, tenant.id)
        results = [_decide(service, tenant, item, quality) for item in items]
        items, results = _without_deleted_subjects(session, tenant_id, subjects, items, results)
        _charge(session, tenant, items, results, service.settings.price_decision)
    finished = now()
    for item, result in zip(items, results, strict=True):
        item.result, item.status, item.finished_at = result, result["type"], finished
    jobs.add(FINISH_BATCH, batch_id)
    return len(items)


def _without_deleted_subjects(
    session: Session,
    tenant_id: uuid.UUID,
    subjects: dict[str, int],
    items: list[BatchItem],
    results: list[dict[str, Any]],
) -> tuple[list[BatchItem], list[dict[str, Any]]]:
    """Take out the items whose subject was deleted while the chunk decided them.

    A subject delete takes its items out of batches at once, but not those a running chunk has
    locked: they go here, uncharged. The subjects' rows are share-locked until the chunk
    commits, so a delete that comes after this check waits for the chunk and then finds its
    items unlocked and takes them out itself. A subject deleted and made again has another id:
    what was decided read the memory that was deleted, so its items go too.
    """
    now = memory_repo.subject_ids(session, tenant_id, list(subjects), share=True)
    gone = {name for name, subject_id in subjects.items() if now.get(name) != subject_id}
    if not gone:
        return items, results
    repo.delete_items(session, [item.id for item in items if item.subject in gone])
    pairs = zip(items, results, strict=True)
    kept = [(item, result) for item, result in pairs if item.subject not in gone]
    return [item for item, _ in kept], [result for _, result in kept]


def _decide(
    service: DecisionService, tenant: CurrentTenant, item: BatchItem, quality: QualitySetting
) -> dict[str, Any]:
    try:
        request = parse_request(item.body["body"])
        response = service.decide(tenant, request, charged_by_caller=True, quality=quality)
    except DossierError as exc:
        return _errored(exc.code, exc.message, exc.status_code)
    return {"type": "succeeded", "response": response}


def _complete(
    session: Session, service: ChatService, tenant: CurrentTenant, item: BatchItem
) -> dict[str, Any]:
    """One chat completion in a savepoint of its own: one that fails leaves no ledger line, no
    turn and no job behind, and the chunk goes on."""
    savepoint = session.begin_nested()
    try:
        response = service.complete(tenant, parse_chat(item.body["body"]))
    except DossierError as exc:
        savepoint.rollback()
        return _errored(exc.code, exc.message, exc.status_code)
    savepoint.commit()
    return {"type": "succeeded", "response": response}


def _errored(code: str, message: str, status_code: int) -> dict[str, Any]:
    """An item that failed; `status_code` is what the endpoint would have answered (the error
    file's line carries it; the JSON form's results do not)."""
    return {
        "type": "errored",
        "error": {"code": code, "message": message},
        "status_code": status_code,
    }


def _charge(
    session: Session,
    tenant: CurrentTenant,
    items: list[BatchItem],
    results: list[dict[str, Any]],
    price: Decimal,
) -> None:
    """Take the credit of every succeeded decision that the balance covers, one ledger line
    each, in item order; the decisions it no longer covers end errored, insufficient_credit."""
    succeeded = [i for i, result in enumerate(results) if result["type"] == "succeeded"]
    lines = [ChargeLine(route="systemone", cost=price, subject=items[i].subject) for i in succeeded]
    charged = charge_many(session, tenant.id, lines)
    for i in succeeded[charged:]:
        results[i] = _stopped("insufficient_credit")


def _stopped(code: str) -> dict[str, Any]:
    messages = {
        "insufficient_credit": ("the tenant's credit did not cover this request", 402),
        "tenant_suspended": ("the tenant was suspended before this request", 403),
        "deletion_requested": ("the account's deletion was requested before this request", 403),
    }
    message, status_code = messages[code]
    return _errored(code, message, status_code)


def _tenant(session: Session, tenant_id: uuid.UUID) -> CurrentTenant:
    status = tenants_repo.status_of(session, tenant_id)
    return CurrentTenant(id=tenant_id, status=status or "suspended")


def finish(session: Session, batch_id: str) -> None:
    """in_progress → finalizing → completed once no item is pending; cancelling → cancelled.
    A batch made from a file gets its output and error files once it has ended and no item is
    left running (after a cancel or an expiry, when the chunks running then have finished)."""
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
    write_if_done(session, batch, now())


def expire_due(session: Session) -> list[str]:
    """Batches past their completion window: pending items become expired. Runs under an
    advisory lock so two beat processes never sweep at once; returns the batches expired."""
    if not lead(session, EXPIRY_LOCK):
        return []
    expired = []
    for batch_id in repo.due_to_expire(session, now()):
        batch = repo.lock_batch(session, batch_id)
        if batch is None or batch.status in repo.FINAL:
            continue
        repo.close_pending(session, batch_id, "expired")
        repo.set_status(session, batch, "expired", now())
        write_if_done(session, batch, now())
        expired.append(batch_id)
    return expired


def fail_chunk(
    session: Session, jobs: JobQueue, batch_id: str, first: int, last: int, reason: str
) -> int:
    """A chunk's task gave up: its items still pending end errored with the reason, and the
    batch finishes as usual. Returns how many items it closed."""
    items = repo.lock_chunk(session, batch_id, first, last)
    finished = now()
    for item in items:
        item.result = _errored("internal", reason, 500)
        item.status, item.finished_at = "errored", finished
    jobs.add(FINISH_BATCH, batch_id)
    return len(items)
