"""What a log line is about: the request id (API and the tasks it caused) and the running task.

Context variables, so each request (its own asyncio task, copied into the threads FastAPI runs
sync routes in) and each Celery task sees only its own values.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar, Token
from dataclasses import dataclass

REQUEST_ID_HEADER = "X-Request-ID"
# The header travels into logs and Celery headers: a client's id is kept only if it is short and
# plain, so it can neither forge log fields nor split a header.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}")

request_id_var: ContextVar[str | None] = ContextVar("dossier_request_id", default=None)


@dataclass(frozen=True)
class TaskContext:
    name: str
    id: str


task_var: ContextVar[TaskContext | None] = ContextVar("dossier_task", default=None)


def current_request_id() -> str | None:
    return request_id_var.get()


def accept_request_id(sent: str | None) -> str:
    """The client's request id when it is a safe token, else a new one."""
    if sent is not None and _SAFE_ID.fullmatch(sent.strip()):
        return sent.strip()
    return uuid.uuid4().hex


def bind_request_id(request_id: str | None) -> Token[str | None]:
    return request_id_var.set(request_id)


def bind_task(name: str, task_id: str) -> Token[TaskContext | None]:
    return task_var.set(TaskContext(name, task_id))
