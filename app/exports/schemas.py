"""Answers of the export routes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

EXPORT_ID = "exp_4b1d9c0e7a2f4e6b8d3c5a7f9e1b2d40"
EXPORT_EXAMPLE: dict[str, Any] = {
    "id": EXPORT_ID,
    "object": "export",
    "status": "completed",
    "progress": {"sections_done": 11, "sections": 11, "rows": 1520},
    "counts": {
        "subjects": 12,
        "lines": 840,
        "rules": 30,
        "aliases": 18,
        "users": 40,
        "facts": 410,
        "collections": 2,
        "documents": 9,
        "document_chunks": 131,
        "batches": 3,
        "batch_items": 25,
    },
    "size_bytes": 184_320,
    "error": None,
    "created_at": "2026-12-01T09:00:00Z",
    "started_at": "2026-12-01T09:00:01Z",
    "finished_at": "2026-12-01T09:00:09Z",
    "expires_at": "2026-12-08T09:00:09Z",
    "download_url": f"/v1/console/exports/{EXPORT_ID}/download",
}


class ExportProgress(BaseModel):
    sections_done: int
    sections: int
    rows: int
    """Rows read so far (rows deleted meanwhile are left out of the archive)."""


class ExportOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [EXPORT_EXAMPLE]})

    id: str
    object: Literal["export"] = "export"
    status: Literal["queued", "running", "completed", "failed", "expired"]
    progress: ExportProgress
    counts: dict[str, int] | None
    """Records per file of the archive, once completed."""
    size_bytes: int | None
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    expires_at: datetime | None
    download_url: str | None
    """Set while the archive can be downloaded."""


class ExportCreated(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"id": EXPORT_ID, "object": "export", "status": "queued"}]}
    )

    id: str
    object: Literal["export"] = "export"
    status: str


class ExportsList(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"data": [EXPORT_EXAMPLE]}]})

    data: list[ExportOut]
