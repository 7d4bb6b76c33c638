"""Load: N concurrent clients of one tenant (remember, decisions, knowledge search, batch
submissions) for a fixed time, while another tenant reads its account twice a second; against
`dossier serve` on the embedded default, then on this machine's PostgreSQL and Redis, then with
RabbitMQ as the broker. Prints throughput, p50/p99 per route, answers by status (timeouts too)
and the other tenant's latency, side by side.

    python ops/bench/load.py [--clients 50,200,500] [--seconds 20]
                              [--targets embedded,redis,rabbitmq]

The real-service targets use DOSSIER_BENCH_SERVER_URL (default
postgresql+psycopg://postgres@127.0.0.1:5432/postgres, a database of the run's own is made there),
DOSSIER_BENCH_REDIS_URL (default redis://127.0.0.1:6379/11) and DOSSIER_BENCH_AMQP_URL (default
amqp://guest:guest@127.0.0.1:5672/, a vhost of the run's own is made with rabbitmqctl).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.serving import serve_process, worker_process  # noqa: E402
from ops.bench.harness import percentiles  # noqa: E402

QUESTION = {
    "team": {
        "type": "choice",
        "instructions": "Which team handles the ticket?",
        "criteria": {
            "billing": "Invoices, refunds and payments",
            "cloud_ops": "The hosted cloud edition",
            "selfhosted_windows": "The self-hosted edition on Windows Server",
            "selfhosted_linux": "The self-hosted edition on Linux",
        },
    }
}
MIX = (("remember", 35), ("decision", 45), ("search", 15), ("batch", 5))
REQUEST_TIMEOUT = 30.0
GENERATOR_CLIENTS = 100
ADMIN_TOKEN = "load-bench-admin-token-0123456789"


@dataclass
class Run:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[str] = field(default_factory=Counter)
    other_ms: list[float] = field(default_factory=list)
    other_statuses: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    server_mean_ms: float = 0.0


async def _one(http: httpx.AsyncClient, kind: str, client_no: int, n: int) -> httpx.Response:
    subject = f"c{client_no}"
    if kind == "remember":
        text = f"Customer {client_no} note {n}: runs the self-hosted edition on Windows Server."
        return await http.post("/v1/memory/remember", json={"subject": subject, "text": text})
    if kind == "decision":
        body = {
            "model": "dossier-lexical-1",
            "state": {"ticket": f"Ticket {n}: the Windows installer fails after the upgrade."},
            "questions": QUESTION,
            "subject": subject,
        }
        return await http.post("/v1/systemone", json=body)
    if kind == "search":
        return await http.post(
            "/v1/knowledge/search", json={"query": "How fast are refunds paid?", "top_k": 5}
        )
    items = [
        {
            "custom_id": f"{client_no}-{n}-{i}",
            "body": {"model": "m", "state": f"t{i}", "questions": QUESTION},
        }
        for i in range(10)
    ]
    return await http.post("/v1/batches", json={"requests": items})


async def _client(http: httpx.AsyncClient, client_no: int, deadline: float, run: Run) -> None:
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    rng = random.Random(client_no)
    n = 0
    while time.monotonic() < deadline:
        kind = rng.choices(kinds, weights)[0]
        started = time.perf_counter()
        try:
            response = await _one(http, kind, client_no, n)
            status = str(response.status_code)
        except httpx.TimeoutException:
            response, status = None, "timeout"
        except httpx.HTTPError as exc:
            response, status = None, type(exc).__name__
        run.latencies[kind].append((time.perf_counter() - started) * 1000)
        run.statuses[status] += 1
        n += 1
        if response is not None and response.status_code == 503:  # as a polite client does
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))


def _other(url: str, key: str, seconds: float, out: multiprocessing.Queue) -> None:
    """Another tenant reading its account twice a second, from a process of its own: its
    latency is the server's, not this load generator's event loop."""
    latencies, statuses = [], Counter[str]()
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                status = str(http.get("/v1/account", timeout=REQUEST_TIMEOUT).status_code)
            except httpx.TimeoutException:
                status = "timeout"
            latencies.append((time.perf_counter() - started) * 1000)
            statuses[status] += 1
            time.sleep(0.5)
    out.put((latencies, dict(statuses)))


async def _drive(url: str, key: str, first: int, clients: int, seconds: float) -> Run:
    run = Run()
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(
        base_url=url,
        headers={"Authorization": f"Bearer {key}"},
        timeout=REQUEST_TIMEOUT,
        limits=limits,
    ) as http:
        started = time.monotonic()
        deadline = started + seconds
        await asyncio.gather(
            *(_client(http, i, deadline, run) for i in range(first, first + clients))
        )
        run.seconds = time.monotonic() - started
    return run


def _generator(
    url: str, key: str, first: int, clients: int, seconds: float, out: multiprocessing.Queue
) -> None:
    run = asyncio.run(_drive(url, key, first, clients, seconds))
    out.put((dict(run.latencies), dict(run.statuses), run.seconds))


def _server_totals(url: str) -> tuple[float, float]:
    """Seconds and count of every answered /v1 request, from the API's own histogram."""
    total = count = 0.0
    for line in httpx.get(f"{url}/metrics", timeout=30).text.splitlines():
        if 'route="/v1/' not in line:
            continue
        if line.startswith("dossier_http_request_duration_seconds_sum"):
            total += float(line.split()[-1])
        elif line.startswith("dossier_http_request_duration_seconds_count"):
            count += float(line.split()[-1])
    return total, count


