"""The `dossier` command: serve, worker, migrate, tenants.

With DOSSIER_DATABASE_URL and DOSSIER_REDIS_URL unset, `serve` starts the embedded PostgreSQL and
Redis under DOSSIER_DATA_DIR and a Celery worker beside the API, and stops all of them on Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

from app.settings import Settings, get_settings, load_settings_or_exit

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
    from pydantic import ValidationError

    from app.observability.logs import configure_logging

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
    serve.set_defaults(run=_serve)

    worker = commands.add_parser("worker", help="run a Celery worker")
    worker.add_argument("--concurrency", type=int, default=2)
    worker.add_argument("--queues", default="decisions,passes,extraction,ingest,erasure,scheduled")
    worker.set_defaults(run=_worker)

    demo = commands.add_parser("demo", help="the support-routing example, without and with memory")
    demo.add_argument(
        "--learn", action="store_true", help="learn the facts from the earlier tickets (the gate)"
    )
    demo.set_defaults(run=_demo)

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
        sub.set_defaults(run=_batch, action=name)

    erase = commands.add_parser("erase", help="erase a tenant, its end-users or its subjects")
    erase.add_argument("tenant_id")
    scope = erase.add_mutually_exclusive_group()
    scope.add_argument("--users", help="comma-separated end-user ids")
    scope.add_argument("--subjects", help="comma-separated subject ids")
    scope.add_argument("--untouched-since", help="YYYY-MM-DD: what was not read or written since")
    erase.add_argument("--wait", action="store_true", help="follow the job and print the proof")
    erase.set_defaults(run=_erase)

    gate = commands.add_parser("gate", help="the learned-memory gate").add_subparsers()
    calibrate = gate.add_parser("calibrate", help="choose the threshold from labelled examples")
    calibrate.add_argument("file", help='JSONL: {"request": <state>, "remember": true|false}')
    calibrate.add_argument("--apply", action="store_true", help="set it for the tenant")
    calibrate.add_argument("--held-out", type=float, default=0.3, help="share held out")
    calibrate.add_argument("--seed", type=int, default=0)
    calibrate.add_argument("--server", help="Dossier's URL; none: the embedded default")
    calibrate.add_argument("--key", default=os.environ.get("DOSSIER_API_KEY"), help="API key")
    calibrate.set_defaults(run=_gate_calibrate)

    migrate = commands.add_parser("migrate", help="apply the database migrations")
    migrate.set_defaults(run=_migrate)

    tenants = commands.add_parser("tenants", help="manage tenants").add_subparsers()
    create = tenants.add_parser("create", help="create a tenant and print its API key")
    create.add_argument("name")
    create.add_argument("--credit", type=Decimal, default=None)
    create.set_defaults(run=_tenants_create)

    keys = commands.add_parser("keys", help="manage API keys").add_subparsers()
    new = keys.add_parser("new", help="issue another key for a tenant")
    new.add_argument("tenant_id")
    new.set_defaults(run=_keys_new)
    revoke = keys.add_parser("revoke", help="revoke a key")
    revoke.add_argument("tenant_id")
    revoke.add_argument("key_id")
    revoke.set_defaults(run=_keys_revoke)
    return parser


@contextmanager
def services(settings: Settings, *, migrate: bool = False) -> Iterator[Settings]:
    """Real services when configured, else the embedded ones (always migrated), stopped on exit.
    `migrate` applies the migrations to configured services too."""
    from app.migrate import upgrade

    if not settings.embedded:
        if settings.database_url is None or settings.redis_url is None:
            sys.exit("set both DOSSIER_DATABASE_URL and DOSSIER_REDIS_URL, or neither (embedded)")
        if migrate:
            upgrade(settings.database_url)
        yield settings
        return
    from app import embedded

    running = embedded.start(settings.data_dir)
    try:
        os.environ["DOSSIER_DATABASE_URL"] = running.database_url
        os.environ["DOSSIER_REDIS_URL"] = running.redis_url
        get_settings.cache_clear()
        upgrade(running.database_url)
        yield get_settings()
    finally:
        running.stop()


def _serve(args: argparse.Namespace) -> None:
    settings = load_settings_or_exit()
    with services(settings, migrate=True):
        worker = None if args.no_worker or not settings.embedded else _spawn_worker()
        try:
            _run_api(args.host, args.port)
        finally:
            if worker is not None:
                _stop(worker)


def _run_api(host: str, port: int) -> None:
    """Serve until SIGINT or SIGTERM, then return, so the caller stops the worker and the
    embedded servers (uvicorn alone re-raises the signal, and SIGTERM would skip that clean-up)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    # No log config of uvicorn's own: its lines go through Dossier's handler (JSON or text), and
    # the request middleware writes the access lines, with the request id.
    server = Server(
        uvicorn.Config(
            "app.main:create_app",
            factory=True,
            host=host,
            port=port,
            log_config=None,
            access_log=False,
        )
    )
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, server.handle_exit)
    server.run()


