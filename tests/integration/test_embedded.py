"""The embedded default after its parent died: the next start reuses or stops what was left,
and its own stop leaves no process behind."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import psutil

from app import embedded
from app.serving import free_port
from app.watchdog import PARENT_ENV

NOUL = {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}


def _processes_under(folder: Path) -> list[int]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if str(folder) in " ".join(process.info.get("cmdline") or []):
            found.append(process.pid)
    return found


def test_a_restart_after_a_killed_parent_leaves_nothing_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
            import time
            from pathlib import Path
            from app import embedded
            embedded.start(Path({str(data)!r}))
            print("up", flush=True)
            time.sleep(120)
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None and parent.stdout.readline().strip() == "up"
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert _processes_under(data), "the killed parent left its servers running"

    services = embedded.start(data)
    try:
        import psycopg
        import redis

        with psycopg.connect(services.database_url.replace("+psycopg", "")) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert redis.Redis.from_url(services.redis_url).ping()
    finally:
        services.stop()
    assert _processes_under(data) == []


def _serve(
    data: Path, port: int, log: Path | None = None, **settings: str
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOSSIER_")}
    env.update(
        DOSSIER_DATA_DIR=str(data),
        DOSSIER_ADMIN_TOKEN="embedded-test-admin-0123456789",
        DOSSIER_LOG_FORMAT="text",
        DOSSIER_WORKER_METRICS_PORT="0",
        **{f"DOSSIER_{name.upper()}": value for name, value in settings.items()},
    )
    output = log.open("ab") if log is not None else None
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        start_new_session=True,
        stdout=output,
        stderr=output,
    )
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, "dossier serve exited while starting"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline
        time.sleep(0.2)


def _everything_of(parent: int, data: Path) -> list[int]:
    """Every process the embedded default of `parent` started: its servers (their command lines
    name the data folder), its workers (marked with the parent's pid) and its watchdog."""
    found = set(_processes_under(data))
    for process in psutil.process_iter(["cmdline"]):
        try:
            if process.environ().get(PARENT_ENV) == str(parent):
                found.add(process.pid)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return sorted(found)


def _gone_within(parent: int, data: Path, seconds: float) -> float:
    started = time.monotonic()
    while _everything_of(parent, data):
        assert time.monotonic() - started < seconds, _everything_of(parent, data)
        time.sleep(0.25)
    return time.monotonic() - started


def test_nothing_outlives_a_sigkilled_serve_and_the_data_opens_next_time(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    serve = _serve(data, port)
    admin = {"Authorization": "Bearer embedded-test-admin-0123456789"}
    url = f"http://127.0.0.1:{port}"
    key = httpx.post(f"{url}/v1/admin/tenants", json={"name": "t"}, headers=admin).json()["api_key"]
    http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30)
    http.post("/v1/memory/remember", json={"subject": "s", "text": "Kept."}).raise_for_status()
    items = [
        {"custom_id": f"r{i}", "body": {"model": "m", "state": f"t{i}", "questions": NOUL}}
        for i in range(3000)
    ]
    batch = http.post("/v1/batches", json={"requests": items}).json()
    time.sleep(1.0)  # its chunks are running on the worker
    assert len(_everything_of(serve.pid, data)) >= 5  # watchdog, 2 workers (+ pools), servers
    os.kill(serve.pid, signal.SIGKILL)
    serve.wait()
    _gone_within(serve.pid, data, 15)

    again = _serve(data, port)
    try:
        assert http.get("/v1/memory", params={"subject": "s", "lines": "true"}).json()["lines"] == [
            "Kept."
        ]
        deadline = time.monotonic() + 120
        while http.get(f"/v1/batches/{batch['id']}").json()["status"] != "completed":
            assert time.monotonic() < deadline, "the batch did not finish after the restart"
            time.sleep(0.5)
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(timeout=30)
    _gone_within(again.pid, data, 15)


def test_sigterm_stops_everything_in_bounded_time_while_requests_hang(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    serve = _serve(data, port)
    hanging = []
    for _ in range(3):  # headers promise a body that never comes
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(
            b"POST /v1/memory/remember HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer x\r\nContent-Length: 1000\r\n\r\n{"
        )
        hanging.append(conn)
    time.sleep(0.5)
    started = time.monotonic()
    serve.send_signal(signal.SIGTERM)
    serve.wait(timeout=30)
    _gone_within(serve.pid, data, 20 - (time.monotonic() - started))
    assert time.monotonic() - started < 20
    for conn in hanging:
        conn.close()


def test_the_embedded_default_runs_the_scheduled_sweeps(tmp_path: Path) -> None:
    """`dossier serve` alone: its worker runs beat, so batch expiry, retention and the other
    sweeps happen with no other process (here the batch sweep, every second)."""
    data, port, log = tmp_path / "data", free_port(), tmp_path / "serve.log"
    serve = _serve(data, port, log, batch_sweep_seconds="1")
    try:
        deadline = time.monotonic() + 60
        while "dossier.scheduled.expire_batches" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.5)
    finally:
        os.kill(serve.pid, signal.SIGTERM)
        serve.wait(timeout=30)
    _gone_within(serve.pid, data, 15)


def test_a_process_the_orderly_stop_left_is_stopped_before_serve_exits(tmp_path: Path) -> None:
    """A worker's pool child that outlives its worker (here a stand-in marked as the workers are)
    is stopped by `dossier serve` itself on SIGTERM, by the watchdog's rules, before the watchdog
    is let go: nothing of ours is left running."""
    data, port = tmp_path / "data", free_port()
    serve = _serve(data, port)
    straggler = subprocess.Popen(
        ["sleep", "600"], env={**os.environ, PARENT_ENV: str(serve.pid)}, start_new_session=True
    )
    try:
        os.kill(serve.pid, signal.SIGTERM)
        serve.wait(timeout=60)
        # serve has exited: whatever it leaves, no watchdog is left to stop
        assert straggler.wait(timeout=5) is not None
    finally:
        if straggler.poll() is None:
            straggler.kill()
    _gone_within(serve.pid, data, 15)
