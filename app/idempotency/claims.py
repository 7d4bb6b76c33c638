"""What an idempotency key names: the key checked, and the request reduced to a fingerprint.

Pure: no I/O. A retry must be recognised as the same request even when its client wrote it
differently: a JSON body is compared as parsed (key order and spacing do not count), and a
multipart body without its boundary, which clients draw at random for every send.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from email.message import Message
from typing import Any

from app.errors import Invalid

HEADER = "Idempotency-Key"
_KEY = re.compile(r"[\x21-\x7e]{1,255}")
"""Visible ASCII, 1–255 characters: what clients send (UUIDs, `retry-…` ids)."""
CANONICAL_BYTES = 1 << 20
"""JSON bodies up to this size are compared as parsed; a larger one (a batch of thousands of
requests, which a client retries by sending the same bytes) by its bytes."""


@dataclass(frozen=True)
class Claim:
    """A request that names an idempotency key: what the key's first answer is stored under."""

    tenant_id: uuid.UUID
    key: str
    fingerprint: str
    route: str
    status_code: int
    subject: str | None
    end_user: str | None


@dataclass(frozen=True)
class KeyedRequest:
    """A request that sent an idempotency key, as received: its claim is made from it later,
    off the event loop (reading a large body into a fingerprint takes a while)."""

    tenant_id: uuid.UUID
    key: str
    method: str
    path: str
    query: str
    content_type: str
    body: bytes
    route: str
    status_code: int
    end_user: str | None

    def claim(self) -> Claim:
        return Claim(
            tenant_id=self.tenant_id,
            key=self.key,
            fingerprint=fingerprint(
                self.method, self.path, self.query, self.content_type, self.body
            ),
            route=self.route,
            status_code=self.status_code,
            subject=subject_of(self.body, self.content_type),
            end_user=self.end_user,
        )


def checked_key(raw: str) -> str:
    if not _KEY.fullmatch(raw):
        raise Invalid(
            f"{HEADER} must be 1 to 255 visible ASCII characters",
            field=HEADER,
            code="invalid_idempotency_key",
        )
    return raw


def fingerprint(method: str, path: str, query: str, content_type: str, body: bytes) -> str:
    """The request as a retry of it would send it again."""
    digest = hashlib.sha256()
    for part in (method.upper(), path, query, _body_form(content_type, body)):
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\x00")
    return digest.hexdigest()


def subject_of(body: bytes, content_type: str) -> str | None:
    """The `subject` a JSON body names, if any: the answer stored for it may quote its lines.
    (The bodies that name one are small; a large body, a batch, is not read for it.)"""
    small_json = _media_type(content_type) == "application/json" and len(body) <= CANONICAL_BYTES
    parsed = _json(body) if small_json else None
    subject = parsed.get("subject") if isinstance(parsed, dict) else None
    return subject if isinstance(subject, str) else None


def _body_form(content_type: str, body: bytes) -> bytes:
    media = _media_type(content_type)
    if media == "application/json" and len(body) <= CANONICAL_BYTES:
        parsed = _json(body)
        if parsed is not None:
            return json.dumps(parsed, sort_keys=True, separators=(",", ":")).encode()
    if media == "multipart/form-data":
        boundary = _parameter(content_type, "boundary")
        if boundary:
            return body.replace(boundary.encode(), b"")
    return body


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _media_type(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def _parameter(content_type: str, name: str) -> str | None:
    message = Message()
    message["content-type"] = content_type
    value = message.get_param(name)
    return value if isinstance(value, str) else None
