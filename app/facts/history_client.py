"""The client side of history imports, as `dossier knowledge import` uses it: a JSONL file of
dated turns sent in parts of `PART_TURNS`, each followed to its end before the next is sent (so
the oldest turns are extracted first across parts too), with a progress bar."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import httpx

from app.client_errors import exit_on_error

PART_TURNS = 5_000
FINAL = ("done", "failed")


def read_turns(path: Path) -> list[dict[str, Any]]:
    """The file's turns, `{"text", "said_at", "thread"?}` one per line, oldest first.

    Raises:
        SystemExit: naming the line that is not such a turn.
    """
    turns = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            turn = json.loads(line)
        except ValueError as exc:
            raise SystemExit(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(turn, dict) or not {"text", "said_at"} <= set(turn):
            raise SystemExit(f'{path}:{number}: a turn needs "text" and "said_at"')
        turns.append(turn)
    return sorted(turns, key=lambda turn: str(turn["said_at"]))


def parts(turns: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(turns), PART_TURNS):
        yield turns[start : start + PART_TURNS]


def import_file(
    http: httpx.Client, user: str, path: Path, out: TextIO = sys.stderr
) -> list[dict[str, Any]]:
    """Import the file's turns for `user`, part by part; the imports as they ended."""
    turns = read_turns(path)
    ended = []
    done_before = 0
    for part in parts(turns):
        response = http.post(f"/v1/users/{user}/history", json={"turns": part})
        exit_on_error(response)
        job = follow(http, user, response.json()["id"], len(turns), done_before, out)
        ended.append(job)
        if job["status"] != "done":
            break
        done_before += job["turns"]
    return ended


def follow(
    http: httpx.Client, user: str, import_id: str, total: int, before: int, out: TextIO
) -> dict[str, Any]:
    """Poll an import until it ends, drawing a bar of all the file's turns done so far."""
    started = time.monotonic()
    while True:
        response = http.get(f"/v1/users/{user}/history/{import_id}")
        exit_on_error(response)
        job: dict[str, Any] = response.json()
        out.write("\r" + progress_line(job, before, total, time.monotonic() - started))
        out.flush()
        if job["status"] in FINAL:
            out.write("\n")
            return job
        time.sleep(0.5)


def progress_line(job: dict[str, Any], before: int, total: int, elapsed: float) -> str:
    done = before + job["turns_done"]
    width = 30
    filled = int(width * done / max(total, 1))
    rate = job["turns_done"] / elapsed if elapsed > 0 else 0
    eta = f"{(total - done) / rate:5.0f}s" if rate > 0 and done < total else "    -"
    return (
        f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total} turns, "
        f"facts {job['facts']} events {job['events']}, "
        f"batches failed {job['batches']['failed']} ETA {eta} {job['status']:<8}"
    )
