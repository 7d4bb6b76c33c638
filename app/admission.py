"""Admission control: how many requests one API process works on at once, and who gets a slot.

Every admitted request holds at most one database connection and needs at most one worker
thread at a time, so with the thread pool and the connection pool both larger than the number of
slots, an admitted request never waits for either (the stall this prevents: requests holding
connections, and row locks, while they wait for a thread that requests waiting for connections
hold). Beyond the slots a request waits, in order, at most `queue_seconds`, then gets a fast
503 with `Retry-After`: never a hang.

One API key holds at most `client_share` of the slots, so one tenant's burst leaves room for the
others: their requests are admitted at once while the burst queues behind its own share.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from app.observability.metrics import count_rejected

UNLIMITED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Probes and scrapes: they must answer while the API is saturated (they take no slot)."""


@dataclass
class _Share:
    """One client's slots, and how many of its requests are admitted or waiting."""

    slots: asyncio.Semaphore
    users: int = 0


class AdmissionMiddleware:
    def __init__(
        self, app: ASGIApp, *, capacity: int, client_share: float, queue_seconds: float
    ) -> None:
        self.app = app
        self.capacity = capacity
        self.per_client = max(1, math.floor(capacity * client_share))
        self.queue_seconds = queue_seconds
        self._slots: asyncio.Semaphore | None = None
        self._shares: dict[str, _Share] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in UNLIMITED_PATHS:
            await self.app(scope, receive, send)
            return
        if self._slots is None:  # made in the server's event loop, on the first request
            self._slots = asyncio.Semaphore(self.capacity)
        key = _client_key(scope)
        share = self._shares.setdefault(key, _Share(asyncio.Semaphore(self.per_client)))
        share.users += 1
        deadline = asyncio.get_running_loop().time() + self.queue_seconds
        try:
            if not await _acquire(share.slots, deadline):
                await _overloaded(send, "this API key has too many requests in progress")
                return
            try:
                if not await _acquire(self._slots, deadline):
                    await _overloaded(send, "the service is busy")
                    return
                try:
                    await self.app(scope, receive, send)
                finally:
                    self._slots.release()
            finally:
                share.slots.release()
        finally:
            share.users -= 1
            if share.users == 0:
                del self._shares[key]


async def _acquire(slots: asyncio.Semaphore, deadline: float) -> bool:
    if not slots.locked():  # a free slot and nobody waiting: take it, whatever the deadline
        await slots.acquire()
        return True
    remaining = deadline - asyncio.get_running_loop().time()
    if remaining <= 0:
        return False
    try:
        await asyncio.wait_for(slots.acquire(), timeout=max(remaining, 0))
    except TimeoutError:
        return False
    return True


def _client_key(scope: Scope) -> str:
    """The bearer credential's hash (an API key or the admin token), else the peer address."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return hashlib.sha256(value).hexdigest()
    client = scope.get("client")
    return f"peer:{client[0]}" if client else "peer:unknown"


async def _overloaded(send: Send, reason: str) -> None:
    count_rejected()
    payload = json.dumps(
        {"error": {"code": "overloaded", "message": f"{reason}: retry in a moment"}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"retry-after", b"1"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
