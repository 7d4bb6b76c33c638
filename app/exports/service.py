"""Organisation-wide data export: everything a tenant holds, as a zip of JSON Lines.

queued → running: one step per task run, each committed, the task sent again through the
outbox until every section is read; a step reads one page (DOSSIER_EXPORT_CHUNK rows) of one
section and writes it as a part (app.exports.archive) → completed: the parts put together into
the archive, kept DOSSIER_EXPORT_KEEP_DAYS → expired: the sweep removed the file. A worker
that dies mid-step leaves that step rolled back and its part written again by the next
delivery. Rows deleted while the export runs (a forgotten fact, an erased end-user, a deleted
subject) are left out when the archive is put together.

The audit log has the export's id and its counts, never a line of what it holds.
"""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, BinaryIO

from sqlalchemy.orm import Session

from app.audit.service import record
from app.errors import Conflict, Gone, NotFound, ServiceUnavailable
from app.exports import archive
from app.exports import repository as repo
from app.exports.models import Export
from app.jobs.names import RUN_EXPORT
from app.jobs.outbox import JobQueue
from app.models import Tenant
from app.settings import get_settings
from app.tenants.service import CurrentTenant

FINAL = ("completed", "failed", "expired")
SECTION_NAMES = tuple(section.name for section in repo.SECTIONS)
_BY_NAME = {section.name: section for section in repo.SECTIONS}


def create(session: Session, jobs: JobQueue, tenant: CurrentTenant) -> Export:
    # The tenant's row, locked: two clicks at once make one export.
    session.get(Tenant, tenant.id, with_for_update=True)
    running = repo.unfinished_export(session, tenant.id)
    if running is not None:
        raise Conflict(
            f"export '{running.id}' is still {running.status}; wait for it to finish",
            code="export_in_progress",
        )
    export = Export(id=f"exp_{uuid.uuid4().hex}", tenant_id=tenant.id)
    session.add(export)
    session.flush()
    jobs.add(RUN_EXPORT, export.id)
    record(session, tenant, "export.requested", ids=[export.id])
    return export


def run_step(session: Session, jobs: JobQueue, export_id: str) -> str:
    """One step of an export; returns its status. Safe to run twice."""
    export = repo.lock_export(session, export_id)
    if export is None:
        return "gone"
    if export.status in FINAL:
        # The step after the last: the archive's commit is done, so its parts can go.
        archive.remove_parts(export.id)
        return export.status
    if export.status == "queued":
        export.status, export.started_at = "running", datetime.now(UTC)
        export.progress = {"section": 0, "after": None, "parts": [], "rows": 0}
        jobs.add(RUN_EXPORT, export.id)
        return export.status
    progress = dict(export.progress or {})
    if progress["section"] < len(repo.SECTIONS):
        _read_page(session, export, progress)
    else:
        _complete(session, export, progress)
    jobs.add(RUN_EXPORT, export.id)
    return export.status


def _read_page(session: Session, export: Export, progress: dict[str, Any]) -> None:
    chunk = get_settings().export_chunk
    section = repo.SECTIONS[progress["section"]]
    rows = section.read(session, export.tenant_id, progress["after"], chunk)
    if rows:
        part = f"{len(progress['parts']):06d}.{section.name}.jsonl"
        archive.write_part(export.id, part, rows)
        progress["parts"] = [*progress["parts"], [section.name, part]]
        progress["after"] = rows[-1][0]
        progress["rows"] += len(rows)
    if len(rows) < chunk:
        progress["section"], progress["after"] = progress["section"] + 1, None
    export.progress = progress


def _complete(session: Session, export: Export, progress: dict[str, Any]) -> None:
    now = datetime.now(UTC)

    def keep(section: str, keys: list[Any]) -> set[Any]:
        return repo.still_there(session, _BY_NAME[section], keys)

    started = export.started_at or now
    name, size, counts = archive.assemble(
        export.id,
        [(section, part) for section, part in progress["parts"]],
        SECTION_NAMES,
        keep,
        {
            "export_id": export.id,
            "tenant_id": str(export.tenant_id),
            "started_at": started.isoformat(),
            "finished_at": now.isoformat(),
        },
    )
    export.status, export.finished_at = "completed", now
    export.file, export.size_bytes, export.counts = name, size, counts
    export.expires_at = now + timedelta(days=get_settings().export_keep_days)
    record(
        session,
        CurrentTenant(export.tenant_id, "active"),
        "export.completed",
        ids=[export.id],
        counts=counts,
    )


