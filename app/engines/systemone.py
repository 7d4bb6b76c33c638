"""A remote System One endpoint as an engine: TypeSafe's hosted API or anything that speaks it.

Requests go out as `typesafe-sdk` sends them (Bearer key, JSON body, POST /v1/systemone) and
answers are validated with the same wire models Dossier serves, so a malformed answer is caught
here and never reaches a client. Every failure becomes a DossierError the API renders: a slow or
timed-out upstream is `UpstreamTimeout` (504), anything else that went wrong there is
`UpstreamFailed` (502); neither says more about the upstream than its status and message.

Retries: 408, 429 and 5xx answers and connection failures are tried again, at most `max_attempts`
times in all, waiting what the upstream's `retry-after` (seconds or an HTTP date) or
`retry-after-ms` asks, capped at `max_retry_wait`, or else an exponential backoff. A timeout is
not retried: an upstream that did not answer in `timeout` seconds is unlikely to answer the same
question faster, and the caller is waiting.

Several states: each state is one System One request (the API answers one state per call); they
are sent concurrently, up to `max_concurrency` at a time over one connection pool, so the explain
passes of a decision cost about one round trip, not one per line.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from email.utils import parsedate_to_datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx
from pydantic import ValidationError

from app.engines.base import estimate_subword_tokens
from app.engines.wire import (
    Answer,
    ModelMetadataList,
    Question,
    State,
    SystemOneRequest,
    SystemOneResponse,
)
from app.errors import UpstreamFailed, UpstreamTimeout
from app.validation import field_path

SYSTEM_ONE_PATH = "/v1/systemone"
MODELS_PATH = "/v1/models"
DEFAULT_MODEL = "jev-latest"

READ_WINDOW_TOKENS = 28_000
"""System One reads 32k tokens of state plus its longest question; this leaves room for the
question and for our token count being an estimate."""

TIMEOUT_STATUSES = frozenset({408, 504})
"""Statuses that say the upstream ran out of time: 504 for us too, not 502."""
MAX_MESSAGE_LENGTH = 200

WireModel = TypeVar("WireModel", SystemOneResponse, ModelMetadataList)


class SystemOneEngine:
    """Answers by calling a System One endpoint over HTTP."""

    name = "systemone"

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        read_window_tokens: int = READ_WINDOW_TOKENS,
        timeout: float = 30.0,
        connect_timeout: float = 5.0,
        max_attempts: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 10.0,
        max_concurrency: int = 8,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """
        Args:
            base_url: the endpoint's root, e.g. https://api.typesafe.ai.
            api_key: sent as `Authorization: Bearer <api_key>`.
            timeout: seconds to wait for each answer (read, write and pool).
            connect_timeout: seconds to wait for a connection.
            max_attempts: tries per request in all, the first included.
            backoff: first wait between tries when the upstream does not say; doubled each time.
            max_retry_wait: the longest wait between tries, whatever `retry-after` asks.
            max_concurrency: requests in flight at once when several states are asked together.
            transport: an `httpx` transport to use instead of the network (tests).
            sleep: how to wait between tries (tests pass a recorder).
        """
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.read_window_tokens = read_window_tokens
        self._base_url = base_url.rstrip("/")
        self._max_attempts = max_attempts
        self._backoff = backoff
        self._max_retry_wait = max_retry_wait
        self._max_concurrency = max(1, max_concurrency)
        self._sleep = sleep
        self._timeout = timeout
        self._models: list[str] | None = None
        self._client = httpx.Client(
            base_url=self._base_url,
            headers={
                "Authorization": f"Bearer {api_key}",
                "Accept": "application/json",
                "User-Agent": "dossier",
            },
            timeout=httpx.Timeout(timeout, connect=connect_timeout),
            transport=transport,
        )

    # --- Engine ----------------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        """An estimate that errs high: the upstream's tokenizer is not known here."""
        return estimate_subword_tokens(text)

    def models(self) -> list[str]:
        """The upstream's model names (GET /v1/models), fetched once."""
        if self._models is None:
            response = self._send("GET", MODELS_PATH, None)
            listing = self._parse(response, ModelMetadataList)
            self._models = [m.name for m in listing.models] or [DEFAULT_MODEL]
        return list(self._models)

    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        """Ask the upstream about each state; the first failure fails the whole call."""
        if len(states) <= 1:
            return [self._answer_one(model, state, questions) for state in states]
        workers = min(self._max_concurrency, len(states))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="systemone") as pool:
            return list(pool.map(lambda state: self._answer_one(model, state, questions), states))

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> SystemOneEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # --- one request -----------------------------------------------------------------------------

    def _answer_one(
        self, model: str, state: State, questions: Mapping[str, Question]
    ) -> dict[str, Answer]:
        request = SystemOneRequest(model=model, state=state, questions=dict(questions))
        response = self._send("POST", SYSTEM_ONE_PATH, request.model_dump(mode="json"))
        answers = self._parse(response, SystemOneResponse).answers
        result: dict[str, Answer] = {}
        for name, question in questions.items():
            answer = answers.get(name)
            if answer is None or answer.type != question.type:
                got = "nothing" if answer is None else f"a {answer.type} answer"
                raise UpstreamFailed(
                    f"{self._where()} answered {got} to the {question.type} question {name!r}"
                )
            result[name] = answer
        return result

    def _send(self, method: str, path: str, body: dict[str, Any] | None) -> httpx.Response:
        attempt = 0
        while True:
            attempt += 1
            last_try = attempt >= self._max_attempts
            try:
                response = self._client.request(method, path, json=body)
            except httpx.TimeoutException as exc:
                raise UpstreamTimeout(
                    f"{self._where()} did not answer within {self._timeout:g} s"
                ) from exc
            except httpx.TransportError as exc:
                if last_try:
                    raise UpstreamFailed(
                        f"{self._where()} could not be reached: {type(exc).__name__}"
                    ) from exc
                self._sleep(self._wait(attempt, None))
                continue
            except httpx.HTTPError as exc:  # an answer that could not be decoded, redirect loops
                raise UpstreamFailed(f"{self._where()} failed: {type(exc).__name__}") from exc
            if response.is_success:
                return response
            if last_try or not is_retryable(response.status_code):
                raise self._failure(response)
            self._sleep(self._wait(attempt, response.headers))

    def _wait(self, attempt: int, headers: httpx.Headers | None) -> float:
        asked = retry_after_seconds(headers) if headers is not None else None
        wait = asked if asked is not None else self._backoff * 2 ** (attempt - 1)
        return min(wait, self._max_retry_wait)

    def _failure(self, response: httpx.Response) -> UpstreamFailed | UpstreamTimeout:
        status = response.status_code
        message = f"{self._where()} answered {status}"
        detail = error_message(response)
        if detail:
            message += f": {detail}"
        if status in TIMEOUT_STATUSES:
            return UpstreamTimeout(message)
        return UpstreamFailed(message)

    def _parse(self, response: httpx.Response, model: type[WireModel]) -> WireModel:
        try:
            return model.model_validate_json(response.content)
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            where = field_path(error["loc"]) or "body"
            raise UpstreamFailed(
                f"{self._where()} answered with an invalid {where}: {error['msg']}"
            ) from exc

    def _where(self) -> str:
        return f"System One at {self._base_url}"


