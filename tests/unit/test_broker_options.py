"""The Redis broker's options bring a killed worker's tasks back in seconds."""

from __future__ import annotations

from app.jobs.celery_app import broker_transport_options
from app.settings import Settings


def test_a_worker_killed_during_a_restore_scan_holds_its_lock_for_seconds_not_minutes() -> None:
    """kombu scans for dead workers' tasks under a lock in Redis that, by default, outlives a
    worker killed while holding it by 300 s: the batch test that SIGKILLs a worker then waited
    its 120 s for the last chunk (it failed so once in CI)."""
    options = broker_transport_options(Settings(task_time_limit_seconds=8), amqp=False)
    assert options["unacked_mutex_expire"] <= 10
    assert options["unacked_mutex_expire"] < options["visibility_timeout"]
