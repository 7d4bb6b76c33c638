"""Batches: many /v1/systemone or /v1/chat/completions requests run on the decisions queue,
each result kept once.

Two ways in: Dossier's own (a JSON body of requests, or a JSONL upload; /v1/systemone only) and
OpenAI's (`{input_file_id, endpoint}` of a file uploaded with POST /v1/files), whose batch
writes an output and an error file when it ends (`app.batches.outputs`). Statuses, times and
the batch object follow the OpenAI Batch API; per-item results follow Anthropic's (succeeded,
errored, canceled, expired), keyed by the caller's custom_id, and are counted both ways.

Items run in chunks; a chunk holds its items' row locks and writes their results, ledger lines
and credit in one transaction, so a worker killed mid-chunk leaves the chunk as if it never ran
and a second run does it once.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.audit.service import record
from app.batches import repository as repo
from app.batches.models import Batch
from app.batches.outputs import write_if_done
from app.batches.schemas import CHAT, SYSTEMONE, BatchFileIn, BatchIn, window_seconds
from app.batches.validation import request_errors
from app.errors import Conflict, InsufficientCredit, Invalid, NotFound
from app.files import repository as files_repo
from app.files.service import FileService, lines_of
from app.jobs.names import RUN_CHUNK, VALIDATE_BATCH
from app.jobs.outbox import JobQueue
from app.ledger.service import balance, ensure_can_pay
from app.settings import get_settings
from app.tenants.service import CurrentTenant

log = logging.getLogger(__name__)

CHUNK_SIZE = 200
CHAT_CHUNK_SIZE = 25
"""A chat completion may wait seconds on an upstream model: a chunk of them must still end well
inside the task's time limit (DOSSIER_TASK_TIME_LIMIT_SECONDS), so it holds fewer."""


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
        self.jobs.add(VALIDATE_BATCH, batch.id)
        return self.describe(batch)

    def create_from_file(self, tenant: CurrentTenant, body: BatchFileIn) -> dict[str, Any]:
        """OpenAI's way: the requests are the lines of an uploaded file, copied as the batch's
        items now (the file may be deleted afterwards); each line is checked by the
        validation task, as OpenAI checks them once the batch exists."""
        ensure_can_pay(tenant)
        file = FileService(self.session).owned(tenant, body.input_file_id, field="input_file_id")
        if file.purpose != "batch":
            raise Invalid(
                f"file '{file.id}' has purpose '{file.purpose}': a batch reads a file uploaded "
                "with purpose 'batch'",
                field="input_file_id",
            )
        # Each line is a JSON object: the upload checked it.
        requests = [json.loads(line) for line in lines_of(self.session, file.id)]
        if body.endpoint == SYSTEMONE:
            self._ensure_first_chunk_is_covered(tenant, len(requests))
        seconds = window_seconds(body.completion_window)
        batch = Batch(
            id=f"batch_{uuid.uuid4().hex}",
            tenant_id=tenant.id,
            status="validating",
            metadata_=body.metadata,
            completion_window=seconds,
            total=len(requests),
            expires_at=now() + timedelta(seconds=seconds),
            endpoint=body.endpoint,
            input_file_id=file.id,
        )
        self.session.add(batch)
        self.session.flush()
        repo.copy_items(self.session, batch.id, tenant.id, requests)
        record(
            self.session,
            tenant,
            "batch.create",
            ids=[batch.id, file.id],
            counts={"requests": len(requests)},
        )
        self.jobs.add(VALIDATE_BATCH, batch.id)
        return self.describe(batch)

    def _ensure_first_chunk_is_covered(self, tenant: CurrentTenant, requests: int) -> None:
        """A batch its tenant cannot even start paying for is refused before it is stored (a
        batch whose credit runs out midway ends its remaining items `insufficient_credit`)."""
        first_chunk = get_settings().price_decision * min(requests, CHUNK_SIZE)
        credit = balance(self.session, tenant.id)
        if credit is None or credit < first_chunk:
            raise InsufficientCredit(
                f"the first {min(requests, CHUNK_SIZE)} decisions of this batch cost "
                f"{first_chunk}, more than the credit left ({credit}); nothing was stored"
            )

    def get(self, tenant: CurrentTenant, batch_id: str) -> dict[str, Any]:
        return self.describe(self._owned(tenant, batch_id))

    def list(
        self, tenant: CurrentTenant, cursor: str | None, limit: int, field: str = "cursor"
    ) -> dict[str, Any]:
        """A page, newest first, after the batch `cursor` names: OpenAI's list (`first_id`,
        `last_id`, `has_more`, the next page's `after` being `last_id`) and Dossier's
        `next_cursor`."""
        after = None
        if cursor is not None:
            after = self.session.get(Batch, cursor)
            if after is None or after.tenant_id != tenant.id:
                raise NotFound(f"{field} is not one this API gave out", field=field)
        rows = repo.page_after(self.session, tenant.id, after, limit)
        more = len(rows) > limit
        data = [self.describe(batch) for batch in rows[:limit]]
        return {
            "object": "list",
            "data": data,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
            "has_more": more,
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
            write_if_done(self.session, batch, now())
        record(self.session, tenant, "batch.cancel", ids=[batch.id], counts={})
        return self.describe(batch)

    def delete(self, tenant: CurrentTenant, batch_id: str) -> dict[str, Any]:
        batch = self._owned(tenant, batch_id, lock=True)
        if batch.status not in repo.FINAL:
            raise Conflict(
                f"batch is {batch.status}; cancel it first, then delete it", code="batch_not_final"
            )
        counts = repo.counts(self.session, batch.id)
        # Its output and error files are its results: they go with it (its input file stays).
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id is not None:
                files_repo.remove(self.session, file_id)
        self.session.delete(batch)
        record(
            self.session, tenant, "batch.delete", ids=[batch_id], counts={"items": counts["total"]}
        )
        return {"id": batch_id, "deleted": True}

    def results(self, tenant: CurrentTenant, batch_id: str) -> Iterator[dict[str, Any]]:
        self._owned(tenant, batch_id)
        for custom_id, result in repo.results(self.session, batch_id):
            # The HTTP status an error answered is for the error file's lines only.
            shown = {key: value for key, value in result.items() if key != "status_code"}
            yield {"custom_id": custom_id, "result": shown}

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
        from_file = batch.input_file_id is not None
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": batch.endpoint,
            "input_file_id": batch.input_file_id,
            "status": batch.status,
            "completion_window": (
                _window_label(batch.completion_window)
                if from_file
                else f"{batch.completion_window}s"
            ),
            "output_file_id": batch.output_file_id,
            "error_file_id": batch.error_file_id,
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


def _window_label(seconds: int) -> str:
    """A window as a file batch was given it: "24h", "30m", "90s"."""
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _unix(moment: datetime | None) -> int | None:
    return int(moment.timestamp()) if moment is not None else None


# Worker side ---------------------------------------------------------------------------------


def validate(session: Session, jobs: JobQueue, batch_id: str) -> None:
    """validating → failed (every line's problems) or in_progress (chunks enqueued)."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None or batch.status != "validating":
        return  # deleted, cancelled, or already validated by an earlier run of this task
    errors = request_errors(
        repo.raw_requests(session, batch_id),
        batch.endpoint,
        from_file=batch.input_file_id is not None,
    )
    if errors:
        batch.errors = [error.to_dict() for error in errors]
        repo.drop_items(session, batch_id)
        repo.set_status(session, batch, "failed", now())
        return
    repo.set_status(session, batch, "in_progress", now())
    size = CHAT_CHUNK_SIZE if batch.endpoint == CHAT else CHUNK_SIZE
    for first in range(1, batch.total + 1, size):
        jobs.add(RUN_CHUNK, batch_id, first, first + size - 1)


def fail_validation(session: Session, batch_id: str, reason: str) -> None:
    """The validation task gave up: the batch ends failed with the reason, its items dropped."""
    batch = repo.lock_batch(session, batch_id)
    if batch is None or batch.status != "validating":
        return
    batch.errors = [{"line": None, "custom_id": None, "code": "internal", "message": reason}]
    repo.drop_items(session, batch_id)
    repo.set_status(session, batch, "failed", now())
