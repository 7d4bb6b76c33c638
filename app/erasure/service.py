"""Admin-triggered erasure: resolve what goes, erase it in chunks on the erasure queue, prove it.

queued → running (targets resolved, counts taken, a sample of the text kept for the scan; a
whole tenant's keys revoked first) → one chunk per task run, each committed, the task sent again
until nothing is left → completed with a proof: per store the count before and after, the
residue scan, and what is kept by design. A worker that dies mid-chunk leaves that chunk rolled
back; the task is delivered again and the job goes on from what is left.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.audit.service import record
from app.cache import get_redis
from app.embeddings import current_embedder
from app.erasure import repository as repo
from app.erasure import stores
from app.erasure.models import ErasureJob, RetentionSetting
from app.erasure.targets import Targets
from app.errors import Conflict, NotFound
from app.jobs.names import RUN_ERASURE
from app.jobs.outbox import JobQueue
from app.models import Tenant
from app.settings import get_settings
from app.tenants import repository as tenants_repo
from app.tenants.service import CurrentTenant, get_tenant

FINAL = ("completed", "failed")


def create_job(
    session: Session,
    jobs: JobQueue,
    tenant_id: uuid.UUID,
    *,
    users: list[str] | None = None,
    subjects: list[str] | None = None,
    untouched_since: datetime | None = None,
    deletion_id: str | None = None,
) -> ErasureJob:
    """`deletion_id`: the tenant's own deletion request this whole-tenant erasure answers
    (app.account), kept in the scope so the job says who asked."""
    tenant = get_tenant(session, tenant_id, lock=True)
    if tenant.status == "erased" or (
        tenant.status == "erasing" and _has_unfinished_job(session, tenant_id)
    ):
        # An "erasing" tenant whose erasure failed may be erased again (it cannot be anything
        # else: erased is terminal), so a failed erasure never leaves it stuck.
        raise Conflict("this tenant is being erased or was erased", code="tenant_erased")
    kind = (
        "users"
        if users is not None
        else "subjects"
        if subjects is not None
        else "untouched"
        if untouched_since is not None
        else "tenant"
    )
    scope: dict[str, Any] = {
        "users": users,
        "subjects": subjects,
        "untouched_since": untouched_since.isoformat() if untouched_since else None,
    }
    if deletion_id is not None:
        scope["requested_by"] = "tenant"
        scope["account_deletion"] = deletion_id
    job = ErasureJob(id=f"erase_{uuid.uuid4().hex}", tenant_id=tenant_id, kind=kind, scope=scope)
    session.add(job)
    if kind == "tenant":
        # Nothing new arrives while it runs: keys revoked now, the tenant answers 403.
        tenants_repo.revoke_all_keys(session, tenant_id, datetime.now(UTC))
        tenant.status = "erasing"
    session.flush()
    jobs.add(RUN_ERASURE, job.id)
    return job


def _has_unfinished_job(session: Session, tenant_id: uuid.UUID) -> bool:
    return repo.has_job_not_in(session, tenant_id, FINAL)


def run_step(session: Session, jobs: JobQueue, job_id: str) -> str:
    """One step of a job; returns its status. Safe to run twice."""
    job = repo.lock_job(session, job_id)
    if job is None or job.status in FINAL:
        return "gone" if job is None else job.status
    client = get_redis()
    if job.status == "queued":
        targets = _resolve(session, job)
        job.targets = targets.to_json()
        job.samples = stores.sample_texts(session, targets)
        job.before = stores.count_all(session, client, targets)
        job.status, job.started_at = "running", datetime.now(UTC)
        job.progress = {"erased": 0, "to_erase": len(targets.subjects) + len(targets.users)}
        jobs.add(RUN_ERASURE, job.id)
        return job.status
    targets = Targets.from_json(job.tenant_id, job.targets or {})
    erased = stores.erase_chunk(session, client, targets, get_settings().erasure_chunk)
    progress = dict(job.progress or {})
    progress["erased"] = progress.get("erased", 0) + erased
    job.progress = progress
    if erased:
        jobs.add(RUN_ERASURE, job.id)
        return job.status
    if targets.whole:
        stores.erase_tenant_rest(session, client, job.tenant_id)
    _finish(session, client, job, targets)
    return job.status


def _resolve(session: Session, job: ErasureJob) -> Targets:
    scope = job.scope
    since = scope.get("untouched_since")
    return repo.resolve(
        session,
        job.tenant_id,
        whole=job.kind == "tenant",
        subjects=scope.get("subjects") or (),
        users=scope.get("users") or (),
        untouched_since=datetime.fromisoformat(since) if since else None,
    )


def _finish(session: Session, client: Any, job: ErasureJob, targets: Targets) -> None:
    session.flush()
    after = stores.count_all(session, client, targets)
    found = stores.residue(session, client, targets, job.samples or [], current_embedder())
    verified = all(count == 0 for name, count in after.items()) and not found
    job.proof = {
        "verified": verified,
        "stores": {
            name: {"before": (job.before or {}).get(name, 0), "after": count}
            for name, count in after.items()
        },
        "residue": found,
        "residue_scan": {
            "ids": len(targets.subjects) + len(targets.users),
            "text_samples": len(job.samples or []),
        },
        "kept_by_design": stores.kept_by_design(session, targets),
    }
    job.samples = None  # the erased text leaves with the job's end
    job.scope, job.targets = hashed_scope(job.scope), hashed_targets(job.targets)
    job.status, job.finished_at = "completed", datetime.now(UTC)
    if targets.whole:
        tenant = session.get(Tenant, job.tenant_id)
        if tenant is not None:
            tenant.status = "erased"
    record(
        session,
        CurrentTenant(job.tenant_id, "active"),
        "erasure.completed",
        ids=[job.id],
        counts={
            "subjects": len(targets.subjects),
            "users": len(targets.users),
            "verified": int(verified),
        },
    )


def describe(session: Session, job_id: str) -> dict[str, Any]:
    job = session.get(ErasureJob, job_id)
    if job is None:
        raise NotFound(f"no erasure job '{job_id}'", field="id")
    return {
        "id": job.id,
        "tenant_id": str(job.tenant_id),
        "kind": job.kind,
        "scope": job.scope,
        "status": job.status,
        "progress": job.progress,
        "proof": job.proof,
        "error": job.error,
        "created_at": job.created_at,
        "started_at": job.started_at,
        "finished_at": job.finished_at,
    }


def hashed_scope(scope: dict[str, Any]) -> dict[str, Any]:
    """The scope once the job has ended: each end-user id as `sha256:<hex>`, so the job keeps
    no erased id in clear, while whoever knows an id can still check it was erased."""
    users = scope.get("users")
    if not users:
        return scope
    return {**scope, "users": [_hashed(user) for user in users]}


def hashed_targets(targets: dict[str, Any] | None) -> dict[str, Any] | None:
    """The resolved targets once the job has ended, end-user ids hashed alike."""
    if not targets or not targets.get("users"):
        return targets
    return {**targets, "users": [[pk, _hashed(name)] for pk, name in targets["users"]]}


def _hashed(user: str) -> str:
    if user.startswith("sha256:"):
        return user
    return "sha256:" + hashlib.sha256(user.encode()).hexdigest()


def fail(session: Session, job_id: str, error: str) -> None:
    job = session.get(ErasureJob, job_id)
    if job is not None and job.status not in FINAL:
        job.status, job.error, job.finished_at = "failed", error[:500], datetime.now(UTC)
        job.samples = None
        job.scope, job.targets = hashed_scope(job.scope), hashed_targets(job.targets)


def set_retention(session: Session, tenant_id: uuid.UUID, days: int | None) -> None:
    get_tenant(session, tenant_id)
    row = session.get(RetentionSetting, tenant_id)
    if days is None:
        if row is not None:
            session.delete(row)
        return
    if row is None:
        session.add(RetentionSetting(tenant_id=tenant_id, days=days))
    else:
        row.days = days


def retention_sweep(session: Session, jobs: JobQueue) -> list[str]:
    """An untouched_since job for each tenant with a retention period, unless one is open."""

    created = []
    for setting in repo.retention_settings(session):
        tenant = session.get(Tenant, setting.tenant_id)
        if tenant is None or tenant.status != "active":
            continue
        open_job = repo.job_in(session, setting.tenant_id, ("queued", "running"))
        if open_job is not None:
            continue
        since = datetime.now(UTC) - timedelta(days=setting.days)
        created.append(create_job(session, jobs, setting.tenant_id, untouched_since=since).id)
    return created
