"""Forget and its preview on a 10,000-line subject, through the HTTP API (database included),
beside what a user would write instead: a PostgreSQL regex DELETE of whole words.

    python ops/bench/forget.py          # embedded services, or DOSSIER_DATABASE_URL/REDIS_URL
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg  # noqa: E402

from ops.bench.harness import client, percentiles, running_api  # noqa: E402

NAMES = [
    "Ann Lindqvist",
    "Per Olsson",
    "José García",
    "Åsa Berg",
    "Søren Kierkegaard",
    "Will Smith",
    "Noor Khan",
    "Mark Twain",
    "Grace Hopper",
    "Željko Ivanek",
]
TOPICS = [
    "prefers email",
    "signed the renewal",
    "asked about invoices",
    "called on Monday",
    "moved to the Oslo office",
    "wants a callback before noon",
]


def subject_lines(rng: random.Random) -> list[str]:
    lines = []
    for i in range(10_000):
        if i % 500 == 0:  # 20 lines about each forgotten name, spread out
            lines.append(f"{NAMES[(i // 500) % len(NAMES)]} {rng.choice(TOPICS)}.")
        else:
            lines.append(f"Order {i} for the Northwind account {rng.choice(TOPICS)} ({i * 7}).")
    return lines


def main(runs: int = 50) -> None:
    rng = random.Random(7)
    with running_api() as bench, client(bench) as http:
        preview_ms, forget_ms = [], []
        for run in range(runs):
            subject = f"forget-{run}"
            http.post(
                "/v1/memory/remember",
                json={"subject": subject, "text": "\n".join(subject_lines(rng))},
            ).raise_for_status()
            concept = NAMES[run % len(NAMES)]
            started = time.perf_counter()
            http.post(
                "/v1/memory/forget", json={"subject": subject, "concept": concept, "preview": True}
            ).raise_for_status()
            preview_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            answer = http.post("/v1/memory/forget", json={"subject": subject, "concept": concept})
            forget_ms.append((time.perf_counter() - started) * 1000)
            assert answer.json()["verified_forgotten"], answer.text
        print(f"Forget on a 10,000-line subject ({runs} runs, HTTP and PostgreSQL included)")
        show("dossier forget (preview)", preview_ms)
        show("dossier forget (remove, verify, bill, audit)", forget_ms)

        dsn = bench.database_url.replace("postgresql+psycopg", "postgresql")
        with psycopg.connect(dsn) as conn:
            samples = []
            for run in range(runs):
                conn.execute("CREATE TEMP TABLE IF NOT EXISTS bare (text text)")
                conn.execute("TRUNCATE bare")
                with conn.cursor() as cur, cur.copy("COPY bare FROM STDIN") as copy:
                    for line in subject_lines(rng):
                        copy.write_row((line,))
                conn.commit()
                first, last = NAMES[run % len(NAMES)].split()
                started = time.perf_counter()
                conn.execute(
                    "DELETE FROM bare WHERE text ~* %s AND text ~* %s",
                    (rf"\m{first}\M", rf"\m{last}\M"),
                )
                conn.commit()
                samples.append((time.perf_counter() - started) * 1000)
        show("bare PostgreSQL regex DELETE (no matching rules)", samples)


def show(label: str, samples: list[float]) -> None:
    p50, p99 = percentiles(samples)
    print(f"  {label:<52} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")


if __name__ == "__main__":
    main()
