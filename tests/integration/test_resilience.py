"""Concurrency limits, Redis going away, the erasure job on a real worker, schema drift."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import redis
from fastapi.testclient import TestClient

from app.cache import SubjectCache, get_subject_cache
from tests.support import RedisProcess, Services, Tenant, admin_headers, new_tenant


def test_eight_concurrent_writers_never_pass_the_line_limit(
    live_url: str, client: TestClient
) -> None:
    tenant = new_tenant(client)
    with httpx.Client(base_url=live_url, headers=tenant.headers, timeout=60) as http:
        http.post(
            "/v1/memory/remember",
            json={"subject": "busy", "text": "\n".join(f"seed {i}" for i in range(9_000))},
        ).raise_for_status()

        def write(worker: int) -> int:
            text = "\n".join(f"w{worker} line {i}" for i in range(300))
            return http.post(
                "/v1/memory/remember", json={"subject": "busy", "text": text}
            ).status_code

        with ThreadPoolExecutor(max_workers=8) as pool:
            codes = list(pool.map(write, range(8)))
        count = http.get("/v1/memory", params={"subject": "busy"}).json()["line_count"]
    assert sorted(codes) == [200, 200, 200, 409, 409, 409, 409, 409]
    assert count == 9_900


@pytest.fixture
def private_redis(tmp_path: Path):
    """A Redis of this test's own, so the test can stop it."""
    server = RedisProcess(tmp_path)
    server.start()
    yield (
        server.process,
        redis.Redis(port=server.port, socket_timeout=0.5, socket_connect_timeout=0.5),
    )
    server.stop()


def test_redis_stopped_mid_test_loses_no_write(
    client: TestClient, tenant: Tenant, private_redis
) -> None:
    process, redis_client = private_redis
    app = client.app
    app.dependency_overrides[get_subject_cache] = lambda: SubjectCache(redis_client, 60)
    try:
        client.post(
            "/v1/memory/remember", json={"subject": "s", "text": "before"}, headers=tenant.headers
        ).raise_for_status()
        first = client.get(
            "/v1/memory", params={"subject": "s", "lines": "true"}, headers=tenant.headers
        )
        assert first.json()["lines"] == ["before"]
        assert redis_client.dbsize() == 1  # the read filled the cache

        process.kill()
        process.wait()
        written = client.post(
            "/v1/memory/remember", json={"subject": "s", "text": "during"}, headers=tenant.headers
        )
        assert written.status_code == 200
        rule = client.post(
            "/v1/memory/rules", json={"subject": "s", "text": "rule during"}, headers=tenant.headers
        )
        assert rule.status_code == 200
        after = client.get(
            "/v1/memory", params={"subject": "s", "lines": "true"}, headers=tenant.headers
        )
        assert after.status_code == 200
        assert after.json()["lines"] == ["before", "during"]
        assert [r["text"] for r in after.json()["rules"]] == ["rule during"]
    finally:
        app.dependency_overrides.clear()


def test_models_and_migrations_agree(services: Services) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from app.all_models import metadata
    from app.db import get_engine

    with get_engine().connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), metadata)
    assert diff == []


def test_admin_can_suspend_and_the_key_still_reads(client: TestClient) -> None:
    tenant = new_tenant(client)
    response = client.put(
        f"/v1/admin/tenants/{tenant.tenant_id}/status",
        json={"status": "gone"},
        headers=admin_headers(),
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "status"
