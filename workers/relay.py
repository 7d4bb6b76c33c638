"""The outbox sweep in a worker's main process: jobs that tasks wrote while the broker was away
go out once it is back, even where no API process runs."""

from __future__ import annotations

from typing import Any

from celery import signals

from app.db import get_engine
from app.jobs.relay import RelayLoop
from app.settings import get_settings

_loop: RelayLoop | None = None


@signals.worker_ready.connect
def _start_relay(**_: Any) -> None:
    global _loop
    _loop = RelayLoop(get_engine(), get_settings().outbox_sweep_seconds).start()


@signals.worker_shutdown.connect
def _stop_relay(**_: Any) -> None:
    if _loop is not None:
        _loop.stop()
