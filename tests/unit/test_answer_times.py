"""Answers typed after release keep writing their moments as they always did: Python's
isoformat ("…+00:00"), not pydantic's "Z", which a client comparing strings would see change."""

from __future__ import annotations

from datetime import UTC, datetime

from app.erasure.schemas import ErasureOut

MOMENT = datetime(2026, 11, 30, 19, 30, 0, 123456, tzinfo=UTC)


def test_an_erasure_job_writes_its_times_in_isoformat() -> None:
    job = ErasureOut(
        id="j",
        tenant_id="t",
        kind="subjects",
        scope={},
        status="done",
        progress=None,
        proof=None,
        error=None,
        created_at=MOMENT,
        started_at=MOMENT,
        finished_at=None,
    )
    written = job.model_dump(mode="json")
    assert written["created_at"] == written["started_at"] == "2026-11-30T19:30:00.123456+00:00"
    assert written["finished_at"] is None
