"""`/mcp`: the MCP server over Streamable HTTP, behind the tenant's API key.

Stateless, with JSON answers: each POST carries one message and gets its answer in the same
response, so a call holds a request slot (`app.admission`) only while it runs, no session ties a
client to one API process, and the request-body middleware reads bodies as it reads any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp

from app.mcp.auth import ApiKeyGate, tenant_of
from app.mcp.server import build_server
from app.settings import Settings
from app.tenants.service import CurrentTenant

PATH = "/mcp"


@dataclass(frozen=True)
class McpEndpoint:
    app: ASGIApp
    """The ASGI app to route `/mcp` to: the key check, then the transport."""
    sessions: StreamableHTTPSessionManager
    """Runs in the API's lifespan: the transport's calls run in its task group."""


def mcp_endpoint(settings: Settings) -> McpEndpoint:
    """A new server for one app: its session manager runs once, in that app's lifespan."""
    server = build_server(_request_tenant)
    server.streamable_http_app(
        streamable_http_path=PATH,
        stateless_http=True,
        json_response=True,
        max_request_body_size=settings.max_body_bytes,
        # The SDK's DNS-rebinding guard (a Host allow-list) is for unauthenticated servers on
        # localhost; this endpoint answers only a request with the tenant's key, under any name
        # the API is served by.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    sessions = server.session_manager
    return McpEndpoint(app=ApiKeyGate(StreamableHTTPASGIApp(sessions)), sessions=sessions)


def _request_tenant(ctx: Context) -> CurrentTenant:
    return tenant_of(ctx.request_context.request)
