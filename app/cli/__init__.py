"""The `dossier` command: serve, worker, migrate, tenants.

With DOSSIER_DATABASE_URL and DOSSIER_REDIS_URL unset, `serve` starts the embedded PostgreSQL and
Redis under DOSSIER_DATA_DIR and a Celery worker beside the API, and stops all of them on Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from decimal import Decimal
from pathlib import Path

from pydantic import ValidationError

from app.cli.batch import run_batch
from app.cli.demo import run_demo
from app.cli.erase import run_erase
from app.cli.gate import run_gate_calibrate
from app.cli.knowledge import run_knowledge_import
from app.cli.mcp import run_mcp
from app.cli.serve import run_migrate, run_serve, run_worker
from app.cli.services import services
from app.cli.tenants import run_keys_new, run_keys_revoke, run_tenants_create
from app.observability.logs import configure_logging
from app.queues import QUEUES
from app.settings import get_settings

__all__ = ["main", "services"]

log = logging.getLogger("dossier")


def main(argv: list[str] | None = None) -> None:
    _configure_logging()
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        sys.exit(2)
    args.run(args)


def _configure_logging() -> None:
    """JSON lines unless DOSSIER_LOG_FORMAT=text; a bad setting is reported by the command
    that loads the settings, so here it only falls back to text."""

    try:
        log_format = get_settings().log_format
    except ValidationError:
        log_format = "text"
    configure_logging(log_format, logging.INFO)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dossier", description=__doc__)
    commands = parser.add_subparsers()

    serve = commands.add_parser("serve", help="serve the API (and, embedded, a worker)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-worker", action="store_true", help="embedded: start no worker")
    serve.set_defaults(run=run_serve)

    worker = commands.add_parser("worker", help="run a Celery worker")
    worker.add_argument("--concurrency", type=int, default=2)
    worker.add_argument("--queues", default=",".join(QUEUES))
    worker.add_argument(
        "--beat", action="store_true", help="also run beat, the scheduler of the sweeps"
    )
    worker.set_defaults(run=run_worker)

    demo = commands.add_parser("demo", help="the support-routing example, without and with memory")
    demo.add_argument(
        "--learn", action="store_true", help="learn the facts from the earlier tickets (the gate)"
    )
    demo.set_defaults(run=run_demo)

    batch = commands.add_parser("batch", help="run and follow batches").add_subparsers()
    for name, helptext in (
        ("run", "submit a JSONL file, follow it, write its results"),
        ("status", "show a batch"),
        ("results", "write a batch's results"),
        ("cancel", "cancel a batch"),
    ):
        sub = batch.add_parser(name, help=helptext)
        sub.add_argument("file" if name == "run" else "batch_id")
        sub.add_argument("--server", help="Dossier's URL; none: the embedded default")
        sub.add_argument("--key", default=os.environ.get("DOSSIER_API_KEY"), help="API key")
        if name in ("run", "results"):
            sub.add_argument("--out", type=Path, help="results file (JSONL)")
        if name == "run":
            sub.add_argument("--window", default="24h", help="completion window")
        sub.set_defaults(run=run_batch, action=name)

    erase = commands.add_parser("erase", help="erase a tenant, its end-users or its subjects")
    erase.add_argument("tenant_id")
    scope = erase.add_mutually_exclusive_group()
    scope.add_argument("--users", help="comma-separated end-user ids")
    scope.add_argument("--subjects", help="comma-separated subject ids")
    scope.add_argument("--untouched-since", help="YYYY-MM-DD: what was not read or written since")
    erase.add_argument("--wait", action="store_true", help="follow the job and print the proof")
    erase.set_defaults(run=run_erase)

    gate = commands.add_parser("gate", help="the learned-memory gate").add_subparsers()
    calibrate = gate.add_parser("calibrate", help="choose the threshold from labelled examples")
    calibrate.add_argument("file", help='JSONL: {"request": <state>, "remember": true|false}')
    calibrate.add_argument("--apply", action="store_true", help="set it for the tenant")
    calibrate.add_argument("--held-out", type=float, default=0.3, help="share held out")
    calibrate.add_argument("--seed", type=int, default=0)
    calibrate.add_argument("--server", help="Dossier's URL; none: the embedded default")
    calibrate.add_argument("--key", default=os.environ.get("DOSSIER_API_KEY"), help="API key")
    calibrate.set_defaults(run=run_gate_calibrate)

    knowledge = commands.add_parser("knowledge", help="end-user knowledge").add_subparsers()
    history = knowledge.add_parser("import", help="import an end-user's past conversations")
    history.add_argument("file", help='JSONL: {"text", "said_at": ISO 8601 with zone, "thread"?}')
    history.add_argument("--user", required=True, help="the end-user's id")
    history.add_argument("--server", help="Dossier's URL; none: the embedded default")
    history.add_argument("--key", default=os.environ.get("DOSSIER_API_KEY"), help="API key")
    history.set_defaults(run=run_knowledge_import)

    mcp = commands.add_parser(
        "mcp", help="the MCP server over stdio, for the tenant whose key is in DOSSIER_API_KEY"
    )
    mcp.set_defaults(run=run_mcp)

    migrate = commands.add_parser("migrate", help="apply the database migrations")
    migrate.set_defaults(run=run_migrate)

    tenants = commands.add_parser("tenants", help="manage tenants").add_subparsers()
    create = tenants.add_parser("create", help="create a tenant and print its API key")
    create.add_argument("name")
    create.add_argument("--credit", type=Decimal, default=None)
    create.set_defaults(run=run_tenants_create)

    keys = commands.add_parser("keys", help="manage API keys").add_subparsers()
    new = keys.add_parser("new", help="issue another key for a tenant")
    new.add_argument("tenant_id")
    new.set_defaults(run=run_keys_new)
    revoke = keys.add_parser("revoke", help="revoke a key")
    revoke.add_argument("tenant_id")
    revoke.add_argument("key_id")
    revoke.set_defaults(run=run_keys_revoke)
    return parser
