"""An OpenAI-compatible chat endpoint upstream (`DOSSIER_CHAT_URL`): answers chat completions
and, with `DOSSIER_EXTRACTOR=llm`, extracts facts.

Failures become Dossier errors where they enter: a timeout is `UpstreamTimeout` (504), any
other failure `UpstreamFailed` (502), naming the status and the upstream's message, never its
key. Tests inject an `httpx` transport (MockTransport) or point it at a local server.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import httpx

from app.errors import UpstreamFailed, UpstreamTimeout
from app.settings import Settings, get_settings

MAX_MESSAGE = 200


class ChatClient:
    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """
        Args:
            base_url: the endpoint's root as OpenAI clients take it, e.g. https://host/v1.
            api_key: sent as `Authorization: Bearer <api_key>` when set.
            timeout: seconds to wait for an answer.
            transport: an `httpx` transport to use instead of the network (tests).
        """
        headers = {"Accept": "application/json", "User-Agent": "dossier"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            transport=transport,
        )

    @classmethod
    def from_settings(
        cls, settings: Settings, transport: httpx.BaseTransport | None = None
    ) -> ChatClient:
        if not settings.chat_url:
            raise ValueError("DOSSIER_CHAT_URL is not set")
        key = settings.chat_api_key.get_secret_value() if settings.chat_api_key else None
        return cls(
            settings.chat_url, key, timeout=settings.chat_timeout_seconds, transport=transport
        )

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /chat/completions; the upstream's answer, checked to hold a message."""
        try:
            response = self._client.post("/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise UpstreamTimeout("the chat endpoint did not answer in time") from exc
        except httpx.HTTPError as exc:
            raise UpstreamFailed(
                f"the chat endpoint could not be reached: {exc}"[:MAX_MESSAGE]
            ) from exc
        if response.status_code in (408, 504):
            raise UpstreamTimeout(f"the chat endpoint timed out ({response.status_code})")
        if response.status_code >= 400:
            raise UpstreamFailed(
                f"the chat endpoint answered {response.status_code}: {_message(response)}"
            )
        try:
            data = response.json()
        except ValueError as exc:
            raise UpstreamFailed(
                "the chat endpoint answered with something that is not JSON"
            ) from exc
        if not isinstance(data, dict) or not data.get("choices"):
            raise UpstreamFailed("the chat endpoint's answer has no choices")
        return data

    def close(self) -> None:
        self._client.close()


@lru_cache
def configured_client() -> ChatClient | None:
    """The chat endpoint of `DOSSIER_CHAT_URL`, one per process; None: the embedded answerer.
    Chat completions use it through the API and in batches on the workers alike."""
    settings = get_settings()
    return ChatClient.from_settings(settings) if settings.chat_url else None


def content_of(data: dict[str, Any]) -> str:
    """The first choice's message text."""
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise UpstreamFailed("the chat endpoint's answer has no message") from exc
    if not isinstance(content, str):
        raise UpstreamFailed("the chat endpoint's message has no text")
    return content


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
        message = body.get("error", {}).get("message") if isinstance(body, dict) else None
    except ValueError:
        message = None
    return str(message or response.text or response.reason_phrase)[:MAX_MESSAGE]
