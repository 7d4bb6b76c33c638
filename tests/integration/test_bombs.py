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
    # Every client is made (and its TLS context loaded) before the bombs go: building eight at
    # once in this process holds its GIL long enough to show up as a slow probe of the server.
    senders = [httpx.Client(base_url=live_url, timeout=60) for _ in range(8)]
    probe = httpx.Client(base_url=live_url, timeout=10)
    assert probe.get("/healthz").status_code == 200  # the probe's connection is open already

    def send(sender: httpx.Client) -> int:
        return sender.post("/v1/memory/remember", content=bomb, headers=headers).status_code

    probes: list[float] = []
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            sent = [pool.submit(send, sender) for sender in senders]
            while not all(f.done() for f in sent):
                started = time.monotonic()
                assert probe.get("/healthz").status_code == 200
                probes.append(time.monotonic() - started)
                time.sleep(0.01)
            codes = [f.result() for f in sent]
    finally:
        for client in (*senders, probe):
            client.close()
    assert codes == [413] * 8
    assert probes and max(probes) < 0.5, max(probes)
