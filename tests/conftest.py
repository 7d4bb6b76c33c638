"""Test services: this machine's PostgreSQL and Redis when DOSSIER_TEST_DATABASE_URL and
DOSSIER_TEST_REDIS_URL are set (CI sets them), otherwise the embedded ones.

Each run gets a database of its own built by the Alembic migrations, never by create_all().
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import Services


@pytest.fixture(scope="session")
def services() -> Iterator[Services]:
    database_url = os.environ.get("DOSSIER_TEST_DATABASE_URL")
    redis_url = os.environ.get("DOSSIER_TEST_REDIS_URL")
    embedded = None
    if not database_url or not redis_url:
        from app import embedded as embedded_services

        embedded = embedded_services.start(Path(tempfile.mkdtemp(prefix="dossier-test-")))
        database_url, redis_url = embedded.database_url, embedded.redis_url
    try:
        with Services.create(database_url, redis_url, f"dossier_test_{secrets.token_hex(4)}") as s:
            yield s
    finally:
        if embedded is not None:
            embedded.stop()
