"""What the benchmarks share: services (configured or embedded), a migrated database of their
own, the API served over real HTTP, and a tenant."""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
from sqlalchemy.engine import make_url


@dataclass
class Bench:
    url: str
    headers: dict[str, str]
    database_url: str
    redis_url: str
    tenant_id: str


@contextmanager
def running_api() -> Iterator[Bench]:
    database_url = os.environ.get("DOSSIER_DATABASE_URL")
    redis_url = os.environ.get("DOSSIER_REDIS_URL")
    embedded = None
    if not database_url or not redis_url:
        from app import embedded as embedded_services

        embedded = embedded_services.start(Path(tempfile.mkdtemp(prefix="dossier-bench-")))
        database_url, redis_url = embedded.database_url, embedded.redis_url
    url = make_url(database_url).set(drivername="postgresql+psycopg")
    name = f"dossier_bench_{secrets.token_hex(4)}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    bench_db = url.set(database=name).render_as_string(False)
    os.environ.update(DOSSIER_DATABASE_URL=bench_db, DOSSIER_REDIS_URL=redis_url)
    try:
        yield from _serve(bench_db, redis_url)
    finally:
        from app.db import get_engine

        get_engine().dispose()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if embedded is not None:
            embedded.stop()


def _serve(database_url: str, redis_url: str) -> Iterator[Bench]:
    from app.db import session_scope
    from app.migrate import upgrade
    from app.serving import api_in_thread
    from app.settings import get_settings
    from app.tenants.service import create_tenant

    upgrade(database_url)
    with session_scope() as (session, _):
        tenant, key = create_tenant(session, "bench", get_settings().initial_credit * 1000)
        tenant_id = str(tenant.id)
    with api_in_thread() as url:
        yield Bench(
            url=url,
            headers={"Authorization": f"Bearer {key.api_key}"},
            database_url=database_url,
            redis_url=redis_url,
            tenant_id=tenant_id,
        )


def client(bench: Bench) -> httpx.Client:
    return httpx.Client(base_url=bench.url, headers=bench.headers, timeout=120)


def percentiles(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return p50, p99
