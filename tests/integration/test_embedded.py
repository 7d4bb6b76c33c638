"""The embedded default after its parent died: the next start reuses or stops what was left,
and its own stop leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil

from app import embedded


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
