"""Task names: `app.jobs.names` is the one place a name is written, and every name there is a
task some worker module registers. A misspelt or removed name would wait in the broker, or be
dropped by the worker, and its work would never run."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from app.jobs import names
from app.jobs.celery_app import celery_app, celery_config

ROOT = Path(__file__).parents[2]
REGISTRY = ROOT / "app" / "jobs" / "names.py"
TASK_NAME = re.compile(r"""["'](dossier\.[a-z_]+\.[a-z_]+)["']""")


def _registered() -> set[str]:
    for module in celery_app.conf.include or []:
        importlib.import_module(module)
    return {name for name in celery_app.tasks if name.startswith("dossier.")}


def test_every_name_is_a_registered_task_and_every_task_is_named() -> None:
    assert len(names.ALL) >= 20  # the registry reads the names it should
    assert names.ALL == _registered()


def test_no_task_name_is_written_outside_the_registry() -> None:
    written = [
        f"{path.relative_to(ROOT)}: {name}"
        for folder in ("app", "workers")
        for path in (ROOT / folder).rglob("*.py")
        if path != REGISTRY
        for name in TASK_NAME.findall(path.read_text())
    ]
    assert written == []


def test_every_beat_entry_runs_a_registered_task() -> None:
    schedule = celery_config()["beat_schedule"]
    assert {entry["task"] for entry in schedule.values()} <= names.ALL
