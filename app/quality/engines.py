"""The second-tier engine this process asks at balanced and best, chosen by settings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from app.embeddings.loader import current_embedder
from app.engines.base import Engine
from app.engines.embedded import EmbeddedEngine
from app.engines.systemone import SystemOneEngine
from app.quality.settings import get_second_tier_settings


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
    settings = get_second_tier_settings()
    engine: Engine
    if settings.engine == "none":
        return None
    if settings.engine == "systemone":
        assert settings.url is not None and settings.api_key is not None
        engine = SystemOneEngine(
            settings.url,
            settings.api_key.get_secret_value(),
            read_window_tokens=settings.read_window_tokens,
            timeout=settings.timeout_seconds,
        )
    else:
        engine = EmbeddedEngine(current_embedder())
    return SecondTier(engine, settings.threshold, settings.model)
