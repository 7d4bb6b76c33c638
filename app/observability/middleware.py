"""ASGI middleware: the request id, request latency by route template, one access log line.

Outermost of Dossier's middleware, so it also times and tags the answers other middleware give
on its own (a body too large, an unknown encoding).
"""

from __future__ import annotations

import logging
import time

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability.context import REQUEST_ID_HEADER, accept_request_id, request_id_var
from app.observability.metrics import observe_request

access_log = logging.getLogger("dossier.access")

UNMATCHED = "unmatched"
# A client can send any method token: the label keeps to these, so it cannot grow without bound.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = dict(scope["headers"]).get(REQUEST_ID_HEADER.lower().encode())
        request_id = accept_request_id(sent.decode("latin-1") if sent is not None else None)
        # For the error handler outside this middleware, which answers an unexpected exception.
        scope.setdefault("state", {})["request_id"] = request_id
        token = request_id_var.set(request_id)
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append(REQUEST_ID_HEADER, request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._record(scope, status, time.perf_counter() - started)
        # Reset only after a normal answer: an exception goes on to the outer error handler,
        # whose log line should still carry the id (each request runs in a context of its own).
        request_id_var.reset(token)

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        route = self._route(scope)
        method = scope["method"]
        observe_request(method if method in METHODS else "OTHER", route, status, seconds)
        # The route's template, never the raw path: paths hold end-user ids (`/v1/users/{user}`),
        # which an erasure must leave nowhere, logs included.
        access_log.info(
            "%s %s %s %.1fms",
            method,
            route,
            status,
            seconds * 1000,
            extra={
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
            },
        )

    @staticmethod
    def _route(scope: Scope) -> str:
        """The template of the route that answered (`/v1/batches/{batch_id}`), never the raw
        path: a label per id would grow without bound. The router records the route it chose in
        the scope (inner middleware must not hand it a copy)."""
        return str(getattr(scope.get("route"), "path", None) or UNMATCHED)
