"""`dossier gate calibrate`: choose the learned-memory gate's threshold."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import httpx

from app.cli.batch import batch_server


def run_gate_calibrate(args: argparse.Namespace) -> None:
    examples = [
        json.loads(line) for line in Path(args.file).read_text().splitlines() if line.strip()
    ]
    body = {
        "examples": examples,
        "held_out_share": args.held_out,
        "seed": args.seed,
        "apply": args.apply,
    }
    with (
        batch_server(args) as (url, key),
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=300) as http,
    ):
        response = http.post("/v1/gate/calibrate", json=body)
    if response.status_code != 200:
        sys.exit(f"error {response.status_code}: {response.text}")
    result = response.json()
    print(
        f"threshold {result['threshold']:.4f} (was {result['previous_threshold']:.4f}, "
        f"{'applied' if result['applied'] else 'not applied'})"
    )
    print(
        f"fitted on {result['fit_examples']}, held out {result['held_out_examples']}: "
        f"precision {_share(result['held_out_precision'])}, "
        f"recall {_share(result['held_out_recall'])}"
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
