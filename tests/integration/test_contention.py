"""Contention: concurrent requests never spend the same credit twice (the credit is taken at
commit), and a request that waits on a lock past `lock_timeout` gets a 503 with Retry-After,
not a hang or a 500, and is not billed."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import httpx
import psycopg
from fastapi.testclient import TestClient

from tests.support import Services, Tenant, admin_headers, new_tenant


def test_forty_concurrent_writes_spend_ten_writes_of_credit_exactly(
    live_url: str, client: TestClient
) -> None:
    tenant = new_tenant(client, credit=0.001)  # ten one-line remembers at 0.0001
    with httpx.Client(base_url=live_url, headers=tenant.headers, timeout=60) as http:

        def write(i: int) -> int:
            body = {"subject": f"s{i}", "text": f"line {i}"}
            return http.post("/v1/memory/remember", json=body).status_code

        with ThreadPoolExecutor(max_workers=40) as pool:
            codes = list(pool.map(write, range(40)))
        ledger = http.get("/v1/ledger", params={"limit": 100}).json()["data"]
    assert codes.count(200) == 10 and codes.count(402) == 30, codes
    assert len(ledger) == 10 and all(line["billed"] for line in ledger)
    info = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers()).json()
    assert Decimal(info["credit"]) == 0


def test_a_request_behind_a_held_lock_gets_a_503_and_is_not_billed(
    services: Services, client: TestClient, tenant: Tenant
) -> None:
    client.post(
        "/v1/memory/remember", json={"subject": "held", "text": "first"}, headers=tenant.headers
    ).raise_for_status()
    with psycopg.connect(services.database_url.replace("+psycopg", "")) as holder:
        holder.execute(
            "SELECT id FROM subjects WHERE tenant_id = %s AND name = 'held' FOR UPDATE",
            (tenant.tenant_id,),
        )
        started = time.monotonic()
        response = client.post(
            "/v1/memory/remember",
            json={"subject": "held", "text": "second"},
            headers=tenant.headers,
        )
        waited = time.monotonic() - started
        holder.rollback()
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "1"
    assert response.json()["error"]["code"] == "unavailable"
    assert waited < 15  # the lock timeout (5 s), not forever
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["route"] for line in ledger] == ["memory.remember"]  # the first write only
    lines = client.get(
        "/v1/memory", params={"subject": "held", "lines": "true"}, headers=tenant.headers
    ).json()["lines"]
    assert lines == ["first"]


def test_the_credit_row_is_locked_only_at_the_commit(
    services: Services, client: TestClient, tenant: Tenant
) -> None:
    from app.db import session_scope
    from app.ledger.service import charge
    from app.tenants.service import CurrentTenant

    current = CurrentTenant(id=uuid.UUID(tenant.tenant_id), status="active")
    dsn = services.database_url.replace("+psycopg", "")
    with session_scope() as (session, _jobs):
        charge(session, current, route="test.charge", cost=Decimal("1"))
        savepoint = session.begin_nested()  # as extraction and ingest do around their charge
        savepoint.commit()
        with psycopg.connect(dsn) as other:
            other.execute("SET lock_timeout = '1s'")
            # Another request's charge goes through at once: nothing holds the tenant's row.
            other.execute(
                "UPDATE tenants SET credit = credit - 2 WHERE id = %s", (tenant.tenant_id,)
            )
            other.commit()
    info = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers()).json()
    assert Decimal(info["credit"]) == Decimal("10") - 3  # both taken, each once


def test_a_chunk_takes_the_credit_while_another_holds_rows_that_name_the_tenant(
    services: Services, client: TestClient, tenant: Tenant
) -> None:
    """Two batch chunks of one tenant each write rows that refer to the tenant (a foreign key
    check key-share-locks its row) and then lock its credit: the credit lock must not wait on
    those key-share locks, or each chunk waits on the other and they deadlock again and again
    (seen under load: a batch stalled at 1,175 of 1,200 items)."""
    from sqlalchemy import text

    from app.db import session_scope
    from app.ledger.repository import ChargeLine
    from app.ledger.service import charge_many

    dsn = services.database_url.replace("+psycopg", "")
    with psycopg.connect(dsn) as other:
        # what inserting a row with a foreign key to the tenant takes in another chunk
        other.execute("SELECT 1 FROM tenants WHERE id = %s FOR KEY SHARE", (tenant.tenant_id,))
        with session_scope() as (session, _jobs):
            session.execute(text("SET LOCAL lock_timeout = '2s'"))
            line = ChargeLine(route="systemone", cost=Decimal("1"))
            charged = charge_many(session, uuid.UUID(tenant.tenant_id), [line])
        other.rollback()
    assert charged == 1
    info = client.get(f"/v1/admin/tenants/{tenant.tenant_id}", headers=admin_headers()).json()
    assert Decimal(info["credit"]) == Decimal("10") - 1
