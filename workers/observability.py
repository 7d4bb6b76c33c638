"""Logs and metrics of Celery workers, wired through Celery's signals.

- `setup_logging`: the worker logs like the API (`DOSSIER_LOG_FORMAT`), Celery's own lines too.
- `before_task_publish`: a task sent while handling a request or a task carries its request id
  in the `request_id` header (`JobQueue.send` sets it; this also covers retries).
- `task_prerun` / `task_postrun`: the request id, task name and id go into the logging context;
  the task's duration is observed by final state. `task_failure` counts failures.
- `worker_ready`: the main process serves `/metrics` on `DOSSIER_WORKER_METRICS_PORT`, merging
  the samples its forked pool processes write under `PROMETHEUS_MULTIPROC_DIR` (see `dossier
  worker`, which prepares that directory before anything imports prometheus_client).
"""

from __future__ import annotations

import logging
import os
import time
from contextvars import Token
from typing import Any

from celery import signals
from prometheus_client import multiprocess, start_http_server

from app.observability import metrics
from app.observability.context import (
    TaskContext,
    bind_request_id,
    bind_task,
    current_request_id,
    request_id_var,
    task_var,
)
from app.observability.logs import configure_logging
from app.settings import get_settings

log = logging.getLogger(__name__)

REQUEST_ID_HEADER = "request_id"

# Per pool process: what task_prerun bound, undone by task_postrun, by task id.
_running: dict[str, tuple[float, Token[str | None], Token[TaskContext | None]]] = {}
_server: Any = None


@signals.setup_logging.connect
def _setup_logging(loglevel: Any = None, **_: Any) -> None:

    configure_logging(get_settings().log_format, loglevel or logging.INFO)


@signals.before_task_publish.connect
def _carry_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    request_id = current_request_id()
    if headers is not None and request_id and not headers.get(REQUEST_ID_HEADER):
        headers[REQUEST_ID_HEADER] = request_id


@signals.task_prerun.connect
def _task_started(task_id: str = "", task: Any = None, **_: Any) -> None:
    request_id = task.request.get(REQUEST_ID_HEADER) if task is not None else None
    name = getattr(task, "name", "unknown")
    _running[task_id] = (time.perf_counter(), bind_request_id(request_id), bind_task(name, task_id))


@signals.task_postrun.connect
def _task_finished(task_id: str = "", task: Any = None, state: str | None = None, **_: Any) -> None:
    started = _running.pop(task_id, None)
    if started is None:
        return
    began, request_token, task_token = started
    name = getattr(task, "name", "unknown")
    metrics.observe_task(name, state or "UNKNOWN", time.perf_counter() - began)
    task_var.reset(task_token)
    request_id_var.reset(request_token)


@signals.task_failure.connect
def _task_failed(sender: Any = None, exception: BaseException | None = None, **_: Any) -> None:
    name = getattr(sender, "name", "unknown")
    metrics.count_task_failure(name, type(exception).__name__ if exception else "unknown")


@signals.worker_ready.connect
def _serve_metrics(**_: Any) -> None:
    global _server

    port = get_settings().worker_metrics_port
    if port == 0:
        return
    if metrics.multiprocess_dir() is None:
        log.warning(
            "PROMETHEUS_MULTIPROC_DIR is not set: /metrics on port %s shows only the main "
            "process, not the tasks its pool runs (start workers with `dossier worker`)",
            port,
        )
    try:
        _server, _thread = start_http_server(port, registry=metrics.process_registry())
    except OSError as exc:
        # Another worker on this host has the port: this one runs on, without its own exporter.
        log.warning("worker metrics not served on port %s: %s", port, exc)
        return
    log.info("worker metrics on port %s", port)


@signals.worker_process_shutdown.connect
def _pool_process_gone(pid: int | None = None, **_: Any) -> None:
    if metrics.multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid or os.getpid())


@signals.worker_shutdown.connect
def _stop_metrics(**_: Any) -> None:
    global _server
    if _server is not None:
        _server.shutdown()
        _server = None
