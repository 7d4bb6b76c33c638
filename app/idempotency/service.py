"""A key is claimed in the request's own transaction and answered in it, before the commit.

So the work and its stored answer commit together or not at all: a retry after a timeout finds
the first answer (and the work done once), and a retry after a failure finds the key free and
does the work. A retry sent while the first request still runs waits for it (PostgreSQL holds
the second claim on the first's uncommitted row), then replays its answer.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.encoders import jsonable_encoder
from sqlalchemy.orm import Session
from starlette.responses import Response

from app.errors import Conflict, Invalid
from app.idempotency import repository as repo
from app.idempotency.claims import HEADER, Claim


class Replay(Exception):  # noqa: N818 - not an error: the answer to send again
    """The key's first answer, to be sent again as it was (rendered by `app.main`)."""

    def __init__(self, status_code: int, body: Any) -> None:
        super().__init__(status_code)
        self.status_code = status_code
        self.body = body


def claim_or_replay(session: Session, claim: Claim, kept: timedelta) -> None:
    """Take the key for this request, or raise the first answer to it.

    Raises:
        Replay: the key answered this same request before.
        Invalid: the key was used for another request (another route or body).
        Conflict: the key's first request has no stored answer (it cannot be replayed).
    """
    if repo.take(session, claim, kept):
        return
    first = repo.stored(session, claim.tenant_id, claim.key)
    if first is None or first.status_code is None:
        raise Conflict(
            f"the first request with this {HEADER} has no answer to send again; "
            "send this one with a new key",
            code="idempotency_key_in_use",
        )
    if first.fingerprint != claim.fingerprint:
        raise Invalid(
            f"this {HEADER} was first used for another request (route or body); a retry must "
            "send the same request, and a new request needs a new key",
            field=HEADER,
            code="idempotency_key_reused",
        )
    raise Replay(first.status_code, first.body)


def record(session: Session, claim: Claim, result: Any) -> None:
    """Store the answer the route is about to send, in the request's transaction."""
    if isinstance(result, Response):
        raise TypeError("an idempotent route answers with data, not a Response")
    repo.answer(session, claim, jsonable_encoder(result))


def sweep(session: Session, kept: timedelta) -> int:
    """Remove the stored answers older than `kept`: past it, a retry is a new request."""
    return repo.delete_expired(session, kept)
