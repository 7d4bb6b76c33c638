"""`dossier serve`, `dossier worker` and `dossier migrate`."""

from __future__ import annotations

import argparse
import sys

from app.cli.services import run_api, services, spawn_worker, stop_worker
from app.embeddings import EmbeddingsUnavailable, current_embedder
from app.settings import load_settings_or_exit


def load_embedder_or_exit() -> None:
    """The embedder, loaded before anything starts: a model that cannot load stops start-up
    with a message naming the setting (never a silent fall back to words alone)."""
    try:
        current_embedder()
    except EmbeddingsUnavailable as exc:
        sys.exit(f"Dossier cannot start: {exc}")


def run_serve(args: argparse.Namespace) -> None:
    settings = load_settings_or_exit()
    load_embedder_or_exit()
    with services(settings, migrate=True):
        worker = None if args.no_worker or not settings.embedded else spawn_worker()
        try:
            run_api(args.host, args.port)
        finally:
            if worker is not None:
                stop_worker(worker)


def run_worker(args: argparse.Namespace) -> None:
    from app.observability.multiproc import multiprocess_dir

    settings = load_settings_or_exit()
    load_embedder_or_exit()
    # Set before prometheus_client is imported: the pool's processes then write their samples to
    # files that the main process's exporter merges (DOSSIER_WORKER_METRICS_PORT).
    with multiprocess_dir(), services(settings):
        from workers.celery import make_celery

        app = make_celery()
        beat = []
        if args.beat:
            # Beat's schedule (when each sweep last ran) beside the data; every sweep takes an
            # advisory lock, so a second beat elsewhere does no harm.
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            beat = ["--beat", f"--schedule={settings.data_dir / 'celerybeat-schedule'}"]
        app.worker_main(
            [
                "worker",
                "--loglevel=INFO",
                f"--concurrency={args.concurrency}",
                f"--queues={args.queues}",
                "--pool=prefork",
                "--without-gossip",
                "--without-mingle",
                *beat,
            ]
        )


def run_migrate(_: argparse.Namespace) -> None:
    settings = load_settings_or_exit()
    with services(settings, migrate=True):
        print("migrations applied")
