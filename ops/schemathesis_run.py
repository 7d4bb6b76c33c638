"""Fuzz every route of a running Dossier with schemathesis (`ops/schemathesis.sh` runs this).

Starts the API on a database of its own (the test services: DOSSIER_TEST_DATABASE_URL and
DOSSIER_TEST_REDIS_URL, else embedded ones), creates a tenant, then runs schemathesis over the
served OpenAPI: every route with the tenant's key, the admin routes again with the admin token.
Fails on any 5xx and on any 4xx that is not `{"error": {"code", "message"}}`.

    python -m ops.schemathesis_run [--max-examples N] [--report-dir DIR] [extra schemathesis args]
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import ADMIN_TOKEN, Services  # noqa: E402


@contextmanager
def test_services() -> Iterator[Services]:
    database_url = os.environ.get("DOSSIER_TEST_DATABASE_URL")
    redis_url = os.environ.get("DOSSIER_TEST_REDIS_URL")
    embedded = None
    if not database_url or not redis_url:
        from app import embedded as embedded_services

        embedded = embedded_services.start(Path(tempfile.mkdtemp(prefix="dossier-fuzz-")))
        database_url, redis_url = embedded.database_url, embedded.redis_url
    try:
        name = f"dossier_fuzz_{secrets.token_hex(4)}"
        with Services.create(database_url, redis_url, name) as services:
            try:
                yield services
            finally:
                # Jobs the fuzzed routes enqueued (no worker runs here) go with the run.
                from app.cache import get_redis

                get_redis().flushdb()
    finally:
        if embedded is not None:
            embedded.stop()


def schemathesis(
    url: str, token: str, max_examples: int, report: Path, only: str | None, extra: list[str]
) -> int:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        f"{url}/openapi.json",
        "--header",
        f"Authorization: Bearer {token}",
        "--checks",
        "not_a_server_error,error_shape",
        "--max-examples",
        str(max_examples),
        "--seed",
        os.environ.get("DOSSIER_FUZZ_SEED", "20261"),
        # One worker: hypothesis describes its lambdas by parsing their source, which is not
        # thread-safe on Python 3.11 (SystemError "AST constructor recursion depth mismatch").
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--suppress-health-check",
        "all",
        "--report",
        "junit",
        "--report-dir",
        str(report),
    ]
    if only:
        command += ["--include-path-regex", only]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "ops.schemathesis_hooks"}
    print("$", " ".join(command).replace(token, "<token>"), flush=True)
    return subprocess.run([*command, *extra], cwd=ROOT, env=env).returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-examples", type=int, default=50)
    parser.add_argument(
        "--report-dir", type=Path, default=Path(tempfile.gettempdir()) / "dossier-schemathesis"
    )
    args, extra = parser.parse_known_args()

    from app.serving import api_in_thread

    with test_services(), api_in_thread() as url:
        made = httpx.post(
            f"{url}/v1/admin/tenants",
            json={"name": "fuzz", "credit": 1000},
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        )
        made.raise_for_status()
        key = made.json()["api_key"]
        tenant = schemathesis(url, key, args.max_examples, args.report_dir / "tenant", None, extra)
        admin = schemathesis(
            url, ADMIN_TOKEN, args.max_examples, args.report_dir / "admin", "^/v1/admin/", extra
        )
    print(f"schemathesis: tenant routes exit {tenant}, admin routes exit {admin}")
    sys.exit(1 if tenant or admin else 0)


if __name__ == "__main__":
    main()
