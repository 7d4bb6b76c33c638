"""The services a command runs on: configured ones, or the embedded PostgreSQL and Redis
under DOSSIER_DATA_DIR; a worker process beside the API; the API server itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.queues import QUEUES
from app.settings import Settings, get_settings
from app.watchdog import PARENT_ENV, stop_left_behind


@contextmanager
def services(settings: Settings, *, migrate: bool = False) -> Iterator[Settings]:
    """Real services when configured, else the embedded ones (always migrated), stopped on exit.
    `migrate` applies the migrations to configured services too."""
    from app.migrate import upgrade

    if not settings.embedded:
        if settings.database_url is None or settings.redis_url is None:
            sys.exit("set both DOSSIER_DATABASE_URL and DOSSIER_REDIS_URL, or neither (embedded)")
        if migrate:
            upgrade(settings.database_url)
        yield settings
        return
    from app import embedded

    # First, so that from here on nothing outlives this process, however it ends.
    watchdog = subprocess.Popen(
        [sys.executable, "-m", "app.watchdog", str(os.getpid()), str(settings.data_dir)],
        start_new_session=True,
    )
    try:
        running = embedded.start(settings.data_dir)
    except BaseException:
        watchdog.terminate()
        raise
    try:
        os.environ["DOSSIER_DATABASE_URL"] = running.database_url
        os.environ["DOSSIER_REDIS_URL"] = running.redis_url
        get_settings.cache_clear()
        upgrade(running.database_url)
        yield get_settings()
    finally:
        running.stop()
        # What the orderly stop left (a worker's pool child that outlived its main process, a
        # server slow to go under load) is stopped by the watchdog's own rules before it goes:
        # nothing of ours outlives this process.
        stop_left_behind(os.getpid(), settings.data_dir.resolve())
        watchdog.terminate()
        watchdog.wait()


GRACEFUL_SHUTDOWN_SECONDS = 5


def run_api(host: str, port: int) -> None:
    """Serve until SIGINT or SIGTERM, then return, so the caller stops the worker and the
    embedded servers (uvicorn alone re-raises the signal, and SIGTERM would skip that clean-up)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    # No log config of uvicorn's own: its lines go through Dossier's handler (JSON or text), and
    # the request middleware writes the access lines, with the request id.
    server = Server(
        uvicorn.Config(
            "app.main:create_app",
            factory=True,
            host=host,
            port=port,
            log_config=None,
            access_log=False,
            # Longer than clients' and load balancers' idle timeouts (httpx: 5 s), so the server
            # never closes a kept-alive connection just as a client sends on it.
            timeout_keep_alive=75,
            # Stopping is bounded: requests still running after this are cancelled.
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
    )
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, server.handle_exit)
    server.run()
    # Stopping the rest is bounded too; meanwhile a second Ctrl-C stops at once (a SIGTERM
    # ends the process, and the watchdog stops what it leaves).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


INGEST_QUEUE = "ingest"
OTHER_QUEUES = ",".join(queue for queue in QUEUES if queue != INGEST_QUEUE)


def spawn_worker(log_to: Path | None = None) -> list[subprocess.Popen[bytes]]:
    """The embedded default's workers beside the API, each in its own process group so Ctrl-C
    reaches us first and we stop them in order: one for documents (reading an untrusted file
    can take its whole time budget) and one for everything else, so a slow document never holds
    up a tenant's batches, erasures or learning. The second runs beat too: on one machine
    nothing else would send the sweeps (batch expiry, retention, storage metering, lost
    extraction batches, re-extraction, re-embedding)."""
    return [_worker(OTHER_QUEUES, log_to, beat=True), _worker(INGEST_QUEUE, log_to)]


def _worker(queues: str, log_to: Path | None, *, beat: bool = False) -> subprocess.Popen[bytes]:
    output = open(log_to, "ab") if log_to is not None else None  # noqa: SIM115
    command = ["worker", "--concurrency", "1", f"--queues={queues}", *(["--beat"] if beat else [])]
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", *command],
        # The watchdog finds the workers of a parent that died by this mark.
        env={**os.environ, PARENT_ENV: str(os.getpid())},
        start_new_session=True,
        stdout=output,
        stderr=output,
    )


WORKER_STOP_SECONDS = 8.0
"""A stopping worker's running task gets this long; then it is killed, and the task, not yet
acknowledged, is handed out again at the next start."""


def stop_worker(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM, then SIGKILL after `WORKER_STOP_SECONDS`; a Ctrl-C meanwhile kills at once."""
    running = [p for p in processes if p.poll() is None]
    for process in running:
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + WORKER_STOP_SECONDS
    try:
        for process in running:
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                pass
    finally:
        for process in running:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
