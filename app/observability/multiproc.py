"""The directory where a prefork worker's processes write their metric samples.

Kept apart from `metrics` on purpose: it must be set before prometheus_client is first imported,
which decides once per process whether samples go to memory or to files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"


@contextmanager
def multiprocess_dir() -> Iterator[Path]:
    """`PROMETHEUS_MULTIPROC_DIR` when set, else a new temporary directory removed at the end;
    either way empty at the start, since files left by an earlier run would be added to this
    one's counts."""
    given = os.environ.get(ENV)
    if given:
        path = Path(given)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink(missing_ok=True)
        yield path
        return
    path = Path(tempfile.mkdtemp(prefix="dossier-metrics-"))
    os.environ[ENV] = str(path)
    owner = os.getpid()
    try:
        yield path
    finally:
        # A forked pool process that unwinds this frame must not remove its parent's files.
        if os.getpid() == owner:
            shutil.rmtree(path, ignore_errors=True)
