"""The engine this process answers with, chosen by settings."""

from __future__ import annotations

from functools import lru_cache

from app.embeddings.loader import current_embedder
from app.engines.base import Engine
from app.engines.embedded import EmbeddedEngine
from app.engines.systemone import SystemOneEngine
from app.settings import get_settings


@lru_cache
def default_engine() -> Engine:
    settings = get_settings()
    if settings.engine == "systemone":
        assert settings.systemone_url is not None and settings.systemone_api_key is not None
        return SystemOneEngine(
            settings.systemone_url,
            settings.systemone_api_key.get_secret_value(),
            read_window_tokens=settings.systemone_read_window_tokens,
            timeout=settings.systemone_timeout_seconds,
        )
    return EmbeddedEngine(current_embedder())
