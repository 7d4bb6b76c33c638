"""`dossier erase`: erase a tenant, its end-users or its subjects."""

from __future__ import annotations

import argparse
import json
import time
import uuid
from datetime import datetime

from app.cli.services import services, spawn_worker, stop_worker
from app.settings import load_settings_or_exit


def run_erase(args: argparse.Namespace) -> None:
    """Runs against the configured services (or the embedded default): creates the job, which a
    worker carries out; with --wait, a worker is started beside it on the embedded default."""

    from app.db import session_scope
    from app.erasure import service

    settings = load_settings_or_exit()
    with services(settings, migrate=True) as live:
        with session_scope() as (session, jobs):
            job = service.create_job(
                session,
                jobs,
                uuid.UUID(args.tenant_id),
                users=args.users.split(",") if args.users else None,
                subjects=args.subjects.split(",") if args.subjects else None,
                untouched_since=(
                    datetime.fromisoformat(args.untouched_since).astimezone()
                    if args.untouched_since
                    else None
                ),
            )
            job_id = job.id
        print(f"erasure job {job_id}")
        if not args.wait:
            return
        worker = spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
        try:
            while True:
                with session_scope() as (session, _jobs):
                    described = service.describe(session, job_id)
                if described["status"] in service.FINAL:
                    break
                time.sleep(0.5)
        finally:
            if worker is not None:
                stop_worker(worker)
        print(json.dumps({"status": described["status"], "proof": described["proof"]}, indent=2))