def is_retryable(status: int) -> bool:
    """Worth another try: rate limited, timed out, or a server error (as the SDK retries)."""
    return status in (408, 429) or status >= 500


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """What the upstream asks us to wait: `retry-after-ms`, or `retry-after` in seconds or as an
    HTTP date; None when it does not say (or says something unreadable)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms is not None:
        try:
            value = float(raw_ms)
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value / 1000
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        return max(0.0, when.timestamp() - time.time())
    return value if math.isfinite(value) and value >= 0 else None


def error_message(response: httpx.Response) -> str:
    """The upstream's own words about a failure, from the usual error shapes, shortened."""
    try:
        body = response.json()
    except ValueError:
        text = response.text.strip()
    else:
        text = _message_in(body)
    if len(text) > MAX_MESSAGE_LENGTH:
        text = text[:MAX_MESSAGE_LENGTH] + "…"
    return text


def _message_in(body: Any) -> str:
    if isinstance(body, str):
        return body
    if not isinstance(body, dict):
        return ""
    for key in ("error", "message", "detail"):
        value = body.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and isinstance(value.get("message"), str):
            return str(value["message"])
        if isinstance(value, list):
            # FastAPI's shape: [{"loc": ["body", "questions", ...], "msg": ...}, ...]
            return "; ".join(
                _located(e.get("loc"), e["msg"])
                for e in value
                if isinstance(e, dict) and isinstance(e.get("msg"), str)
            )
    return ""


def _located(loc: Any, message: str) -> str:
    parts = [p for p in loc[1:] if isinstance(p, int | str)] if isinstance(loc, list) else []
    path = field_path(parts)
    return f"{path}: {message}" if path else message