def fail(session: Session, export_id: str, error: str) -> None:
    export = repo.lock_export(session, export_id)
    if export is None or export.status in FINAL:
        return
    export.status, export.error, export.finished_at = "failed", error[:500], datetime.now(UTC)
    archive.remove_parts(export.id)
    record(session, CurrentTenant(export.tenant_id, "active"), "export.failed", ids=[export.id])


def describe(export: Export, now: datetime | None = None) -> dict[str, Any]:
    now = now or datetime.now(UTC)
    expired = export.status == "expired" or (
        export.expires_at is not None and export.expires_at <= now
    )
    progress = export.progress or {}
    ready = export.status == "completed" and not expired
    return {
        "id": export.id,
        "object": "export",
        "status": "expired" if expired else export.status,
        "progress": {
            "sections_done": min(progress.get("section", 0), len(SECTION_NAMES)),
            "sections": len(SECTION_NAMES),
            "rows": progress.get("rows", 0),
        },
        "counts": export.counts,
        "size_bytes": export.size_bytes if ready else None,
        "error": export.error,
        "created_at": export.created_at,
        "started_at": export.started_at,
        "finished_at": export.finished_at,
        "expires_at": export.expires_at,
        "download_url": f"/v1/console/exports/{export.id}/download" if ready else None,
    }


def get(session: Session, tenant: CurrentTenant, export_id: str) -> Export:
    export = session.get(Export, export_id)
    if export is None or export.tenant_id != tenant.id:
        raise NotFound(f"no export '{export_id}'", field="id")
    return export


def recent(session: Session, tenant: CurrentTenant, limit: int) -> list[Export]:
    return repo.recent_exports(session, tenant.id, limit)


def open_download(
    session: Session, tenant: CurrentTenant, export_id: str
) -> tuple[Export, BinaryIO, int]:
    """The archive of a completed, unexpired export of this tenant, open for reading, and its
    size; the download goes in the audit log."""
    export = get(session, tenant, export_id)
    if export.status == "expired" or (
        export.expires_at is not None and export.expires_at <= datetime.now(UTC)
    ):
        raise Gone(
            f"export '{export_id}' expired at {export.expires_at:%Y-%m-%d %H:%M} UTC and its "
            "archive was removed; start a new export",
            code="export_expired",
        )
    if export.status != "completed" or export.file is None:
        raise Conflict(
            f"export '{export_id}' is {export.status}, not completed: there is nothing to "
            "download" + (" yet" if export.status in ("queued", "running") else ""),
            code="export_not_ready",
        )
    handle = archive.open_archive(export.file)
    if handle is None:
        raise ServiceUnavailable(
            "the archive is not in this server's export folder: the API and the workers must "
            "share DOSSIER_EXPORT_DIR",
            code="export_file_missing",
        )
    record(session, tenant, "export.downloaded", ids=[export.id])
    return export, handle, os.fstat(handle.fileno()).st_size


def sweep(session: Session) -> list[str]:
    """Remove the archives of exports past their expiry; the rows stay, status expired."""
    expired = []
    for export in repo.expired_exports(session, datetime.now(UTC)):
        archive.remove_archive(export.file)
        archive.remove_parts(export.id)
        export.status, export.file = "expired", None
        record(
            session, CurrentTenant(export.tenant_id, "active"), "export.expired", ids=[export.id]
        )
        expired.append(export.id)
    _remove_leftovers(session)
    return expired


def _remove_leftovers(session: Session) -> None:
    """Files no export needs any more: parts of an export that ended or went with its
    tenant, an archive whose export row is gone."""
    for export_id, paths in archive.files_on_disk().items():
        export = session.get(Export, export_id)
        for path in paths:
            if export is None or (path.suffix == ".parts" and export.status in FINAL):
                archive.remove(path)


def discard_for_tenant(session: Session, tenant_id: uuid.UUID) -> int:
    """A tenant erased whole: its exports' archives and rows go with it."""
    exports = repo.exports_of(session, tenant_id)
    for export in exports:
        archive.remove_archive(export.file)
        archive.remove_parts(export.id)
        session.delete(export)
    return len(exports)
