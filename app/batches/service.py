"""Batches: many /v1/systemone requests run on the decisions queue, each result kept once.

Statuses and times follow the OpenAI Batch API; per-item results follow Anthropic's (succeeded,
errored, canceled, expired), keyed by the caller's custom_id. Items run in chunks; a chunk holds
its items' row locks and writes their results, ledger lines and credit in one transaction, so a
worker killed mid-chunk leaves the chunk as if it never ran and a second run does it once.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.audit.service import record
from app.batches import repository as repo
from app.batches.models import Batch
from app.batches.schemas import BatchIn, window_seconds
from app.batches.validation import request_errors
from app.errors import Conflict, InsufficientCredit, NotFound
from app.jobs.outbox import JobQueue
from app.ledger.service import ensure_can_pay
from app.models import Tenant
from app.settings import get_settings
from app.tenants.service import CurrentTenant

log = logging.getLogger(__name__)

CHUNK_SIZE = 200


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class BatchService:
    session: Session
    jobs: JobQueue

    def create(self, tenant: CurrentTenant, body: BatchIn) -> dict[str, Any]:
        ensure_can_pay(tenant)
        self._ensure_first_chunk_is_covered(tenant, len(body.requests))
        batch = Batch(
            id=f"batch_{uuid.uuid4().hex}",
            tenant_id=tenant.id,
            status="validating",
            metadata_=body.metadata,
            completion_window=window_seconds(body.completion_window),
            total=len(body.requests),
            expires_at=now() + timedelta(seconds=window_seconds(body.completion_window)),
        )
        self.session.add(batch)
        self.session.flush()
        repo.copy_items(self.session, batch.id, tenant.id, body.requests)
        record(
            self.session,
            tenant,
            "batch.create",
            ids=[batch.id],
            counts={"requests": len(body.requests)},
        )
        self.jobs.add("dossier.decisions.validate_batch", batch.id)
        return self.describe(batch)

    def _ensure_first_chunk_is_covered(self, tenant: CurrentTenant, requests: int) -> None:
        """A batch its tenant cannot even start paying for is refused before it is stored (a
        batch whose credit runs out midway ends its remaining items `insufficient_credit`)."""
        first_chunk = get_settings().price_decision * min(requests, CHUNK_SIZE)
        credit = self.session.scalar(select(Tenant.credit).where(Tenant.id == tenant.id))
        if credit is None or credit < first_chunk:
            raise InsufficientCredit(
                f"the first {min(requests, CHUNK_SIZE)} decisions of this batch cost "
                f"{first_chunk}, more than the credit left ({credit}); nothing was stored"
            )

    def get(self, tenant: CurrentTenant, batch_id: str) -> dict[str, Any]:
        return self.describe(self._owned(tenant, batch_id))

    def list(self, tenant: CurrentTenant, cursor: str | None, limit: int) -> dict[str, Any]:
        statement = select(Batch).where(Batch.tenant_id == tenant.id)
        if cursor is not None:
            after = self.session.get(Batch, cursor)
            if after is None or after.tenant_id != tenant.id:
                raise NotFound("cursor is not one this API gave out", field="cursor")
            statement = statement.where(
                (Batch.created_at < after.created_at)
                | ((Batch.created_at == after.created_at) & (Batch.id < after.id))
            )
        rows = list(
            self.session.scalars(
                statement.order_by(Batch.created_at.desc(), Batch.id.desc()).limit(limit + 1)
            )
        )
        more = len(rows) > limit
        return {
            "data": [self.describe(batch) for batch in rows[:limit]],
            "next_cursor": rows[limit - 1].id if more else None,
        }

    def cancel(self, tenant: CurrentTenant, batch_id: str) -> dict[str, Any]:
        batch = self._owned(tenant, batch_id, lock=True)
        if batch.status in repo.FINAL or batch.status == "cancelling":
            raise Conflict(
                f"batch is {batch.status}; only a running batch can be cancelled",
                code="batch_not_running",
            )
        repo.set_status(self.session, batch, "cancelling", now())
        repo.close_pending(self.session, batch.id, "canceled")
        if not repo.pending_left(self.session, batch.id):
            repo.set_status(self.session, batch, "cancelled", now())
        record(self.session, tenant, "batch.cancel", ids=[batch.id], counts={})
        return self.describe(batch)

    def delete(self, tenant: CurrentTenant, batch_id: str) -> dict[str, Any]:
        batch = self._owned(tenant, batch_id, lock=True)
        if batch.status not in repo.FINAL:
            raise Conflict(
                f"batch is {batch.status}; cancel it first, then delete it", code="batch_not_final"
            )
        counts = repo.counts(self.session, batch.id)
        self.session.delete(batch)
        record(
            self.session, tenant, "batch.delete", ids=[batch_id], counts={"items": counts["total"]}
        )
        return {"id": batch_id, "deleted": True}

    def results(self, tenant: CurrentTenant, batch_id: str) -> Iterator[dict[str, Any]]:
        self._owned(tenant, batch_id)
        for custom_id, result in repo.results(self.session, batch_id):
            yield {"custom_id": custom_id, "result": result}

    def describe(self, batch: Batch) -> dict[str, Any]:
        times = (
            "created_at",
            "expires_at",
            "in_progress_at",
            "finalizing_at",
            "completed_at",
            "failed_at",
            "expired_at",
            "cancelling_at",
            "cancelled_at",
        )
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": "/v1/systemone",
            "status": batch.status,
            "completion_window": f"{batch.completion_window}s",
            "metadata": batch.metadata_,
            "request_counts": repo.counts(self.session, batch.id),
            "errors": {"object": "list", "data": batch.errors or []},
            **{name: _unix(getattr(batch, name)) for name in times},
        }

    def _owned(self, tenant: CurrentTenant, batch_id: str, *, lock: bool = False) -> Batch:
        batch = (
            repo.lock_batch(self.session, batch_id) if lock else self.session.get(Batch, batch_id)
        )
        if batch is None or batch.tenant_id != tenant.id:
            raise NotFound(f"no batch '{batch_id}'", field="id")
        return batch


def _unix(moment: datetime | None) -> int | None:
    return int(moment.timestamp()) if moment is not None else None


# Worker side ---------------------------------------------------------------------------------


def validate(session: Session, jobs: JobQueue, batch_id: str) -> None:
    """validating → failed (every line's problems) or in_progress (chunks enqueued)."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None or batch.status != "validating":
        return  # deleted, cancelled, or already validated by an earlier run of this task
    errors = request_errors(repo.raw_requests(session, batch_id))
    if errors:
        batch.errors = [error.to_dict() for error in errors]
        repo.drop_items(session, batch_id)
        repo.set_status(session, batch, "failed", now())
        return
    repo.set_status(session, batch, "in_progress", now())
    for first in range(1, batch.total + 1, CHUNK_SIZE):
        jobs.add("dossier.decisions.run_chunk", batch_id, first, first + CHUNK_SIZE - 1)


def fail_validation(session: Session, batch_id: str, reason: str) -> None:
    """The validation task gave up: the batch ends failed with the reason, its items dropped."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None or batch.status != "validating":
        return
    batch.errors = [{"line": None, "custom_id": None, "code": "internal", "message": reason}]
    repo.drop_items(session, batch_id)
    repo.set_status(session, batch, "failed", now())
