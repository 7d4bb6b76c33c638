"""ASGI middleware: request bodies compressed with gzip or zstd, the body size limit, and text
PostgreSQL cannot store (NUL, lone surrogates) refused with a 422 naming its field.

typesafe-sdk compresses bodies of 1 KB or more with zstd; a decompression bomb must not get past
the size limit, so the limit applies to the decompressed body too. Decompression runs in threads
of its own (a few at once), never in the event loop: eight bombs at once must not stall
`/healthz`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

import anyio
import anyio.to_thread
import zstandard
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.text.storable import unstorable_field

DECODING_THREADS = 4
"""Bodies decompressed at once per process; more wait their turn, off the event loop."""


JSON_TYPES = ("application/json", "")
JSONL_TYPES = ("application/jsonl", "application/x-ndjson", "application/x-jsonlines")

INLINE_CHECK_BYTES = 1024 * 1024
"""Bodies larger than this are checked for unstorable text in a thread, off the event loop."""


class BodyTooLarge(Exception):
    pass


class RequestBodyMiddleware:
    def __init__(
        self, app: ASGIApp, max_body_bytes: int, larger: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.default_max = max_body_bytes
        self.larger = larger or {}
        self._decoders: anyio.CapacityLimiter | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = next(
            (size for prefix, size in self.larger.items() if scope["path"].startswith(prefix)),
            self.default_max,
        )
        # Latin-1, as HTTP defines header bytes: a header that is not UTF-8 is the route's to
        # refuse (an unknown key is a 401), never a decoding error here.
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        encoding = headers.get("content-encoding", "identity").strip().lower()
        try:
            body = await self._read(receive, limit)
            if encoding not in ("identity", "") and body:
                if self._decoders is None:  # made in the server's event loop
                    self._decoders = anyio.CapacityLimiter(DECODING_THREADS)
                body = await anyio.to_thread.run_sync(
                    self._decode, encoding, body, limit, limiter=self._decoders
                )
        except BodyTooLarge:
            await _error(
                send,
                413,
                "body_too_large",
                f"the request body is larger than {limit} bytes",
            )
            return
        except (OSError, EOFError, zlib.error, zstandard.ZstdError, ValueError) as exc:
            await _error(
                send, 400, "bad_encoding", f"the body could not be decoded as {encoding}: {exc}"
            )
            return
        except UnsupportedEncoding:
            await _error(
                send,
                415,
                "unsupported_encoding",
                f"Content-Encoding '{encoding}' is not supported: use gzip or zstd",
            )
            return
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind in JSON_TYPES or kind.endswith("+json") or kind in JSONL_TYPES:
            jsonl = kind in JSONL_TYPES
            if len(body) > INLINE_CHECK_BYTES:
                field = await anyio.to_thread.run_sync(unstorable_field, body, jsonl)
            else:
                field = unstorable_field(body, jsonl)
            if field is not None:
                await _error(
                    send,
                    422,
                    "unstorable_text",
                    f"{field or 'the body'}: text holds a NUL character or a lone surrogate, "
                    "which cannot be stored; nothing was changed",
                    field=field or None,
                )
                return
        if encoding != "identity":
            # In place, not on a copy: the outer request middleware reads the route the router
            # records in this scope (`scope["route"]`) to label its latency metric.
            scope["headers"] = [
                (k, v)
                for k, v in scope["headers"]
                if k.lower() not in (b"content-encoding", b"content-length")
            ] + [(b"content-length", str(len(body)).encode())]
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, limit: int) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    def _decode(self, encoding: str, body: bytes, limit: int) -> bytes:
        if encoding in ("identity", "") or not body:
            return body
        if encoding == "gzip":
            data = gunzip(body, limit + 1)
        elif encoding == "zstd":
            reader = zstandard.ZstdDecompressor().stream_reader(body)
            data = reader.read(limit + 1)
        else:
            raise UnsupportedEncoding
        if len(data) > limit:
            raise BodyTooLarge
        return data


class UnsupportedEncoding(Exception):
    pass


def gunzip(body: bytes, most: int) -> bytes:
    """At most `most` bytes of a gzip body (every member of it, as `gzip` reads them).

    One zlib call per member, which lets go of the GIL while it inflates: `gzip.GzipFile`
    inflates in small steps that each take the GIL back, and four bombs decoded that way starve
    the event loop's thread of it for a fifth of a second.
    """
    parts: list[bytes] = []
    rest = body
    while rest and most > 0:
        member = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        part = member.decompress(rest, most)
        if not member.eof and not member.unconsumed_tail and len(part) < most:
            raise EOFError("the gzip body ends before its last member does")
        parts.append(part)
        most -= len(part)
        rest = member.unused_data.lstrip(b"\0")  # gzip allows zero padding after a member
    return b"".join(parts)


async def _error(
    send: Send, status: int, code: str, message: str, field: str | None = None
) -> None:
    error = {"code": code, "message": message, **({"field": field} if field else {})}
    await send_json(send, status, {"error": error})


async def send_json(
    send: Send, status: int, body: object, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """A whole JSON answer sent straight through ASGI, for middleware that answers before
    the app (Dossier's error shape in `body`)."""
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
