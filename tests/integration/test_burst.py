"""One tenant's burst of 200 requests at once, against `dossier serve` on the embedded default:
each one answers 2xx or a fast 503 with Retry-After (no 500, no timeout), and another tenant's
request answers within a second meanwhile."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from pathlib import Path

import httpx

from app.serving import serve_process
from tests.support import ADMIN_TOKEN

DECISION = {
    "model": "dossier-lexical-1",
    "questions": {
        "team": {
            "type": "choice",
            "instructions": "Which team handles the ticket?",
            "criteria": {
                "billing": "Invoices, refunds and payments",
                "cloud_ops": "The hosted cloud edition",
                "selfhosted_windows": "The self-hosted edition on Windows Server",
            },
        }
    },
}


def _embedded_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOSSIER_")}
    env.update(
        DOSSIER_DATA_DIR=str(data_dir),
        DOSSIER_ADMIN_TOKEN=ADMIN_TOKEN,
        DOSSIER_LOG_FORMAT="text",
        DOSSIER_WORKER_METRICS_PORT="0",
    )
    return env


def _other_tenant(url: str, key: str, out: multiprocessing.Queue) -> None:
    """Another tenant's reads during the burst, from a process of its own, so what is timed is
    the server, not the burst's own event loop."""
    time.sleep(0.3)  # the burst is in flight
    seen = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        for _ in range(3):
            started = time.monotonic()
            status = http.get("/v1/account", timeout=30).status_code
            seen.append((status, time.monotonic() - started))
            time.sleep(0.2)
    out.put(seen)


async def _burst(url: str, burster: str) -> list[tuple[int, float, str | None]]:
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        headers = {"Authorization": f"Bearer {burster}"}

        async def one(i: int) -> tuple[int, float, str | None]:
            started = time.monotonic()
            if i % 2:
                response = await http.post(
                    "/v1/memory/remember",
                    json={"subject": f"s-{i}", "text": f"Customer {i} runs Windows Server."},
                    headers=headers,
                )
            else:
                body = {**DECISION, "state": f"Ticket {i}: the invoice is wrong", "subject": "acme"}
                response = await http.post("/v1/systemone", json=body, headers=headers)
            return (
                response.status_code,
                time.monotonic() - started,
                response.headers.get("retry-after"),
            )

        return list(await asyncio.gather(*(one(i) for i in range(200))))


def test_a_burst_of_200_gets_2xx_or_fast_503_and_another_tenant_is_served(
    tmp_path: Path,
) -> None:
    env = _embedded_env(tmp_path / "data")
    with serve_process(env) as url:
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        keys = [
            httpx.post(f"{url}/v1/admin/tenants", json={"name": n}, headers=admin, timeout=30)
            .raise_for_status()
            .json()["api_key"]
            for n in ("burst", "other")
        ]
        seen: multiprocessing.Queue = multiprocessing.Queue()
        other = multiprocessing.Process(target=_other_tenant, args=(url, keys[1], seen))
        other.start()
        results = asyncio.run(_burst(url, keys[0]))
        other_reads = seen.get(timeout=60)
        other.join()
        assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200

    statuses = sorted({status for status, _, _ in results})
    assert set(statuses) <= {200, 503}, statuses
    # How many are answered 200 is what the tenant's 8 slots get through in the 2 s a request
    # may wait: 100-130 on a quick 2-core machine, 72-98 on a slower one. A quarter is far
    # above the failure this guards against (before admission control: 3 answered).
    assert sum(1 for status, _, _ in results if status == 200) >= 50
    for status, seconds, retry_after in results:
        if status == 503:
            assert retry_after is not None
            # The 2 s wait, then the time a 2-core machine running both the server and these
            # 200 clients takes to answer them all (503s at 2.9-5 s on a slow one); before
            # admission control, 500s after 30 s and timeouts after 60.
            assert seconds < 8, "a 503 must come fast, not after a long wait"
    assert [status for status, _ in other_reads] == [200, 200, 200]
    assert max(seconds for _, seconds in other_reads) < 1.0, other_reads
