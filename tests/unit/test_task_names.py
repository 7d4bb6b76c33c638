"""Every task name the code sends (a job on the outbox, a beat entry, a task sent by name) is
a task some worker module registers: a misspelt or removed name would wait in the broker, or
be dropped by the worker, and its work would never run."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from app.jobs.celery_app import celery_app, celery_config

ROOT = Path(__file__).parents[2]
TASK_NAME = re.compile(r"""["'](dossier\.[a-z_]+\.[a-z_]+)["']""")


def _registered() -> set[str]:
    for module in celery_app.conf.include or []:
        importlib.import_module(module)
    return {name for name in celery_app.tasks if name.startswith("dossier.")}


def _named_in_code() -> set[str]:
    names: set[str] = set()
    for folder in ("app", "workers"):
        for path in (ROOT / folder).rglob("*.py"):
            names.update(TASK_NAME.findall(path.read_text()))
    return names


def test_every_task_name_in_the_code_is_a_registered_task() -> None:
    named, registered = _named_in_code(), _registered()
    assert len(named) >= 20  # the scan reads the code it should
    assert named - registered == set()


def test_every_beat_entry_runs_a_registered_task() -> None:
    schedule = celery_config()["beat_schedule"]
    assert {entry["task"] for entry in schedule.values()} - _registered() == set()
