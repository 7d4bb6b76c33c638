#!/usr/bin/env bash
# Fuzz every route of a running Dossier: no 5xx for any generated input, every 4xx in the error
# shape. Uses DOSSIER_TEST_DATABASE_URL / DOSSIER_TEST_REDIS_URL (else embedded services).
# Extra arguments go to schemathesis, e.g. `ops/schemathesis.sh --max-examples 50`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m ops.schemathesis_run "$@"
