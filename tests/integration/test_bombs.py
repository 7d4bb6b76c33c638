"""Decompression runs off the event loop: eight gzip bombs at once are refused (413) while
`/healthz` keeps answering at once."""

from __future__ import annotations

import gzip
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.support import Tenant


def test_eight_gzip_bombs_do_not_stall_the_event_loop(live_url: str, tenant: Tenant) -> None:
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)  # 64 MiB in ~64 KB
    headers = {**tenant.headers, "content-encoding": "gzip", "content-type": "application/json"}

    def send(_: int) -> int:
        with httpx.Client(base_url=live_url, timeout=60) as http:
            return http.post("/v1/memory/remember", content=bomb, headers=headers).status_code

    probes: list[float] = []
    with ThreadPoolExecutor(max_workers=8) as pool, httpx.Client(base_url=live_url) as http:
        sent = [pool.submit(send, i) for i in range(8)]
        while not all(f.done() for f in sent):
            started = time.monotonic()
            assert http.get("/healthz", timeout=10).status_code == 200
            probes.append(time.monotonic() - started)
            time.sleep(0.01)
        codes = [f.result() for f in sent]
    assert codes == [413] * 8
    assert probes and max(probes) < 0.5, max(probes)
