"""All configuration, read once from `DOSSIER_*` environment variables.

A bad value stops start-up with a message naming the variable, rather than failing later in a
request.
"""

from __future__ import annotations

import sys
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import platformdirs
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Price = Annotated[Decimal, Field(ge=0, max_digits=18, decimal_places=6)]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOSSIER_", extra="ignore")

    database_url: str | None = Field(
        default=None, description="postgresql+psycopg://… ; unset: the embedded PostgreSQL"
    )
    redis_url: str | None = Field(
        default=None, description="redis://… (cache and Celery broker); unset: embedded Redis"
    )
    broker_url: str | None = Field(
        default=None,
        description="amqp://… for RabbitMQ (quorum queues, publisher confirms); unset: Redis",
    )
    data_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_data_dir("dossier")),
        description="where the embedded PostgreSQL and Redis keep their data",
    )
    admin_token: SecretStr | None = Field(
        default=None, description="enables /v1/admin routes when set (16+ characters)"
    )

    # Prices, in credit units.
    price_remember_line: Price = Decimal("0.0001")
    price_write: Price = Decimal("0.0001")
    price_read: Price = Decimal("0.00001")
    price_delete: Price = Decimal("0.00001")
    price_forget: Price = Decimal("0.0001")
    price_decision: Price = Decimal("0.001")
    initial_credit: Price = Decimal("10")

    # Limits.
    max_lines_per_subject: int = Field(default=10_000, ge=1)
    max_line_chars: int = Field(default=2_000, ge=1)
    max_rules_per_subject: int = Field(default=1_000, ge=1)
    max_aliases_per_subject: int = Field(default=100, ge=1)
    max_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    page_size_max: int = Field(default=500, ge=1)
    batch_max_bytes: int = Field(default=256 * 1024 * 1024, ge=1024)
    file_max_bytes: int = Field(
        default=200 * 1024 * 1024,
        ge=1024,
        description="largest file POST /v1/files takes (OpenAI's batch input limit: 200 MB)",
    )
    batch_sweep_seconds: float = Field(default=60.0, gt=0)
    retention_sweep_seconds: float = Field(default=3_600.0, gt=0)
    erasure_chunk: int = Field(default=100, ge=1, description="subjects and end-users per step")
    # A tenant's own deletion request (app.account): suspended for the grace period, then erased.
    account_deletion_grace_hours: float = Field(
        default=72.0,
        ge=0,
        le=24 * 365,
        description="hours between a tenant's deletion request and its erasure, during which "
        "the tenant may withdraw it; 0: at the next sweep",
    )
    account_deletion_sweep_seconds: float = Field(default=300.0, gt=0)

    # Organisation-wide data export (app.exports): archives written by a worker, downloaded
    # through the API, so both must see the same folder.
    export_dir: Path | None = Field(
        default=None,
        description="where export archives are written, shared by the API and the workers; "
        "unset: exports/ under DOSSIER_DATA_DIR",
    )
    export_keep_days: int = Field(
        default=7, ge=1, le=365, description="days an export's archive can be downloaded"
    )
    export_chunk: int = Field(default=5_000, ge=1, description="rows an export writes per step")
    export_sweep_seconds: float = Field(default=3_600.0, gt=0)
    idempotency_hours: float = Field(
        default=24.0, gt=0, le=24 * 30, description="how long an Idempotency-Key's answer is kept"
    )
    idempotency_sweep_seconds: float = Field(default=3_600.0, gt=0)

    # Engines.
    engine: Literal["embedded", "systemone"] = Field(
        default="embedded", description="which engine answers decisions"
    )
    systemone_url: str | None = Field(default=None, description="remote System One endpoint")
    systemone_api_key: SecretStr | None = None
    systemone_read_window_tokens: int = Field(default=28_000, ge=64)
    systemone_timeout_seconds: float = Field(default=30.0, gt=0)

    # The second tier that quality `balanced` and `best` ask again (app.quality); with none
    # configured a tenant cannot choose those levels.
    second_tier_engine: Literal["none", "embedded", "systemone"] = Field(
        default="none", description="the engine balanced and best ask again"
    )
    second_tier_url: str | None = Field(default=None, description="its System One endpoint")
    second_tier_api_key: SecretStr | None = None
    second_tier_model: str | None = Field(
        default=None, description="the model to ask of the second tier; default its first"
    )
    second_tier_threshold: float = Field(
        default=0.6, gt=0, le=1, description="balanced asks again below this top probability"
    )
    second_tier_read_window_tokens: int = Field(default=28_000, ge=64)
    second_tier_timeout_seconds: float = Field(default=60.0, gt=0)

    # End-user knowledge (app.knowledge, app.facts, app.documents, app.chat): prices,
    # extraction, documents, the chat endpoint.
    price_extraction_turn: Price = Decimal("0.0002")
    price_ingest_per_1k_tokens: Price = Decimal("0.0005")
    price_retrieval: Price = Decimal("0.0001")
    price_storage_per_1k_tokens_month: Price = Decimal("0.0001")
    storage_free_tokens: int = Field(default=100_000, ge=0)
    storage_meter_seconds: float = Field(default=86_400.0, gt=0)
    extraction_delay_seconds: float = Field(
        default=180.0, ge=0, description="how long after a thread's first turn it is extracted"
    )
    extraction_keep_days: int = Field(
        default=30, ge=0, description="days extracted turns are kept for re-extraction (0: none)"
    )
    extractor: Literal["embedded", "llm"] = Field(
        default="embedded", description="embedded patterns, or the chat endpoint's model"
    )
    knowledge_sweep_seconds: float = Field(default=60.0, gt=0)
    reextract_sweep_seconds: float = Field(default=3_600.0, gt=0)
    document_max_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    upload_max_bytes: int = Field(default=100 * 1024 * 1024, ge=1024)
    chat_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint (…/v1); unset: embedded answerer"
    )
    chat_api_key: SecretStr | None = None
    chat_model: str | None = Field(default=None, description="model asked upstream")
    chat_timeout_seconds: float = Field(default=60.0, gt=0)

    # Meaning (app.embeddings): which embedder recall and knowledge search use.
    embeddings: Literal["static", "encoder", "off"] = Field(
        default="static",
        description="static: the packaged model; encoder: sentence-transformers; off: words only",
    )
    embedding_model: str | None = Field(
        default=None,
        description="a local model folder (static, encoder) or a model id (encoder); "
        "unset: the packaged static model",
    )
    embedding_chunk: int = Field(
        default=500, ge=1, le=100_000, description="rows re-embedded per step after a change"
    )
    embedding_sweep_seconds: float = Field(default=300.0, gt=0)
    embedding_partial_seconds: float = Field(
        default=30.0,
        gt=0,
        description="how long a process keeps vectors with rows still waiting for theirs",
    )
    recall_cache_mb: int = Field(
        default=512,
        ge=16,
        description="per process, for subjects' recall indexes and vectors, and as much again "
        "for knowledge's",
    )

    cache_ttl_seconds: int = Field(default=3_600, ge=1)
    task_time_limit_seconds: int = Field(default=600, ge=1)

    # Serving under load: requests handled at once per API process, how long one more waits
    # for a slot before a 503, and PostgreSQL's bounds on one statement and one lock wait.
    api_concurrency: int = Field(default=16, ge=1, le=1_000)
    api_queue_seconds: float = Field(default=2.0, ge=0)
    api_client_share: float = Field(
        default=0.5, gt=0, le=1, description="share of the slots one API key may hold at once"
    )
    db_statement_timeout_seconds: float = Field(default=60.0, gt=0)
    db_lock_timeout_seconds: float = Field(default=5.0, gt=0)
    outbox_sweep_seconds: float = Field(
        default=1.0, gt=0, description="how often jobs not yet sent to the broker are resent"
    )

    # Operations.
    log_format: Literal["json", "text"] = Field(
        default="json", description="json: one object per line; text: for a person at a console"
    )
    worker_metrics_port: int = Field(
        default=9808, ge=0, le=65535, description="a worker's /metrics port; 0: none"
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("postgresql://", "postgresql+psycopg://")):
            raise ValueError("must be a postgresql:// or postgresql+psycopg:// URL")
        if value is not None and value.startswith("postgresql://"):
            return "postgresql+psycopg://" + value.removeprefix("postgresql://")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_only(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("redis://", "rediss://", "unix://")):
            if not value.startswith("redis+socket://"):
                raise ValueError("must be a redis://, rediss://, unix:// or redis+socket:// URL")
        return value

    @field_validator("broker_url")
    @classmethod
    def _amqp_or_redis(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(
            ("amqp://", "amqps://", "pyamqp://", "redis://", "rediss://")
        ):
            raise ValueError("must be an amqp://, amqps://, redis:// or rediss:// URL")
        return value

    @field_validator("admin_token")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 16:
            raise ValueError("must be at least 16 characters")
        return value

    @model_validator(mode="after")
    def _remote_engine_needs_url(self) -> Settings:
        if self.engine == "systemone" and (not self.systemone_url or not self.systemone_api_key):
            raise ValueError("engine=systemone needs DOSSIER_SYSTEMONE_URL and _API_KEY")
        return self

    @model_validator(mode="after")
    def _remote_second_tier_needs_url(self) -> Settings:
        if self.second_tier_engine == "systemone" and (
            not self.second_tier_url or not self.second_tier_api_key
        ):
            raise ValueError(
                "DOSSIER_SECOND_TIER_ENGINE=systemone needs DOSSIER_SECOND_TIER_URL and _API_KEY"
            )
        return self

    @model_validator(mode="after")
    def _llm_extractor_needs_chat(self) -> Settings:
        if self.extractor == "llm" and not self.chat_url:
            raise ValueError("extractor=llm needs DOSSIER_CHAT_URL")
        return self

    @property
    def exports_folder(self) -> Path:
        return self.export_dir if self.export_dir is not None else self.data_dir / "exports"

    @property
    def embedded(self) -> bool:
        """True when Dossier must start its own PostgreSQL and Redis."""
        return self.database_url is None and self.redis_url is None


@lru_cache
def get_settings() -> Settings:
    return Settings()


def load_settings_or_exit() -> Settings:
    """Settings for a command line start: a bad value prints which variable and exits."""
    try:
        return get_settings()
    except ValidationError as exc:
        lines = [
            f"  DOSSIER_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
            for err in exc.errors()
        ]
        sys.exit("Dossier cannot start, bad configuration:\n" + "\n".join(lines))
