"""`dossier mcp`: the MCP server over stdio, for clients that start their servers as commands.

It acts for the tenant whose API key is in DOSSIER_API_KEY, checked at start and again on every
call (a revoked key stops working at once), on the services DOSSIER_DATABASE_URL and
DOSSIER_REDIS_URL name. The embedded default belongs to the `dossier serve` that started it;
connect to that server's `/mcp` over HTTP instead.
"""

from __future__ import annotations

import argparse
import os
import sys

from app.settings import load_settings_or_exit

KEY_ENV = "DOSSIER_API_KEY"


def run_mcp(_: argparse.Namespace) -> None:
    from app.deps import tenant_for_key
    from app.errors import DossierError
    from app.mcp.server import build_server

    api_key = os.environ.get(KEY_ENV, "").strip()
    if not api_key:
        sys.exit(f"set {KEY_ENV} to the API key of the tenant the tools act for")
    settings = load_settings_or_exit()
    if settings.database_url is None or settings.redis_url is None:
        sys.exit(
            "dossier mcp runs on configured services: set DOSSIER_DATABASE_URL and "
            "DOSSIER_REDIS_URL, or connect to a running server's /mcp over HTTP"
        )
    try:
        tenant_for_key(api_key)
    except DossierError as exc:
        sys.exit(f"{KEY_ENV}: {exc.message}")
    # stdout carries the protocol; the logs go to stderr (app.observability.logs).
    build_server(lambda _ctx: tenant_for_key(api_key)).run("stdio")
