"""Prometheus metrics of the API and the workers.

Counted where they happen: request latency by route template (the middleware), recall time (the
decisions service, through `observe_recall`), task duration and failures (Celery signals in the
worker). Read at scrape time: queue depth per Celery queue (Redis `LLEN`) and batch items by
status (PostgreSQL), so a scrape shows the state of the whole deployment, not of one replica.

A process started with `PROMETHEUS_MULTIPROC_DIR` set (a Celery worker: its tasks run in forked
children) writes its samples to files there, and its exporter merges the files of every process.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from app.batches import repository as batches_repo
from app.cache import get_redis
from app.db import get_engine, local_statement_timeout
from app.embeddings import current_embedder
from app.embeddings.repository import waiting
from app.jobs import repository as jobs_repo
from app.queues import QUEUES

log = logging.getLogger(__name__)

CONTENT_TYPE = CONTENT_TYPE_LATEST

HTTP_REQUEST_SECONDS = Histogram(
    "dossier_http_request_duration_seconds",
    "Time to answer an HTTP request, by route template and status.",
    ("method", "route", "status"),
)
RECALL_SECONDS = Histogram(
    "dossier_recall_seconds",
    "Time to load a subject's memory, evaluate its rules and recall its lines for a decision.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
TASK_SECONDS = Histogram(
    "dossier_task_duration_seconds",
    "Time a Celery task ran, by task name and final state.",
    ("task", "state"),
    buckets=(0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600),
)
TASK_FAILURES = Counter(
    "dossier_task_failures",
    "Celery tasks that ended in failure (after their retries), by task and exception type.",
    ("task", "exception"),
)
EXTRACTION_ANSWERS = Counter(
    "dossier_extraction_answers",
    "The LLM extractor's answers: read at once, read after one repair, or unreadable.",
    ("outcome",),
)
EXTRACTION_ITEMS_DROPPED = Counter(
    "dossier_extraction_items_dropped",
    "Items of a readable extraction answer left out: an unknown kind or no text.",
)
EXTRACTION_TURNS_FAILED = Counter(
    "dossier_extraction_turns_failed",
    "Turns of extraction batches that ended failed (kept for re-extraction, never billed).",
)
REQUESTS_REJECTED = Counter(
    "dossier_requests_rejected",
    "Requests answered 503 because every slot of the API process was busy (app.admission).",
)

# Batch item statuses shown even at zero, so a dashboard's series never vanish.
BATCH_ITEM_STATUSES = ("pending", "succeeded", "errored", "canceled", "expired")
# A scrape must not hang on a slow database: the count gives up after this.
_COUNT_TIMEOUT_MS = 2000


def observe_recall(seconds: float) -> None:
    RECALL_SECONDS.observe(seconds)


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    HTTP_REQUEST_SECONDS.labels(method, route, str(status)).observe(seconds)


def observe_task(task: str, state: str, seconds: float) -> None:
    TASK_SECONDS.labels(task, state).observe(seconds)


def count_task_failure(task: str, exception: str) -> None:
    TASK_FAILURES.labels(task, exception).inc()


def count_rejected() -> None:
    REQUESTS_REJECTED.inc()


class DeploymentCollector(Collector):
    """Queue depths and batch items by status, read from Redis and PostgreSQL at each scrape.

    A source that does not answer is reported by `dossier_metrics_source_up` and its family is
    left out, so one broken dependency never turns the whole scrape into an error.
    """

    def __init__(
        self,
        queues: Sequence[str],
        redis_client: Callable[[], Any],
        engine: Callable[[], Any],
    ) -> None:
        self.queues = tuple(queues)
        self.redis_client = redis_client
        self.engine = engine

    def describe(self) -> Iterable[Metric]:
        # Declared names let the registry check for clashes without querying anything.
        return [
            _queue_family(),
            _batch_family(),
            _outbox_family(),
            _vectors_family(),
            _up_family(),
        ]

    def collect(self) -> Iterable[Metric]:
        up = _up_family()
        try:
            depths = self._queue_depths()
        except Exception as exc:  # any client error: report the source down, keep scraping
            log.warning("metrics: Redis did not answer for queue depths: %s", exc)
            up.add_metric(["redis"], 0)
        else:
            up.add_metric(["redis"], 1)
            family = _queue_family()
            for queue, depth in depths.items():
                family.add_metric([queue], depth)
            yield family
        try:
            counts, outbox = self._database_counts()
        except Exception as exc:
            log.warning("metrics: PostgreSQL did not answer for batch items: %s", exc)
            up.add_metric(["postgresql"], 0)
        else:
            up.add_metric(["postgresql"], 1)
            family = _batch_family()
            for status, count in counts.items():
                family.add_metric([status], count)
            yield family
            waiting = _outbox_family()
            waiting.add_metric([], outbox)
            yield waiting
        try:
            vectors = self._vectors_waiting()
        except Exception as exc:  # a count past its timeout on a large table, a model error
            log.warning("metrics: rows waiting for vectors were not counted: %s", exc)
            up.add_metric(["vectors"], 0)
        else:
            up.add_metric(["vectors"], 1)
            unembedded = _vectors_family()
            for table, count in vectors.items():
                unembedded.add_metric([table], count)
            yield unembedded
        yield up

    def _queue_depths(self) -> dict[str, int]:
        pipe = self.redis_client().pipeline(transaction=False)
        for queue in self.queues:
            pipe.llen(queue)
        return dict(zip(self.queues, (int(n) for n in pipe.execute()), strict=True))

    def _database_counts(self) -> tuple[dict[str, int], int]:
        counts = dict.fromkeys(BATCH_ITEM_STATUSES, 0)
        with self.engine().connect() as connection:
            local_statement_timeout(connection, _COUNT_TIMEOUT_MS)
            counts.update(batches_repo.count_by_status(connection))
            outbox = jobs_repo.count_jobs(connection)
        return counts, outbox

    def _vectors_waiting(self) -> dict[str, int]:
        """Apart from the other counts: it reads whole tables, and a timeout here must not
        hide the batch and outbox gauges or report PostgreSQL down."""
        embedder = current_embedder()
        if embedder is None:
            return {}
        with self.engine().connect() as connection:
            local_statement_timeout(connection, _COUNT_TIMEOUT_MS)
            return waiting(connection, embedder.name)


def _queue_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "dossier_queue_depth", "Tasks waiting in each Celery queue.", labels=["queue"]
    )


def _batch_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "dossier_batch_items", "Batch items of every tenant, by status.", labels=["status"]
    )


def _outbox_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "dossier_outbox_jobs",
        "Jobs committed but not yet taken by the broker (it is down, or the job is delayed).",
    )


def _vectors_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "dossier_vectors_waiting",
        "Rows without a vector of the current embedding model (the embeddings queue fills "
        "them in; recall finds them by words meanwhile).",
        labels=["table"],
    )


def _up_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "dossier_metrics_source_up",
        "1 when the source read at scrape time answered, else 0.",
        labels=["source"],
    )


@lru_cache
def deployment_registry() -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=True)
    registry.register(DeploymentCollector(QUEUES, get_redis, get_engine))
    return registry


def process_registry() -> CollectorRegistry:
    """This process's samples, or with `PROMETHEUS_MULTIPROC_DIR` those of every process that
    writes there (a fresh registry each time, as prometheus_client's multiprocess mode asks)."""
    if multiprocess_dir() is None:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    return registry


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def render_api_metrics() -> bytes:
    """The API's `/metrics`: its own samples, then the deployment's read at scrape time."""
    return generate_latest(process_registry()) + generate_latest(deployment_registry())


def count_extraction_answer(outcome: str) -> None:
    """`outcome`: read, repaired or unreadable."""
    EXTRACTION_ANSWERS.labels(outcome).inc()


def count_dropped_items(count: int) -> None:
    if count:
        EXTRACTION_ITEMS_DROPPED.inc(count)


def count_failed_turns(count: int) -> None:
    EXTRACTION_TURNS_FAILED.inc(count)
