"""`dossier knowledge import FILE --user U`: an end-user's past conversations, with their dates."""

from __future__ import annotations

import argparse
from pathlib import Path

import httpx

from app.cli.batch import batch_server
from app.facts.history_client import import_file


def run_knowledge_import(args: argparse.Namespace) -> None:
    with (
        batch_server(args) as (url, key),
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=300) as http,
    ):
        ended = import_file(http, args.user, Path(args.file))
    facts = sum(job["facts"] for job in ended)
    events = sum(job["events"] for job in ended)
    turns = sum(job["turns_done"] for job in ended)
    failed = [job for job in ended if job["status"] != "done"]
    print(f"{turns} turns extracted: {facts} facts, {events} events")
    if failed:
        raise SystemExit(f"import {failed[0]['id']} failed: {failed[0]['error']}")
