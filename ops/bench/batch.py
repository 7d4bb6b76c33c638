"""10,000 decisions on the embedded engine: the same chunks run in one in-process loop, then
through Celery with 1 and 2 worker processes; decisions per second and Celery's overhead.

    python ops/bench/batch.py [N]     # embedded services, or DOSSIER_DATABASE_URL/REDIS_URL
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ops.bench.harness import client, running_api  # noqa: E402

FINAL = {"completed", "failed", "expired", "cancelled"}


def requests(count: int, tag: str) -> list[dict]:
    return [
        {
            "custom_id": f"{tag}-{i}",
            "body": {
                "model": "dossier-lexical-1",
                "subject": f"customer-{i % 50}",
                "state": f"Ticket {i}: dashboards are slow and the upgrade to 5.2 failed.",
                "questions": {
                    "team": {
                        "type": "choice",
                        "criteria": {
                            "cloud_ops": "Cloud edition problems",
                            "selfhosted": "Self-hosted installs and upgrades",
                            "billing": "Invoices and seats",
                        },
                    }
                },
            },
        }
        for i in range(count)
    ]


def in_process(count: int) -> float:
    """The chunks a worker would run, called in this process one after another."""
    from app.batches import runner, service
    from app.batches.schemas import BatchIn
    from app.db import session_scope
    from app.models import Tenant
    from app.tenants.service import CurrentTenant

    with session_scope() as (session, jobs):
        tenant_id = session.query(Tenant.id).filter(Tenant.name == "bench").scalar()
        tenant = CurrentTenant(tenant_id, "active")
        batch_id = service.BatchService(session, jobs).create(
            tenant, BatchIn(requests=requests(count, "loop"))
        )["id"]
        jobs.discard()  # this loop runs the work itself
    with session_scope() as (session, jobs):
        service.validate(session, jobs, batch_id)
        chunks = [args for _, args in jobs.pending]
        jobs.discard()
    started = time.perf_counter()
    for batch, first, last in chunks:
        with session_scope() as (session, jobs):
            runner.run_chunk(session, jobs, batch, first, last)
            jobs.discard()
    return time.perf_counter() - started


def through_celery(http, count: int, processes: int) -> float:  # type: ignore[no-untyped-def]
    worker = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker", "--concurrency", str(processes)],
        env=dict(os.environ),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        from workers.celery import celery_app

        while not celery_app.control.ping(timeout=0.5):
            time.sleep(0.2)
        started = time.perf_counter()
        batch = http.post("/v1/batches", json={"requests": requests(count, f"c{processes}")}).json()
        while batch["status"] not in FINAL:
            time.sleep(0.1)
            batch = http.get(f"/v1/batches/{batch['id']}").json()
        elapsed = time.perf_counter() - started
        assert batch["request_counts"]["succeeded"] == count, batch
        return elapsed
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait()


def main(count: int = 10_000) -> None:
    with running_api() as bench, client(bench) as http:
        for i in range(50):
            http.post(
                "/v1/memory/remember",
                json={
                    "subject": f"customer-{i}",
                    "text": f"Customer {i} runs the self-hosted edition.\nCustomer {i} pays by invoice.",  # noqa: E501
                },
            ).raise_for_status()
        loop = in_process(count)
        one = through_celery(http, count, 1)
        two = through_celery(http, count, 2)
    print(f"{count:,} decisions on the embedded engine (memory, ledger and result rows included)")
    print(f"  in-process loop over the chunks      {count / loop:8.0f} decisions/s")
    print(
        f"  Celery, 1 worker process             {count / one:8.0f} decisions/s "
        f"(overhead ×{one / loop:.2f}, {(one - loop) / count * 1000:+.3f} ms per item)"
    )
    print(
        f"  Celery, 2 worker processes           {count / two:8.0f} decisions/s "
        f"({loop / two:.2f}× the in-process loop)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
