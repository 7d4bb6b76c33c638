"""Logs: one JSON object per line (`DOSSIER_LOG_FORMAT=json`, the default) or readable text.

Every record carries the request id, and in workers the task's name and id, from the context
variables of `app.observability.context`; fields passed with `extra=` are kept as JSON fields.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Literal

from app.observability.context import request_id_var, task_var

LogFormat = Literal["json", "text"]

# Attributes every LogRecord has: anything else on a record came from `extra=`. Uvicorn's
# `color_message` repeats the message with escape codes; Celery's `data` repeats the message's
# ids, with the task's arguments and return value, which belong in no log.
_NOT_FIELDS = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "request_id",
    "task_name",
    "task_id",
    "color_message",
    "data",
}


class ContextFilter(logging.Filter):
    """Copies the request id and the running task onto each record (on the handler, so records
    of every logger that propagates to it get them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        task = task_var.get()
        if getattr(record, "task_name", None) is None:
            record.task_name = task.name if task else None
            record.task_id = task.id if task else None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("request_id", "task_name", "task_id"):
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        for name, value in vars(record).items():
            if name not in _NOT_FIELDS and not name.startswith("_"):
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """For a person at a console: the usual line, with the request and task when there are."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        tags = []
        request_id = getattr(record, "request_id", None)
        task_name = getattr(record, "task_name", None)
        if request_id:
            tags.append(f"request_id={request_id}")
        if task_name:
            tags.append(f"task={task_name}[{getattr(record, 'task_id', None)}]")
        if not tags:
            return line
        first, newline, rest = line.partition("\n")
        return f"{first} [{' '.join(tags)}]{newline}{rest}"


def configure_logging(log_format: LogFormat = "json", level: int | str = logging.INFO) -> None:
    """One handler on the root logger, to stderr; every other logger propagates to it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # Uvicorn's and Celery's own loggers write through this handler rather than their own.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