def _spawn_worker(log_to: Path | None = None) -> subprocess.Popen[bytes]:
    """A worker process beside the API, in its own process group so Ctrl-C reaches us first
    and we stop it in order."""
    output = open(log_to, "ab") if log_to is not None else None  # noqa: SIM115
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker", "--concurrency", "1"],
        env=dict(os.environ),
        start_new_session=True,
        stdout=output,
        stderr=output,
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _worker(args: argparse.Namespace) -> None:
    from app.observability.multiproc import multiprocess_dir

    settings = load_settings_or_exit()
    # Set before prometheus_client is imported: the pool's processes then write their samples to
    # files that the main process's exporter merges (DOSSIER_WORKER_METRICS_PORT).
    with multiprocess_dir(), services(settings):
        from workers.celery import make_celery

        app = make_celery()
        app.worker_main(
            [
                "worker",
                "--loglevel=INFO",
                f"--concurrency={args.concurrency}",
                f"--queues={args.queues}",
                "--pool=prefork",
                "--without-gossip",
                "--without-mingle",
            ]
        )


def _demo(args: argparse.Namespace) -> None:
    """Runs on the embedded default (or configured services): its own tenant, the API over
    HTTP and a worker beside it, as `dossier serve` runs them."""
    import httpx

    from app.db import session_scope
    from app.demo.run import decide_later, learn_from_earlier, learned_table, run, table
    from app.serving import api_in_thread
    from app.tenants.service import create_tenant

    settings = load_settings_or_exit()
    logging.getLogger().setLevel(logging.WARNING)
    with services(settings, migrate=True) as live:
        with session_scope() as (session, _jobs):
            _tenant, key = create_tenant(session, "demo", live.initial_credit)
        worker = _spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
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
                _stop(worker)


def _batch(args: argparse.Namespace) -> None:
    import httpx

    from app.batches import client

    with _batch_server(args) as (url, key):
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


def _erase(args: argparse.Namespace) -> None:
    """Runs against the configured services (or the embedded default): creates the job, which a
    worker carries out; with --wait, a worker is started beside it on the embedded default."""
    import json
    import time
    import uuid
    from datetime import datetime

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
        worker = _spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
        try:
            while True:
                with session_scope() as (session, _jobs):
                    described = service.describe(session, job_id)
                if described["status"] in service.FINAL:
                    break
                time.sleep(0.5)
        finally:
            if worker is not None:
                _stop(worker)
        print(json.dumps({"status": described["status"], "proof": described["proof"]}, indent=2))


def _gate_calibrate(args: argparse.Namespace) -> None:
    import json

    import httpx

    examples = [
        json.loads(line) for line in Path(args.file).read_text().splitlines() if line.strip()
    ]
    body = {
        "examples": examples,
        "held_out_share": args.held_out,
        "seed": args.seed,
        "apply": args.apply,
    }
    with (
        _batch_server(args) as (url, key),
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=300) as http,
    ):
        response = http.post("/v1/gate/calibrate", json=body)
    if response.status_code != 200:
        sys.exit(f"error {response.status_code}: {response.text}")
    result = response.json()
    print(
        f"threshold {result['threshold']:.4f} (was {result['previous_threshold']:.4f}, "
        f"{'applied' if result['applied'] else 'not applied'})"
    )
    print(
        f"fitted on {result['fit_examples']}, held out {result['held_out_examples']}: "
        f"precision {_share(result['held_out_precision'])}, "
        f"recall {_share(result['held_out_recall'])}"
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


@contextmanager
def _batch_server(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
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
        worker = _spawn_worker(live.data_dir / "worker.log") if settings.embedded else None
        try:
            with api_in_thread() as url:
                yield url, key
        finally:
            if worker is not None:
                _stop(worker)


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


def _migrate(_: argparse.Namespace) -> None:
    settings = load_settings_or_exit()
    with services(settings, migrate=True):
        print("migrations applied")


def _tenants_create(args: argparse.Namespace) -> None:
    from app.db import session_scope
    from app.tenants.service import create_tenant

    settings = load_settings_or_exit()
    with services(settings) as live, session_scope() as (session, _):
        credit = args.credit if args.credit is not None else live.initial_credit
        tenant, key = create_tenant(session, args.name, credit)
        tenant_id = tenant.id
    print(f"tenant_id: {tenant_id}\napi_key:   {key.api_key}")


def _keys_new(args: argparse.Namespace) -> None:
    import uuid

    from app.db import session_scope
    from app.tenants.service import issue_key

    with services(load_settings_or_exit()), session_scope() as (session, _):
        key = issue_key(session, uuid.UUID(args.tenant_id))
    print(f"key_id:  {key.key_id}\napi_key: {key.api_key}")


def _keys_revoke(args: argparse.Namespace) -> None:
    import uuid

    from app.db import session_scope
    from app.tenants.service import revoke_key

    with services(load_settings_or_exit()), session_scope() as (session, _):
        revoke_key(session, uuid.UUID(args.tenant_id), uuid.UUID(args.key_id))
    print("revoked")


if __name__ == "__main__":
    main()
