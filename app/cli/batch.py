"""`dossier batch run|status|results|cancel`, and the server they (and `dossier gate`) talk
to: one given on the command line, or the embedded default with a key of its own."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from app.cli.services import services, spawn_worker, stop_worker
from app.settings import Settings, load_settings_or_exit


def run_batch(args: argparse.Namespace) -> None:
    from app.batches import client

    with batch_server(args) as (url, key):
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=300
        ) as http:
            if args.action == "run":
                created = client.submit(http, Path(args.file), args.window)
                print(f"batch {created['id']}", file=sys.stderr)
                done = client.follow(http, created["id"])
                out = args.out or Path(args.file).with_suffix(".results.jsonl")
                lines = client.download(http, done["id"], out)
                print(f"{done['status']}: {lines} results written to {out}")
            elif args.action == "status":
                batch = client.status(http, args.batch_id)
                print(client.progress_line(batch, 0))
            elif args.action == "results":
                out = args.out or Path(f"{args.batch_id}.results.jsonl")
                print(f"{client.download(http, args.batch_id, out)} results written to {out}")
            else:
                print(client.cancel(http, args.batch_id)["status"])


@contextmanager
def batch_server(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """A server given on the command line, or the embedded default with its API and worker;
    the embedded default keeps a key of its own under DATA_DIR."""
    if args.server:
        if not args.key:
            sys.exit("give --key or set DOSSIER_API_KEY")
        yield args.server, args.key
        return
    from app.serving import api_in_thread

    settings = load_settings_or_exit()
    with services(settings) as live:
        key = args.key or _embedded_key(live)
        worker = spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
        try:
            with api_in_thread() as url:
                yield url, key
        finally:
            if worker is not None:
                stop_worker(worker)


def _embedded_key(settings: Settings) -> str:
    from app.db import session_scope
    from app.tenants.service import create_tenant

    path = settings.data_dir / "cli_api_key"
    if path.exists():
        return path.read_text().strip()
    with session_scope() as (session, _jobs):
        _tenant, key = create_tenant(session, "cli", settings.initial_credit)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(key.api_key)
    return key.api_key