def _measure(url: str, key: str, other_key: str, clients: int, seconds: float) -> Run:
    """Clients spread over generator processes of at most 100 each (one asyncio client with
    hundreds of connections spends more time in its own pool than the server does), plus the
    other tenant's process."""
    results: multiprocessing.Queue = multiprocessing.Queue()
    other_results: multiprocessing.Queue = multiprocessing.Queue()
    other = multiprocessing.Process(target=_other, args=(url, other_key, seconds, other_results))
    shares = [min(GENERATOR_CLIENTS, clients - i) for i in range(0, clients, GENERATOR_CLIENTS)]
    generators = [
        multiprocessing.Process(
            target=_generator, args=(url, key, i * GENERATOR_CLIENTS, n, seconds, results)
        )
        for i, n in enumerate(shares)
    ]
    before = _server_totals(url)
    for process in (other, *generators):
        process.start()
    run = Run()
    for _ in generators:
        latencies, statuses, elapsed = results.get(timeout=seconds + 120)
        for kind, samples in latencies.items():
            run.latencies[kind] += samples
        run.statuses.update(statuses)
        run.seconds = max(run.seconds, elapsed)
    run.other_ms, other_statuses = other_results.get(timeout=seconds + 60)
    run.other_statuses = Counter(other_statuses)
    for process in (other, *generators):
        process.join()
    after = _server_totals(url)
    answered = after[1] - before[1]
    run.server_mean_ms = (after[0] - before[0]) / answered * 1000 if answered else 0.0
    return run


def _prepare(url: str) -> tuple[str, str]:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    keys = []
    for name in ("load", "other"):
        created = httpx.post(
            f"{url}/v1/admin/tenants", json={"name": name, "credit": 1_000_000}, headers=admin
        )
        created.raise_for_status()
        keys.append(created.json()["api_key"])
    http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {keys[0]}"}, timeout=30)
    http.put("/v1/knowledge/settings", json={"enabled": True}).raise_for_status()
    http.post("/v1/collections", json={"name": "Docs"}).raise_for_status()
    http.post(
        "/v1/collections/docs/documents",
        json={"title": "Refunds", "text": "Refunds are paid within five business days."},
    ).raise_for_status()
    return keys[0], keys[1]


