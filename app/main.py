"""The FastAPI application: routers, the one error handler, and middleware."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from app.account.routes import admin_router as account_admin_router
from app.account.routes import router as account_router
from app.admission import AdmissionMiddleware
from app.audit.routes import router as audit_router
from app.batches.routes import router as batches_router
from app.chat.routes import router as chat_router
from app.console.routes import router as console_router
from app.db import get_engine
from app.decisions.routes import router as decisions_router
from app.documents.routes import router as documents_router
from app.embeddings import current_embedder
from app.erasure.routes import router as erasure_router
from app.errors import DossierError
from app.facts.routes import router as facts_router
from app.files.routes import router as files_router
from app.forget.routes import router as forget_router
from app.idempotency.service import Replay
from app.jobs.relay import RelayLoop
from app.knowledge.routes import router as knowledge_router
from app.learning.routes import router as learning_router
from app.ledger.routes import router as ledger_router
from app.mcp.routes import PATH as MCP_PATH
from app.mcp.routes import McpEndpoint, mcp_endpoint
from app.memory.routes import router as memory_router
from app.memory.subjects import router as subjects_router
from app.middleware import RequestBodyMiddleware
from app.observability.middleware import RequestContextMiddleware
from app.observability.routes import router as operations_router
from app.quality.routes import router as quality_router
from app.raw_bodies import add_raw_body_models
from app.settings import Settings, get_settings
from app.tenants.routes import router as admin_router
from app.validation import request_problem

log = logging.getLogger(__name__)

THREAD_SPARE = 16
"""Worker threads beyond the request slots: a request never waits for a thread (app.admission)."""

RETRY_AFTER_SECONDS = "1"
MULTIPART_SPARE = 64 * 1024


def _lifespan(settings: Settings, mcp: McpEndpoint) -> Any:
    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        current_embedder()  # a model that cannot load stops start-up, naming the setting
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = settings.api_concurrency + THREAD_SPARE
        # Jobs whose send failed (broker down) or that were delayed go out from here.
        relay = RelayLoop(get_engine(), settings.outbox_sweep_seconds).start()
        try:
            async with mcp.sessions.run():
                yield
        finally:
            relay.stop()

    return lifespan


def create_app() -> FastAPI:
    settings = get_settings()
    mcp = mcp_endpoint(settings)
    app = FastAPI(
        title="Dossier",
        version="0.1.0",
        description="Memory and knowledge for decision engines and LLM apps.",
        lifespan=_lifespan(settings, mcp),
    )
    routers = (
        memory_router,
        forget_router,
        decisions_router,
        batches_router,
        files_router,
        ledger_router,
        audit_router,
        quality_router,
        knowledge_router,
        facts_router,
        documents_router,
        chat_router,
        learning_router,
        subjects_router,
        console_router,
        account_router,
    )
    admin = (admin_router, account_admin_router, erasure_router)
    for router in (*routers, *admin, operations_router):
        app.include_router(router)
    # Not an OpenAPI operation: MCP clients discover the tools through the protocol itself.
    app.router.routes.append(Route(MCP_PATH, mcp.app, include_in_schema=False))
    add_raw_body_models(app)
    app.add_middleware(
        RequestBodyMiddleware,
        max_body_bytes=settings.max_body_bytes,
        larger={
            "/v1/batches": settings.batch_max_bytes,
            "/v1/collections": settings.upload_max_bytes,
            # The multipart envelope around the file: its boundaries and the purpose field.
            "/v1/files": settings.file_max_bytes + MULTIPART_SPARE,
        },
    )
    # Outside the body middleware: a request waiting for a slot has not buffered its body yet.
    app.add_middleware(
        AdmissionMiddleware,
        capacity=settings.api_concurrency,
        client_share=settings.api_client_share,
        queue_seconds=settings.api_queue_seconds,
    )
    # Added last, so outermost: it times and tags every answer, the other middleware's too.
    app.add_middleware(RequestContextMiddleware)
    _install_error_handlers(app)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Replay)
    async def replay(_: Request, exc: Replay) -> JSONResponse:
        return JSONResponse(
            exc.body, status_code=exc.status_code, headers={"Idempotent-Replayed": "true"}
        )

    @app.exception_handler(DossierError)
    async def dossier_error(_: Request, exc: DossierError) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(request_problem(exc.errors()).body(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own: a body it could not parse (400), no route, a method the route lacks.
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(
            exc.status_code, "http_error"
        )
        return JSONResponse(
            {"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code
        )

    # A value that passed validation but PostgreSQL cannot store (a NUL character, a number past
    # bigint): the request's to fix, not a 500. Through SQLAlchemy, or from psycopg's COPY.
    @app.exception_handler(psycopg.DataError)
    @app.exception_handler(DataError)
    async def unstorable(_: Request, exc: Exception) -> JSONResponse:
        # Only the first line of the reason: the rest can quote the data.
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        log.warning("refused a value PostgreSQL cannot store: %s", reason)
        return JSONResponse(
            {
                "error": {
                    "code": "invalid",
                    "message": f"a value in the request cannot be stored: {reason}",
                }
            },
            status_code=422,
        )

    # PostgreSQL is busy or away: a lock or a statement ran past its timeout, the pool had no
    # connection in time, or the server does not answer. Nothing was committed; retry.
    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(OperationalError)
    @app.exception_handler(PoolTimeout)
    async def database_busy(_: Request, exc: Exception) -> JSONResponse:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        log.warning("answered 503, the database is busy or away: %s", reason)
        return JSONResponse(
            {
                "error": {
                    "code": "unavailable",
                    "message": "the database is busy or unavailable; nothing was changed, "
                    "retry in a moment",
                }
            },
            status_code=503,
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        # Answered outside the request id middleware: echo the id here, for the bug report.
        request_id = getattr(request.state, "request_id", None)
        return JSONResponse(
            {"error": {"code": "internal", "message": "internal error"}},
            status_code=500,
            headers={"X-Request-ID": request_id} if request_id else None,
        )
