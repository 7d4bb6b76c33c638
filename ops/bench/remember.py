"""Writing and reading subject memory through the HTTP API, beside what a user would build
instead: lines in a bare PostgreSQL table (psycopg executemany / COPY) and a Redis list.

    python ops/bench/remember.py          # embedded services, or DOSSIER_DATABASE_URL/REDIS_URL
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg  # noqa: E402
import redis  # noqa: E402

from app.cache import redis_client_url  # noqa: E402
from app.embeddings import current_embedder  # noqa: E402
from app.embeddings.base import to_stored  # noqa: E402
from ops.bench.harness import client, percentiles, running_api  # noqa: E402

LINES = [
    f"Line {i}: customer note about order {i * 7} and the Northwind account." for i in range(10_000)
]


def main() -> None:
    with running_api() as bench, client(bench) as http:
        print("Storing 10,000 lines")
        started = time.perf_counter()
        http.post(
            "/v1/memory/remember", json={"subject": "one-call", "text": "\n".join(LINES)}
        ).raise_for_status()
        one = time.perf_counter() - started
        row("dossier, 1 call of 10,000 lines (vectors made inline)", len(LINES) / one, "lines/s")
        embedder = current_embedder()
        if embedder is not None:
            started = time.perf_counter()
            to_stored(embedder.encode(LINES))
            alone = time.perf_counter() - started
            row("  of which: the static model embedding them", len(LINES) / alone, "lines/s")

        started = time.perf_counter()
        for start in range(0, len(LINES), 10):
            http.post(
                "/v1/memory/remember",
                json={"subject": "many-calls", "text": "\n".join(LINES[start : start + 10])},
            ).raise_for_status()
        many = time.perf_counter() - started
        row("dossier, 1,000 calls of 10 lines", len(LINES) / many, "lines/s")

        dsn = bench.database_url.replace("postgresql+psycopg", "postgresql")
        with psycopg.connect(dsn) as conn:
            conn.execute("CREATE TEMP TABLE bare (subject text, position int, text text)")
            started = time.perf_counter()
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO bare VALUES (%s, %s, %s)",
                    [("s", i, text) for i, text in enumerate(LINES)],
                )
            conn.commit()
            row(
                "bare psycopg executemany, 1 transaction",
                len(LINES) / (time.perf_counter() - started),
                "lines/s",
            )
            started = time.perf_counter()
            with conn.cursor() as cur, cur.copy("COPY bare FROM STDIN") as copy:
                for i, text in enumerate(LINES):
                    copy.write_row(("c", i, text))
            conn.commit()
            row("bare psycopg COPY", len(LINES) / (time.perf_counter() - started), "lines/s")

        print("\nGET /v1/memory?lines=true on a 10,000-line subject (200 reads each)")
        cached = timed(
            lambda: http.get("/v1/memory", params={"subject": "one-call", "lines": "true"})
        )
        row_ms("dossier, from the Redis cache", cached)

        cache = redis.Redis.from_url(redis_client_url(bench.redis_url))

        def uncached() -> None:
            for key in cache.scan_iter(match=f"dossier:memory:{bench.tenant_id}:*"):
                cache.delete(key)
            http.get("/v1/memory", params={"subject": "one-call", "lines": "true"})

        row_ms("dossier, from PostgreSQL (cache emptied each time)", timed(uncached))
        cache.delete("bench:list")
        cache.rpush("bench:list", *LINES)
        row_ms(
            "bare Redis LRANGE of 10,000 lines (no HTTP)",
            timed(lambda: cache.lrange("bench:list", 0, -1)),
        )
        cache.delete("bench:list")


def timed(call, runs: int = 200) -> list[float]:  # type: ignore[no-untyped-def]
    call()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def row(label: str, value: float, unit: str) -> None:
    print(f"  {label:<52} {value:>12,.0f} {unit}")


def row_ms(label: str, samples: list[float]) -> None:
    p50, p99 = percentiles(samples)
    print(f"  {label:<52} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")


if __name__ == "__main__":
    main()
