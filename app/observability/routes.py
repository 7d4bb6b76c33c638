"""`/healthz` (the process), `/readyz` (its dependencies) and `/metrics` (Prometheus), no auth.

`/metrics` shows counts across tenants (no ids, no content): keep it on the internal network,
as Prometheus scrapes it there.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from app.observability.health import OK, ReadinessProbe, default_probe
from app.observability.metrics import CONTENT_TYPE, render_api_metrics
from app.observability.schemas import ReadyOut

router = APIRouter(tags=["operations"])

ProbeDep = Annotated[ReadinessProbe, Depends(default_probe)]

_READY_EXAMPLE = {"status": "ready", "checks": {"postgresql": OK, "redis": OK, "broker": OK}}
_NOT_READY_EXAMPLE = {
    "error": {
        "code": "not_ready",
        "message": "not ready: redis, broker did not answer",
        "failed": ["redis", "broker"],
        "checks": {
            "postgresql": OK,
            "redis": "ConnectionError: Error 111 connecting to redis:6379. Connection refused.",
            "broker": "OperationalError: Error 111 connecting to redis:6379. Connection refused.",
        },
    }
}
_METRICS_EXAMPLE = """\
# HELP dossier_queue_depth Tasks waiting in each Celery queue.
# TYPE dossier_queue_depth gauge
dossier_queue_depth{queue="decisions"} 12.0
# HELP dossier_batch_items Batch items of every tenant, by status.
# TYPE dossier_batch_items gauge
dossier_batch_items{status="succeeded"} 5000.0
"""


def _json(example: Any, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"example": example}}}


@router.get(
    "/healthz",
    responses={200: _json({"status": "ok"}, "The process answers.")},
)
def healthz() -> dict[str, str]:
    """The process answers (liveness): nothing else is checked."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    # The route answers its own JSONResponse (200 or 503); the model documents the 200.
    response_model=ReadyOut,
    responses={
        200: _json(_READY_EXAMPLE, "PostgreSQL, Redis and the broker answered."),
        503: _json(_NOT_READY_EXAMPLE, "A dependency did not answer; `failed` names it."),
    },
)
def readyz(probe: ProbeDep) -> JSONResponse:
    """PostgreSQL (`SELECT 1`), Redis (`PING`) and the Celery broker answer (readiness)."""
    checks = probe.run()
    failed = [name for name, result in checks.items() if result != OK]
    if not failed:
        return JSONResponse({"status": "ready", "checks": checks})
    message = f"not ready: {', '.join(failed)} did not answer"
    return JSONResponse(
        {"error": {"code": "not_ready", "message": message, "failed": failed, "checks": checks}},
        status_code=503,
    )


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text format.",
            "content": {
                CONTENT_TYPE: {
                    "schema": {"type": "string", "description": "Prometheus text format 1.0.0"},
                    "example": _METRICS_EXAMPLE,
                }
            },
        }
    },
)
def metrics() -> Response:
    """Prometheus metrics: request latency by route, recall time, queue depth per queue,
    batch items by status (task metrics are on each worker's own port)."""
    return Response(render_api_metrics(), media_type=CONTENT_TYPE)
