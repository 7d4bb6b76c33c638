"""History imports: an end-user's past conversations, extracted with each turn's own date.

A user who brings last year's conversations wants "yesterday" in a turn from 3 March 2025 read
as 2 March 2025, not as the day before the import. Every turn keeps its `said_at`; the
extractor resolves relative days against it (as it does for live turns) and facts keep the day
they were said.

An import is split into batches (consecutive turns of one thread, at most `BATCH_TURNS`, oldest
first) and run by one job on the extraction queue that extracts them one after another, each in
a transaction of its own, oldest first: a later "I moved to Gdansk" must retire an earlier home,
never the other way round, and progress is visible batch by batch. The job is never held in a
worker's memory (it queues itself again through the outbox, with no delay), and it is
acknowledged late: a job killed half-way is delivered again and goes on with the batches still
pending, so no sweep resends it (a resent one would run beside it). Billing is per batch, as
for live turns.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.audit.service import record
from app.errors import NotFound
from app.facts import repository as repo
from app.facts.models import EndUser, ExtractionBatch, HistoryImport
from app.facts.schemas import HistoryImportOut, ImportBatches
from app.jobs.names import IMPORT_HISTORY
from app.jobs.outbox import JobQueue
from app.tenants.service import CurrentTenant

BATCH_TURNS = 50
"""Turns extracted together (an LLM extractor reads them as one conversation)."""


@dataclass(frozen=True)
class PastTurn:
    text: str
    said_at: datetime
    thread: str = ""


def new_import_id() -> str:
    return f"imp_{uuid.uuid4().hex}"


def batches_of(turns: Sequence[PastTurn]) -> list[list[PastTurn]]:
    """The turns, oldest first, cut into runs of one thread of at most `BATCH_TURNS`."""
    ordered = sorted(turns, key=lambda t: t.said_at)
    runs: list[list[PastTurn]] = []
    for turn in ordered:
        if runs and runs[-1][-1].thread == turn.thread and len(runs[-1]) < BATCH_TURNS:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    return runs


def start_import(
    session: Session,
    jobs: JobQueue,
    tenant: CurrentTenant,
    user: EndUser,
    turns: Sequence[PastTurn],
) -> HistoryImport:
    """Store the turns as batches of a new import (due at once) and queue its job."""
    job = HistoryImport(id=new_import_id(), tenant_id=tenant.id, end_user_id=user.id)
    job.turns = len(turns)
    session.add(job)
    session.flush()
    now = datetime.now(UTC)
    for run in batches_of(turns):
        batch = ExtractionBatch(
            tenant_id=tenant.id,
            end_user_id=user.id,
            thread=run[0].thread,
            due_at=now,
            import_id=job.id,
        )
        session.add(batch)
        session.flush()
        repo.add_turns(
            session,
            batch,
            [
                (turn.text, _digest(f"{turn.said_at.isoformat()} {turn.text}"), turn.said_at)
                for turn in run
            ],
        )
    jobs.add(IMPORT_HISTORY, job.id)
    record(
        session,
        tenant,
        "knowledge.history.import",
        ids=[job.id],
        counts={"turns": len(turns)},
    )
    return job


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


SLICE_SECONDS = 60.0
"""An import's job extracts batches this long, then queues itself again to go on: a long
import never meets the task time limit, and other users' extraction gets its turn."""


def run_import(
    open_unit: Callable[[], ContextManager[tuple[Session, JobQueue]]],
    import_id: str,
    extract_batch: Callable[[int], None],
    slice_seconds: float = SLICE_SECONDS,
) -> None:
    """Extract the import's pending batches oldest first, each by `extract_batch` in a unit of
    its own, for at most `slice_seconds`; then mark the import done, or queue its job again.
    `open_unit` gives a session (and its job queue) that commits when its block ends."""
    with open_unit() as (session, _):
        job = repo.lock_import(session, import_id)
        if job is None or job.status in ("done", "failed"):
            return
        job.status = "running"
        batches = repo.pending_import_batches(session, import_id)
    ends = time.monotonic() + slice_seconds
    for batch_id in batches:
        if time.monotonic() > ends:
            break
        extract_batch(batch_id)
    with open_unit() as (session, jobs):
        job = repo.lock_import(session, import_id)
        if job is None or job.status != "running":
            return
        if repo.pending_import_batches(session, import_id):
            jobs.add(IMPORT_HISTORY, import_id)
        else:
            job.status, job.finished_at = "done", datetime.now(UTC)


def fail_import(session: Session, import_id: str, reason: str) -> None:
    """The import's job gave up: it and its pending batches end failed (turns kept)."""
    job = repo.lock_import(session, import_id)
    if job is None or job.status in ("done", "failed"):
        return
    job.status, job.error, job.finished_at = "failed", reason[:200], datetime.now(UTC)
    repo.fail_import_batches(session, import_id, reason[:200], job.finished_at)


def import_view(
    session: Session, tenant: CurrentTenant, user_name: str, import_id: str
) -> HistoryImportOut:
    """The import's status and progress: batches and turns done, failed and pending, and the
    facts and events it added."""
    found = repo.get_import(session, import_id)
    if found is None or found[0].tenant_id != tenant.id or found[1].name != user_name:
        raise NotFound(f"no history import '{import_id}' for user '{user_name}'", field="id")
    job = found[0]
    by_status = repo.import_batches_by_status(session, import_id)
    facts = repo.import_facts_by_kind(session, import_id)
    return HistoryImportOut(
        id=job.id,
        user=user_name,
        status=job.status,
        error=job.error,
        turns=job.turns,
        batches=ImportBatches(
            pending=by_status.get("pending", (0, 0))[0],
            done=by_status.get("done", (0, 0))[0],
            failed=by_status.get("failed", (0, 0))[0],
            skipped=by_status.get("skipped", (0, 0))[0],
        ),
        turns_done=by_status.get("done", (0, 0))[1],
        facts=facts.get("fact", 0),
        events=facts.get("event", 0),
        created_at=job.created_at,
        finished_at=job.finished_at,
    )
