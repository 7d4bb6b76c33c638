"""The engines this process answers with, chosen by settings: the first engine of every decision
and the second tier that quality `balanced` and `best` ask again. One factory builds both."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pydantic import SecretStr

from app.embeddings.loader import current_embedder
from app.engines.base import Engine
from app.engines.embedded import EmbeddedEngine
from app.engines.systemone import SystemOneEngine
from app.settings import get_settings


def build_engine(
    kind: str,
    url: str | None,
    api_key: SecretStr | None,
    *,
    read_window_tokens: int,
    timeout: float,
) -> Engine:
    """The embedded engine, or a remote System One engine (settings validated url and key)."""
    if kind == "systemone":
        assert url is not None and api_key is not None
        return SystemOneEngine(
            url,
            api_key.get_secret_value(),
            read_window_tokens=read_window_tokens,
            timeout=timeout,
        )
    return EmbeddedEngine(current_embedder())


@lru_cache
def default_engine() -> Engine:
    settings = get_settings()
    return build_engine(
        settings.engine,
        settings.systemone_url,
        settings.systemone_api_key,
        read_window_tokens=settings.systemone_read_window_tokens,
        timeout=settings.systemone_timeout_seconds,
    )


@dataclass(frozen=True)
class SecondTier:
    """The engine, the model to ask of it, and the top probability balanced asks again under."""

    engine: Engine
    threshold: float
    model: str | None = None

    def model_name(self) -> str:
        """The configured model, or the engine's first (a remote engine is asked only now)."""
        return self.model or self.engine.models()[0]


@lru_cache
def configured_second_tier() -> SecondTier | None:
    settings = get_settings()
    if settings.second_tier_engine == "none":
        return None
    engine = build_engine(
        settings.second_tier_engine,
        settings.second_tier_url,
        settings.second_tier_api_key,
        read_window_tokens=settings.second_tier_read_window_tokens,
        timeout=settings.second_tier_timeout_seconds,
    )
    return SecondTier(engine, settings.second_tier_threshold, settings.second_tier_model)
