"""The second-tier engine's configuration, from `DOSSIER_SECOND_TIER_*` variables.

Kept apart from `app.settings` because only quality uses it: with no second tier configured
(`DOSSIER_SECOND_TIER_ENGINE` unset or `none`), a tenant cannot choose balanced or best.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SecondTierSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOSSIER_SECOND_TIER_", extra="ignore")

    engine: Literal["none", "embedded", "systemone"] = Field(
        default="none", description="the engine balanced and best ask again"
    )
    url: str | None = Field(default=None, description="its System One endpoint")
    api_key: SecretStr | None = None
    model: str | None = Field(default=None, description="the model to ask; default its first")
    threshold: float = Field(
        default=0.6, gt=0, le=1, description="balanced asks again below this top probability"
    )
    read_window_tokens: int = Field(default=28_000, ge=64)
    timeout_seconds: float = Field(default=60.0, gt=0)

    @model_validator(mode="after")
    def _remote_needs_url(self) -> SecondTierSettings:
        if self.engine == "systemone" and (not self.url or not self.api_key):
            raise ValueError(
                "DOSSIER_SECOND_TIER_ENGINE=systemone needs DOSSIER_SECOND_TIER_URL and _API_KEY"
            )
        return self


@lru_cache
def get_second_tier_settings() -> SecondTierSettings:
    return SecondTierSettings()