@contextmanager
def _target(name: str, folder: Path) -> Iterator[str]:
    # Only the serving settings pass through (DOSSIER_API_*), so a run can try other limits.
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DOSSIER_") or k.startswith("DOSSIER_API_")
    }
    base.update(
        DOSSIER_ADMIN_TOKEN=ADMIN_TOKEN, DOSSIER_LOG_FORMAT="text", DOSSIER_WORKER_METRICS_PORT="0"
    )
    if name == "embedded":
        with serve_process({**base, "DOSSIER_DATA_DIR": str(folder / "data")}) as url:
            yield url
        return
    with ExitStack() as stack:
        env = {
            **base,
            "DOSSIER_DATABASE_URL": stack.enter_context(_database()),
            "DOSSIER_REDIS_URL": os.environ.get(
                "DOSSIER_BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"
            ),
        }
        if name == "rabbitmq":
            env["DOSSIER_BROKER_URL"] = stack.enter_context(_vhost())
        url = stack.enter_context(serve_process(env))
        stack.enter_context(worker_process(env, concurrency=2))
        yield url


@contextmanager
def _database() -> Iterator[str]:
    server = make_url(
        os.environ.get(
            "DOSSIER_BENCH_SERVER_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
        )
    )
    name = f"dossier_load_{secrets.token_hex(4)}"
    admin = server.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    database_url = server.set(drivername="postgresql+psycopg", database=name)
    subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        env={
            **os.environ,
            "DOSSIER_DATABASE_URL": database_url.render_as_string(False),
            "DOSSIER_REDIS_URL": "redis://127.0.0.1:6379/11",
            "DOSSIER_LOG_FORMAT": "text",
        },
        check=True,
        capture_output=True,
    )
    try:
        yield database_url.render_as_string(False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _vhost() -> Iterator[str]:
    name = f"dossier-load-{secrets.token_hex(4)}"
    subprocess.run(["rabbitmqctl", "add_vhost", name], check=True, capture_output=True)
    subprocess.run(
        ["rabbitmqctl", "set_permissions", "-p", name, "guest", ".*", ".*", ".*"],
        check=True,
        capture_output=True,
    )
    try:
        base = os.environ.get("DOSSIER_BENCH_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
        yield base + name
    finally:
        subprocess.run(["rabbitmqctl", "delete_vhost", name], capture_output=True)


def _report(target: str, clients: int, run: Run) -> list[str]:
    total = sum(run.statuses.values())
    other_p50, other_p99 = percentiles(run.other_ms) if run.other_ms else (0.0, 0.0)
    routes = "  ".join(
        f"{kind} {p[0]:.0f}/{p[1]:.0f}"
        for kind, _ in MIX
        if run.latencies[kind]
        for p in [percentiles(run.latencies[kind])]
    )
    statuses = " ".join(f"{s}:{n}" for s, n in sorted(run.statuses.items()))
    served = sum(n for status, n in run.statuses.items() if status.startswith("2"))
    return [
        f"{target:<9} {clients:>4} {served / run.seconds:>6.0f} 2xx/s {total / run.seconds:>5.0f} "
        f"answers/s   {statuses}   server-side mean {run.server_mean_ms:.0f} ms",
        f"{'':<14} p50/p99 ms: {routes}",
        f"{'':<14} other tenant GET /v1/account: p50 {other_p50:.0f} ms, p99 {other_p99:.0f} ms, "
        f"max {max(run.other_ms, default=0):.0f} ms, "
        + " ".join(f"{s}:{n}" for s, n in sorted(run.other_statuses.items())),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="50,200,500")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--targets", default="embedded,redis,rabbitmq")
    args = parser.parse_args()
    counts = [int(n) for n in args.clients.split(",")]
    lines = []
    for target in args.targets.split(","):
        with tempfile.TemporaryDirectory(prefix="dossier-load-") as folder:
            with _target(target, Path(folder)) as url:
                key, other_key = _prepare(url)
                for clients in counts:
                    run = _measure(url, key, other_key, clients, args.seconds)
                    lines += _report(target, clients, run)
                    print("\n".join(lines[-3:]), flush=True)
    print(
        "\ntarget clients  served, answered  answers by status (one tenant), then p50/p99 per"
        " route, then the other tenant"
    )
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
