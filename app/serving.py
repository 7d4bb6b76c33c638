"""Serve the API from a background thread (for `dossier demo`, benchmarks and tests that need
real HTTP in the same process), or `dossier serve` and `dossier worker` as processes of their own
(for tests and benchmarks of the service as it runs in production)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn

from app.main import create_app


@contextmanager
def api_in_thread(host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `create_app()` until the block ends; yields the base URL."""

    if port == 0:
        with socket.socket() as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the API did not start on {host}:{port}")
        time.sleep(0.05)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve_process(env: dict[str, str], *extra: str, ready_seconds: float = 120) -> Iterator[str]:
    """`dossier serve` in a process of its own (its own event loop, threads and pool, as in
    production); yields its base URL and stops it with SIGTERM (SIGKILL after 30 s)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
        + list(extra),
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_seconds
        while True:
            if process.poll() is not None:
                raise RuntimeError("dossier serve exited while starting")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("dossier serve did not answer in time")
            time.sleep(0.2)
        yield url
    finally:
        stop_group(process, 30)


@contextmanager
def worker_process(env: dict[str, str], concurrency: int = 2) -> Iterator[subprocess.Popen[bytes]]:
    """`dossier worker` in a process group of its own, killed at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker", "--concurrency", str(concurrency)],
        env=env,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        stop_group(process, 20)


def stop_group(process: subprocess.Popen[bytes], seconds: float) -> None:
    """SIGTERM to the process's group; SIGKILL if it is still there after `seconds`."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
