"""Re-embedding on the `embeddings` queue, and the embedder loaded when a worker starts.

A worker whose model cannot load does not start (the message names the setting); one that
starts queues a refresh, so a changed model is re-embedded without waiting for beat.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from celery import signals

from app.cache import get_redis
from app.db import session_scope
from app.embeddings import Embedder, EmbeddingsUnavailable, current_embedder
from app.embeddings.refresh import TABLES, refresh_chunk
from app.jobs.names import EMBEDDINGS_SWEEP, REEMBED
from app.settings import get_settings
from workers.celery import celery_app

log = logging.getLogger(__name__)

RUN_SECONDS = 10.0
"""One task embeds for about this long, then queues the next: the embedded default's one
worker serves decisions and erasures too, and no task nears a time limit."""

LOCK = "dossier:embeddings:refresh"
"""Held while a refresh runs, so writes that each queue one (a slow encoder) start one run."""


@celery_app.task(name=REEMBED)
def refresh() -> int:
    """Embed waiting rows, chunk by chunk; returns how many were done. A refresh queued
    while another runs returns at once: the running one reaches rows written meanwhile (it
    walks ids upwards), and beat's sweep catches any it passed."""
    embedder = current_embedder()
    if embedder is None or not _lock():
        return 0
    try:
        return _refresh(embedder)
    finally:
        _unlock()


def _refresh(embedder: Embedder) -> int:
    chunk = get_settings().embedding_chunk
    started = time.monotonic()
    done = 0
    for table in TABLES:
        after = 0
        while True:
            with session_scope() as (session, jobs):
                count, after = refresh_chunk(session, embedder, table, chunk, after)
                if count and time.monotonic() - started > RUN_SECONDS:
                    jobs.add(REEMBED)
                    return done + count
            done += count
            if count < chunk:
                break
    if done:
        log.info("re-embedded %d rows", done, extra={"model": embedder.name})
    return done


def _lock() -> bool:
    try:
        return bool(get_redis().set(LOCK, "1", nx=True, ex=int(RUN_SECONDS * 6)))
    except redis.RedisError:
        return True  # runs unlocked: two refreshes share rows by SKIP LOCKED, never twice


def _unlock() -> None:
    try:
        get_redis().delete(LOCK)
    except redis.RedisError:
        pass  # it expires


@celery_app.task(name=EMBEDDINGS_SWEEP)
def scheduled_refresh() -> None:
    """Beat's sweep: queue a refresh (rows a slow encoder left, or a model change)."""
    with session_scope() as (_session, jobs):
        jobs.add(REEMBED)


@signals.worker_init.connect
def _load_embedder(**_: Any) -> None:
    """A model that cannot load stops the worker, naming the setting (Celery logs and
    swallows an Exception from a signal handler, not a SystemExit)."""
    try:
        current_embedder()
    except EmbeddingsUnavailable as exc:
        raise SystemExit(f"Dossier cannot start: {exc}") from exc


@signals.worker_ready.connect
def _queue_refresh(**_: Any) -> None:
    if current_embedder() is None:
        return
    with session_scope() as (_session, jobs):
        jobs.add(REEMBED)
