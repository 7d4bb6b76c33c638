"""`dossier demo`: the support-routing example, without and with memory."""

from __future__ import annotations

import argparse
import logging

import httpx

from app.cli.services import services, spawn_worker, stop_worker
from app.settings import load_settings_or_exit


def run_demo(args: argparse.Namespace) -> None:
    """Runs on the embedded default (or configured services): its own tenant, the API over
    HTTP and a worker beside it, as `dossier serve` runs them."""

    from app.db import session_scope
    from app.demo.run import decide_later, learn_from_earlier, learned_table, run, table
    from app.serving import api_in_thread
    from app.tenants.service import create_tenant

    settings = load_settings_or_exit()
    logging.getLogger().setLevel(logging.WARNING)
    with services(settings, migrate=True) as live:
        with session_scope() as (session, _jobs):
            _tenant, key = create_tenant(session, "demo", live.initial_credit)
        worker = spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
        try:
            with (
                api_in_thread() as url,
                httpx.Client(
                    base_url=url, headers={"Authorization": f"Bearer {key.api_key}"}, timeout=60
                ) as http,
            ):
                print(f"Dossier demo: support routing on the {settings.engine} engine ({url})\n")
                if args.learn:
                    print("The earlier tickets, each decided with learn: true; the gate:\n")
                    print(learned_table(learn_from_earlier(http)))
                    print("\nThe later messages, with what was learned:\n")
                    print(table(decide_later(http)))
                else:
                    print(table(run(http)))
        finally:
            if worker is not None:
                stop_worker(worker)
