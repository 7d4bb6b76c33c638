"""The key check in front of `/mcp`: the tenant's API key, exactly as the HTTP API checks it.

A request without a valid key is answered here (401, or 403 for an erased tenant) in Dossier's
error shape, before any of it reaches the MCP transport. A valid one carries its tenant on in the
ASGI scope, where each tool call reads it (`tenant_of`).
"""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.deps import bearer_token, tenant_for_key
from app.errors import DossierError, Unauthorized
from app.middleware import send_json
from app.tenants.service import CurrentTenant

TENANT_STATE = "dossier_tenant"
"""Key in the request's state (`scope["state"]`) of the authenticated tenant."""


class ApiKeyGate:
    """ASGI: authenticate the bearer key, then hand the request to the MCP transport."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            tenant = await anyio.to_thread.run_sync(tenant_for_key, _bearer(scope))
        except DossierError as exc:
            await send_json(send, exc.status_code, exc.to_dict(), _challenge(exc))
            return
        if scope["method"] == "GET":
            # The server never writes unasked (stateless, JSON answers), so it offers no
            # event stream; the transport's spec answer for that is 405.
            await send_json(
                send,
                405,
                {"error": {"code": "method_not_allowed", "message": "POST MCP messages here"}},
                [(b"allow", b"POST")],
            )
            return
        scope.setdefault("state", {})[TENANT_STATE] = tenant
        await self.app(scope, receive, send)


def tenant_of(request: Request | None) -> CurrentTenant:
    """The tenant `ApiKeyGate` authenticated for this request."""
    tenant = getattr(request.state, TENANT_STATE, None) if request is not None else None
    if not isinstance(tenant, CurrentTenant):  # only reachable if the gate was left out
        raise Unauthorized("send 'Authorization: Bearer <api key>'")
    return tenant


def _bearer(scope: Scope) -> str:
    header = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
    return bearer_token(header.decode("latin-1"))


def _challenge(exc: DossierError) -> list[tuple[bytes, bytes]]:
    return [(b"www-authenticate", b'Bearer realm="dossier"')] if exc.status_code == 401 else []
