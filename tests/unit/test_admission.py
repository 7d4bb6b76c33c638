"""Admission control on a plain ASGI app: a client past its share waits, then gets a 503 with
Retry-After; another client is admitted meanwhile; probes never wait."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.admission import AdmissionMiddleware


class Held:
    """An app whose requests stay in progress until released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.in_progress = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] != "/healthz":
            self.in_progress += 1
            await self.release.wait()
            self.in_progress -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


def test_a_client_past_its_share_gets_a_fast_503_and_another_client_gets_in() -> None:
    async def scenario() -> None:
        held = Held()
        app = AdmissionMiddleware(held, capacity=4, client_share=0.5, queue_seconds=0.3)
        async with _client(app) as http:
            a = {"Authorization": "Bearer a"}
            first = [asyncio.create_task(http.get("/x", headers=a)) for _ in range(2)]
            await asyncio.sleep(0.05)
            assert held.in_progress == 2
            loop = asyncio.get_running_loop()
            started = loop.time()
            third = await http.get("/x", headers=a)
            assert third.status_code == 503 and third.headers["retry-after"] == "1"
            assert third.json()["error"]["code"] == "overloaded"
            assert 0.25 <= loop.time() - started < 1.0
            other = asyncio.create_task(http.get("/x", headers={"Authorization": "Bearer b"}))
            await asyncio.sleep(0.05)
            assert held.in_progress == 3  # admitted at once, beside the first client's two
            # Every slot of a capacity of 4 is taken by a client or queued: a probe still passes.
            extra = asyncio.create_task(http.get("/x", headers={"Authorization": "Bearer c"}))
            await asyncio.sleep(0.05)
            assert held.in_progress == 4
            probe = await http.get("/healthz")
            assert probe.status_code == 200
            held.release.set()
            await extra
            assert [r.status_code for r in await asyncio.gather(*first, other)] == [200] * 3

    asyncio.run(scenario())


def test_a_waiting_request_is_admitted_when_a_slot_frees() -> None:
    async def scenario() -> None:
        held = Held()
        app = AdmissionMiddleware(held, capacity=1, client_share=1.0, queue_seconds=2.0)
        async with _client(app) as http:
            first = asyncio.create_task(http.get("/x"))
            await asyncio.sleep(0.05)
            second = asyncio.create_task(http.get("/x"))
            await asyncio.sleep(0.05)
            assert held.in_progress == 1
            held.release.set()
            assert [r.status_code for r in await asyncio.gather(first, second)] == [200, 200]

    asyncio.run(scenario())


def test_with_no_queue_a_free_slot_is_still_taken() -> None:
    async def scenario() -> None:
        held = Held()
        held.release.set()
        app = AdmissionMiddleware(held, capacity=2, client_share=1.0, queue_seconds=0)
        async with _client(app) as http:
            assert (await http.get("/x")).status_code == 200

    asyncio.run(scenario())
