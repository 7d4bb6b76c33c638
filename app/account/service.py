"""A tenant's request to delete its own account.

The request suspends the account at once (status `deletion_requested`, apart from an operator's
`suspended`, so neither lifts the other): it reads, forgets and deletes, and writes nothing.
Through the grace period (DOSSIER_ACCOUNT_DELETION_GRACE_HOURS) the tenant may withdraw it; the
first sweep after it (beat, one leader) starts the whole-tenant erasure job, whose proof answers
the request, and the account's keys stop working. An operator may start it at once.

The audit log has the request's id, the erasure job's id and the grace period, never more.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.account import repository as repo
from app.account.models import AccountDeletion
from app.account.schemas import WITHDRAW
from app.audit.service import record
from app.erasure import service as erasure
from app.errors import Conflict, Invalid, NotFound
from app.jobs.outbox import JobQueue
from app.models import Tenant
from app.settings import get_settings
from app.tenants.service import CurrentTenant, get_tenant

SWEEP_LIMIT = 100
"""Requests one sweep starts; the rest wait for the next (each is one erasure job)."""

ERASURE_STATUS = {"queued": "erasing", "running": "erasing", "completed": "erased"}


def request(session: Session, tenant: CurrentTenant, confirm: str) -> AccountDeletion:
    """Suspend the account and schedule its erasure after the grace period."""
    row = get_tenant(session, tenant.id, lock=True)  # two requests at once make one
    if confirm.strip() not in (row.name, str(row.id)):
        raise Invalid(
            "type the account's name or its tenant id to confirm; nothing was changed",
            field="confirm",
            code="confirmation_mismatch",
        )
    already = repo.pending(session, tenant.id)
    if already is not None:
        raise Conflict(
            f"this account's deletion was already requested ('{already.id}', erased after "
            f"{already.erase_after.isoformat()}); {WITHDRAW} withdraws it",
            code="deletion_already_requested",
        )
    hours = get_settings().account_deletion_grace_hours
    deletion = AccountDeletion(
        id=f"del_{uuid.uuid4().hex}",
        tenant_id=tenant.id,
        erase_after=datetime.now(UTC) + timedelta(hours=hours),
    )
    session.add(deletion)
    if row.status == "active":
        # An operator's suspension stays as it is: it is stricter, and only the operator lifts it.
        row.status = "deletion_requested"
    session.flush()
    record(
        session,
        tenant,
        "account.deletion.requested",
        ids=[deletion.id],
        counts={"grace_hours": int(hours)},
    )
    return deletion


def withdraw(session: Session, tenant: CurrentTenant) -> AccountDeletion:
    """Keep the account: the request ends, and the account is active again unless an operator
    suspended it."""
    # The request's row first, then the tenant's: the sweep and the operator take them in this
    # order too, so a withdrawal at the end of the grace period cannot deadlock with them (it
    # waits for a sweep already starting the erasure, then finds nothing pending).
    deletion = repo.pending(session, tenant.id, lock=True)
    if deletion is None:
        raise NotFound("this account has no pending deletion request", code="no_pending_deletion")
    row = get_tenant(session, tenant.id, lock=True)
    deletion.status, deletion.withdrawn_at = "withdrawn", datetime.now(UTC)
    if row.status == "deletion_requested":
        row.status = "active"
    session.flush()
    record(session, tenant, "account.deletion.withdrawn", ids=[deletion.id])
    return deletion


def latest(session: Session, tenant_id: uuid.UUID) -> AccountDeletion:
    deletion = repo.latest(session, tenant_id)
    if deletion is None:
        raise NotFound("this account has no deletion request", code="no_deletion_request")
    return deletion


def sweep(session: Session, jobs: JobQueue) -> list[str]:
    """Start the erasure of every request past its grace period; returns the erasure jobs."""
    due = repo.due(session, datetime.now(UTC), SWEEP_LIMIT)
    return [_start(session, jobs, deletion, by="schedule") for deletion in due]


def run_now(session: Session, jobs: JobQueue, tenant_id: uuid.UUID) -> AccountDeletion:
    """The operator starts a request's erasure before its grace period ends, or again after its
    erasure failed."""
    get_tenant(session, tenant_id)
    deletion = repo.latest(session, tenant_id, lock=True)
    failed = (
        deletion is not None
        and deletion.status == "started"
        and repo.erasure_status(session, deletion.erasure_id) in ("failed", None)
    )
    if deletion is None or not (deletion.status == "pending" or failed):
        raise NotFound(
            "this tenant has no pending deletion request (nor one whose erasure failed)",
            field="tenant_id",
            code="no_pending_deletion",
        )
    _start(session, jobs, deletion, by="operator")
    return deletion


def _start(session: Session, jobs: JobQueue, deletion: AccountDeletion, *, by: str) -> str:
    tenant = get_tenant(session, deletion.tenant_id, lock=True)
    running = repo.tenant_erasure(session, tenant.id)
    if tenant.status in ("erasing", "erased") and running is not None:
        # An operator erased the whole tenant already (POST /v1/admin/erasures): that job, and
        # its proof, answer the request.
        job_id = running.id
    else:
        job_id = erasure.create_job(session, jobs, tenant.id, deletion_id=deletion.id).id
    deletion.status, deletion.started_at = "started", datetime.now(UTC)
    deletion.started_by, deletion.erasure_id = by, job_id
    session.flush()
    record(
        session,
        CurrentTenant(tenant.id, tenant.status),
        "account.deletion.erasing",
        ids=[deletion.id, job_id],
        counts={"by_operator": int(by == "operator")},
    )
    return job_id


def describe(session: Session, deletion: AccountDeletion) -> dict[str, Any]:
    tenant = session.get(Tenant, deletion.tenant_id)
    status = deletion.status
    if status == "started":
        job = repo.erasure_status(session, deletion.erasure_id)
        status = ERASURE_STATUS.get(job or "", "failed")
    return {
        "id": deletion.id,
        "tenant_id": str(deletion.tenant_id),
        "status": status,
        "account_status": tenant.status if tenant is not None else "erased",
        "requested_at": deletion.requested_at,
        "erase_after": deletion.erase_after,
        "withdrawn_at": deletion.withdrawn_at,
        "started_at": deletion.started_at,
        "started_by": deletion.started_by,
        "erasure_id": deletion.erasure_id,
        "withdraw": WITHDRAW if status == "pending" else None,
    }


def describe_latest(session: Session, tenant_id: uuid.UUID) -> dict[str, Any] | None:
    """The tenant's latest request, whatever became of it (the operator's view)."""
    deletion = repo.latest(session, tenant_id)
    return describe(session, deletion) if deletion is not None else None


def describe_pending(session: Session, tenant_id: uuid.UUID) -> dict[str, Any] | None:
    deletion = repo.pending(session, tenant_id)
    return describe(session, deletion) if deletion is not None else None


def pending_requests(session: Session, limit: int) -> list[AccountDeletion]:
    return repo.all_pending(session, limit)
