"""The batch side of the `dossier` command: submit a JSONL file, follow it, fetch its results."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

import httpx

from app.client_errors import exit_on_error

FINAL = {"completed", "failed", "expired", "cancelled"}


def submit(http: httpx.Client, path: Path, window: str) -> dict[str, Any]:
    response = http.post(
        "/v1/batches",
        params={"completion_window": window},
        content=path.read_bytes(),
        headers={"content-type": "application/jsonl"},
    )
    exit_on_error(response)
    return dict(response.json())


def follow(http: httpx.Client, batch_id: str, out: TextIO = sys.stderr) -> dict[str, Any]:
    """Poll until the batch is final, drawing a progress bar with counts and an ETA."""
    started = time.monotonic()
    while True:
        batch = status(http, batch_id)
        out.write("\r" + progress_line(batch, time.monotonic() - started))
        out.flush()
        if batch["status"] in FINAL:
            out.write("\n")
            return batch
        time.sleep(0.5)


def progress_line(batch: dict[str, Any], elapsed: float, width: int = 30) -> str:
    counts = batch["request_counts"]
    total = max(counts["total"], 1)
    done = counts["succeeded"] + counts["errored"] + counts["canceled"] + counts["expired"]
    filled = int(width * done / total)
    rate = done / elapsed if elapsed > 0 else 0
    eta = f"{(total - done) / rate:5.0f}s" if rate > 0 and done < total else "    -"
    return (
        f"[{'#' * filled}{'-' * (width - filled)}] {done}/{counts['total']} "
        f"ok {counts['succeeded']} err {counts['errored']} "
        f"cancel {counts['canceled']} exp {counts['expired']} ETA {eta} {batch['status']:<11}"
    )


def status(http: httpx.Client, batch_id: str) -> dict[str, Any]:
    response = http.get(f"/v1/batches/{batch_id}")
    exit_on_error(response)
    return dict(response.json())


def download(http: httpx.Client, batch_id: str, path: Path) -> int:
    with http.stream("GET", f"/v1/batches/{batch_id}/results") as response:
        exit_on_error(response)
        lines = 0
        with path.open("wb") as file:
            for chunk in response.iter_bytes():
                file.write(chunk)
                lines += chunk.count(b"\n")
    return lines


def cancel(http: httpx.Client, batch_id: str) -> dict[str, Any]:
    response = http.post(f"/v1/batches/{batch_id}/cancel")
    exit_on_error(response)
    return dict(response.json())
