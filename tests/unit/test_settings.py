from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from app.settings import Settings


def test_defaults_mean_the_embedded_services(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DOSSIER_DATABASE_URL", "DOSSIER_REDIS_URL", "DOSSIER_MAX_LINES_PER_SUBJECT"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.embedded
    assert settings.max_lines_per_subject == 10_000 and settings.max_line_chars == 2_000


def test_database_url_must_be_postgresql() -> None:
    with pytest.raises(ValidationError, match="database_url"):
        Settings(database_url="sqlite:///x.db")
    assert (
        Settings(database_url="postgresql://u@h/db").database_url == "postgresql+psycopg://u@h/db"
    )


def test_a_short_admin_token_is_refused() -> None:
    with pytest.raises(ValidationError, match="admin_token"):
        Settings(admin_token="short")


def test_a_bad_value_stops_start_up_naming_the_variable() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        env={"DOSSIER_MAX_LINES_PER_SUBJECT": "lots", "PATH": ""},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "DOSSIER_MAX_LINES_PER_SUBJECT" in result.stderr
