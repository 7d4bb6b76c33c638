"""Asynchronous passes: a decision with `"passes": "async"` answers at once and leaves a job.

The job row holds the plan and the baseline, so the worker asks the engine about exactly the
lines the decision placed, whatever the memory holds by then. The worker claims the job, asks
outside any transaction (an engine may be slow), then stores the blocks. A task run twice finds
the job finished and does nothing; one whose worker died mid-way finds it running and runs it
again. The passes are not billed.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.db import session_scope
from app.decisions.passes import Baseline, PassPlan, pass_blocks, pass_specs
from app.decisions.passes import pass_state as state_of_pass
from app.engines.asking import ask_distinct
from app.engines.base import Engine
from app.errors import DossierError, NotFound
from app.models import PassJob
from app.tenants.service import CurrentTenant

log = logging.getLogger(__name__)

FINISHED = ("done", "failed")
BLOCKS = ("without_memory", "changes", "explain", "placebo")


def create_job(
    session: Session,
    tenant: CurrentTenant,
    subject_pk: int | None,
    plan: PassPlan,
    baseline: Baseline,
) -> PassJob:
    job = PassJob(
        id=uuid.uuid4(),
        tenant_id=tenant.id,
        subject_id=subject_pk,
        status="queued",
        plan=plan.to_json(),
        baseline=baseline.to_json(),
    )
    session.add(job)
    session.flush()
    return job


def job_view(session: Session, tenant: CurrentTenant, job_id: str) -> dict[str, Any]:
    """The job's status and, once done, the same blocks a synchronous decision gives."""
    try:
        key = uuid.UUID(job_id)
    except ValueError:
        raise NotFound("no job with this id", field="id") from None
    job = session.get(PassJob, key)
    if job is None or job.tenant_id != tenant.id:
        raise NotFound("no job with this id", field="id")
    result = job.result or {}
    view: dict[str, Any] = {
        "id": str(job.id),
        "status": job.status,
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "error": job.error,
    }
    view.update({block: result.get(block) for block in BLOCKS})
    return view


def run_job(engine: Engine, job_id: str) -> None:
    """Run one job's passes (the worker's task body)."""
    with session_scope() as (session, _jobs):
        job = session.get(PassJob, uuid.UUID(job_id), with_for_update=True)
        if job is None or job.status in FINISHED:
            return  # deleted with its subject, or already run
        job.status = "running"
        plan = PassPlan.from_json(job.plan)
        baseline = Baseline.from_json(job.baseline)
    try:
        blocks = run_passes(engine, plan, baseline)
    except DossierError as exc:
        log.warning("passes of job %s failed: %s", job_id, exc.message)
        _finish(job_id, status="failed", error=f"{exc.code}: {exc.message}")
        return
    except Exception:
        # A job left "running" would be polled for ever: say it failed, keep the trace in logs.
        log.exception("passes of job %s failed unexpectedly", job_id)
        _finish(job_id, status="failed", error="internal: the passes failed")
        return
    _finish(job_id, status="done", result=blocks)


def _finish(
    job_id: str, *, status: str, result: dict[str, Any] | None = None, error: str | None = None
) -> None:
    with session_scope() as (session, _jobs):
        finish_job(session, job_id, status=status, result=result, error=error)


def finish_job(
    session: Session,
    job_id: str,
    *,
    status: str,
    result: dict[str, Any] | None = None,
    error: str | None = None,
) -> None:
    """The first finish wins: a resent job, or a failure reported late, changes nothing."""
    job = session.get(PassJob, uuid.UUID(job_id), with_for_update=True)
    if job is None or job.status in FINISHED:
        return  # its subject was deleted while the passes ran, or a resent job finished it
    job.status, job.result, job.error = status, result, error
    job.finished_at = datetime.now(UTC)


def run_passes(engine: Engine, plan: PassPlan, baseline: Baseline) -> dict[str, Any]:
    """Ask the first engine for every pass of the plan together, and measure them."""
    specs = pass_specs(plan)
    states = [state_of_pass(plan, spec) for spec in specs]
    raw = ask_distinct(engine, plan.model, states, plan.questions) if states else []
    return pass_blocks(plan, baseline, specs, raw)
