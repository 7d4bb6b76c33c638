"""Beat's knowledge sweeps and re-extraction, run in-process against the real database."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db import session_scope
from app.facts import sweeps as fact_sweeps
from app.facts.extraction import Extracted, Turn
from app.facts.models import ExtractionBatch, Fact
from app.facts.service import ExtractionService
from app.jobs.names import REEXTRACT_BATCH
from app.knowledge import sweeps
from app.knowledge.indexes import knowledge_indexes
from app.settings import get_settings
from app.tenants.service import CurrentTenant
from tests.knowledge_support import enable, facts
from tests.support import Tenant


class _Upper:
    """An extractor of its own name: every turn becomes one fact in capitals."""

    name = "test-upper-2"

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        return [Extracted(kind="fact", text=t.text.upper(), said_on=t.said_on) for t in turns]


def test_the_sweep_retires_facts_whose_end_day_came(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    yesterday = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    client.post(
        "/v1/users/mo/facts",
        json={"facts": [{"text": "Reach me at mo@example.com", "valid_until": yesterday}]},
        headers=tenant.headers,
    ).raise_for_status()
    assert facts(client, tenant, "mo", status="retired")[0]["retired_on"] == yesterday
    with session_scope() as (session, jobs):
        sweeps.sweep(session, jobs, get_settings())
    with session_scope() as (session, _):
        stored = session.scalars(
            select(Fact).where(Fact.tenant_id == uuid.UUID(tenant.tenant_id))
        ).one()
        assert (stored.status, stored.retired_on.isoformat()) == ("retired", yesterday)


def test_reextraction_replaces_a_batchs_facts_with_the_current_extractors(
    client: TestClient, tenant: Tenant
) -> None:
    enable(client, tenant)
    current = CurrentTenant(id=uuid.UUID(tenant.tenant_id), status="active")
    with session_scope() as (session, jobs):
        service = ExtractionService(session, jobs, get_settings(), knowledge_indexes())
        service.record_turns(current, "rex", "t", [("I live in Bern.", None)])
        jobs.discard()  # run it here, not on a worker
        batch_id = session.scalars(
            select(ExtractionBatch.id).where(ExtractionBatch.tenant_id == current.id)
        ).one()
    later = datetime.now(UTC) + timedelta(hours=1)
    with session_scope() as (session, jobs):
        service = ExtractionService(
            session, jobs, get_settings(), knowledge_indexes(), clock=lambda: later
        )
        from app.facts.embedded import EmbeddedExtractor

        assert service.run_batch(batch_id, EmbeddedExtractor()) is None
    assert [f["text"] for f in facts(client, tenant, "rex")] == ["Lives in Bern"]

    with session_scope() as (session, jobs):
        fact_sweeps.reextract(session, jobs, _Upper.name)
        # Other tests' batches are stale for this extractor too: look for this one.
        assert (REEXTRACT_BATCH, (batch_id,)) in jobs.pending
        jobs.discard()
    with session_scope() as (session, jobs):
        ExtractionService(session, jobs, get_settings(), knowledge_indexes()).rerun_batch(
            batch_id, _Upper()
        )
    assert [f["text"] for f in facts(client, tenant, "rex")] == ["I LIVE IN BERN."]
    with session_scope() as (session, jobs):
        fact_sweeps.reextract(session, jobs, _Upper.name)
        assert (REEXTRACT_BATCH, (batch_id,)) not in jobs.pending
        jobs.discard()
