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


def watch(parent: int, data_dir: Path) -> None:
    while _alive(parent):
        time.sleep(POLL_SECONDS)
    log.warning("dossier (pid %s) is gone: stopping what it started", parent)
    stop_left_behind(parent, data_dir)


def stop_left_behind(parent: int, data_dir: Path) -> None:
    """Stop the workers marked with `parent`, then the servers under `data_dir`."""
    _stop_all(_workers_of(parent), signal.SIGTERM, WORKER_GRACE_SECONDS, groups=True)
    _stop_all(_servers_under(data_dir, "redis-server"), signal.SIGTERM, SERVER_GRACE_SECONDS)
    _stop_all(_postmaster(data_dir), signal.SIGINT, SERVER_GRACE_SECONDS)


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


def _servers_under(data_dir: Path, name: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(process.info.get("cmdline") or [])
        if name in cmdline and str(data_dir) in cmdline:
            found.append(process)
    return found


def _postmaster(data_dir: Path) -> list[psutil.Process]:
    """The embedded PostgreSQL's main process, from its pid file (SIGINT to it is a fast,
    clean shutdown of every backend)."""
    for pid_file in (data_dir / "postgres").rglob("postmaster.pid"):
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            return [psutil.Process(pid)]
        except (OSError, ValueError, IndexError, psutil.NoSuchProcess):
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
    parent, data_dir = int(sys.argv[1]), Path(sys.argv[2])
    # Ctrl-C in the terminal reaches the whole foreground group; this one is in its own session,
    # and ignores the signals its parent handles itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch(parent, data_dir)


if __name__ == "__main__":
    main()
