"""What compare, explain (8 lines) and placebo cost beside a plain decision, in one run.

    python ops/bench/passes.py        # embedded services, or DOSSIER_DATABASE_URL/REDIS_URL

1. Through HTTP (database, recall, billing included) on the embedded engine: the same decision
   about a subject whose memory sends a pinned rule and 7 recalled lines, plain and with each
   pass; the modes are interleaved so drift hits them alike.
2. The engine alone: one state, against the answer's state and the 8 explain states asked in
   one call; on the embedded engine's two models (words alone, words and meaning) and on a
   System One engine whose upstream takes 40 ms per request (a mock transport). That engine
   sends up to 8 requests at once, so 9 states take two round trips where one after another they
   would take nine.
3. The embedded engine's two models on the support-routing question (7 options) with 6 memory
   lines, every run a ticket it has not seen (so no sentence's vector is cached; the subject's
   lines are, as they are for a subject decided about again).

Targets: explain's 8 passes cost under 3x one decision (issue 5); a 7-option decision with 6
memory lines p50 at most 1 ms with meaning (issue 16).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import httpx  # noqa: E402

from ops.bench.harness import client, percentiles, running_api  # noqa: E402

SUBJECT = "northwind"
STATE = {
    "ticket": "Northwind says the dashboards are slow on their Windows Server install "
    "and an invoice looks wrong.",
    "channel": "email",
}
QUESTIONS = {
    "team": {
        "type": "choice",
        "instructions": "Which support team should handle this ticket?",
        "criteria": {
            "cloud_ops": "Cloud team: problems with the hosted cloud edition",
            "selfhosted_windows": "Self-hosted team, Windows Server installs and performance",
            "billing": "Billing: invoices, payments, seats and plan changes",
        },
    },
    "urgent": {"type": "noul", "instructions": "Is this ticket urgent?"},
}
LINES = [
    "Northwind runs the self-hosted edition on Windows Server 2022.",
    "Northwind dashboards were slow last spring after a Windows update.",
    "Northwind pays invoices by bank transfer, never by card.",
    "Northwind has 240 seats on the enterprise plan.",
    "Northwind asked for email replies, never phone calls.",
    "Northwind's Windows Server install sits in their Oslo data centre.",
    "Northwind renewed the enterprise contract in March.",
    "Northwind reported a wrong invoice once, fixed the same day.",
    "Northwind's admin is Ann Lindqvist.",
    "Northwind uses single sign-on through Azure.",
]
MODES: dict[str, dict[str, Any]] = {
    "plain decision": {},
    "compare": {"compare": True},
    "explain (8 lines)": {"explain": True},
    "placebo": {"placebo": True},
    "compare + explain + placebo": {"compare": True, "explain": True, "placebo": True},
}


def main(runs: int = 200) -> None:
    models = ("dossier-lexical-1", "dossier-hybrid-1")
    with running_api() as bench, client(bench) as http:
        _setup(http)
        samples: dict[tuple[str, str], list[float]] = {
            (model, mode): [] for model in models for mode in MODES
        }
        for run in range(runs + 10):
            for model in models:
                for mode, flags in MODES.items():
                    started = time.perf_counter()
                    body = _decide(http, model, flags)
                    elapsed = (time.perf_counter() - started) * 1000
                    if run >= 10:  # warm-up
                        samples[model, mode].append(elapsed)
        explained = body["memory"]["explain"]
        assert len(explained) == 8 and all(entry["read"] for entry in explained), explained
        print(f"Through HTTP on the embedded engine ({runs} runs each, interleaved)")
        for model in models:
            base = percentiles(samples[model, "plain decision"])[0]
            for mode in MODES:
                p50, p99 = percentiles(samples[model, mode])
                print(
                    f"  {model:<18} {mode:<28} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   "
                    f"{p50 / base:5.2f}x"
                )
    print("The engine alone: the answer's state, then it and 8 explain states in one call")
    embedded = _embedded()
    for model in embedded.models()[::-1]:
        _engine_alone(f"embedded, {model}", embedded, model, LINES[:8], runs)
    remote = _slow_remote(0.040)
    _engine_alone("System One, 40 ms upstream", remote, remote.models()[0], LINES[:8], 20)
    print("The embedded engine: 7-option routing, 6 memory lines, a new ticket each run")
    for model in embedded.models()[::-1]:
        _routing(embedded, model, 1000)


def _setup(http: httpx.Client) -> None:
    """Ten lines and a pinned rule: explain leaves out the rule and 7 recalled lines, each pass a
    state of its own (an exclusion-only rule would add a pass the engine is not asked again)."""
    http.post(
        "/v1/memory/remember", json={"subject": SUBJECT, "text": "\n".join(LINES)}
    ).raise_for_status()
    pinned = {"subject": SUBJECT, "text": "Northwind has premium support.", "pin": True}
    http.post("/v1/memory/rules", json=pinned).raise_for_status()


def _decide(http: httpx.Client, model: str, flags: dict[str, Any]) -> dict[str, Any]:
    response = http.post(
        "/v1/systemone",
        json={
            "model": model,
            "subject": SUBJECT,
            "state": STATE,
            "questions": QUESTIONS,
            "memory": {"top_k": 10, "min_share": 0.05, **flags},
        },
    )
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


def _engine_alone(label: str, engine: Any, model: str, lines: list[str], runs: int) -> None:
    from app.decisions.passes import lay_out
    from app.engines.wire import parse_request

    questions = parse_request({"model": "m", "state": STATE, "questions": QUESTIONS}).questions
    main = lay_out(STATE, lines)
    passes = [lay_out(STATE, lines[:i] + lines[i + 1 :]) for i in range(len(lines))]
    one = _time(lambda: engine.answer(model, [main], questions), runs)
    together = _time(lambda: engine.answer(model, [main, *passes], questions), runs)
    print(
        f"  {label:<30} 1 state {one:7.2f} ms   1 + 8 states {together:7.2f} ms   "
        f"{together / one:5.2f}x"
    )


def _routing(engine: Any, model: str, runs: int) -> None:
    from app.decisions.passes import lay_out
    from app.demo import routing
    from app.engines.wire import parse_request

    questions = parse_request({"model": model, "state": "", "questions": routing.ROUTE}).questions
    lines = [*routing.lasting_facts("C-1042"), *LINES[:4]]
    tickets = [routing.LATER_MESSAGES[run % 6] for run in range(runs + 10)]
    states = [
        lay_out(_numbered(routing.ticket_state(ticket), run), lines)
        for run, ticket in enumerate(tickets)
    ]
    samples = []
    for run, state in enumerate(states):
        started = time.perf_counter()
        engine.answer(model, [state], questions)
        if run >= 10:
            samples.append((time.perf_counter() - started) * 1000)
    p50, p99 = percentiles(samples)
    print(f"  {model:<30} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   ({runs} decisions)")


def _numbered(state: dict[str, Any], run: int) -> dict[str, Any]:
    """The ticket with its words made new (no cached vector fits it)."""
    ticket = state["ticket"]
    message = ticket["messages"][0]
    text = f"{message['text']} Reference {run}, case {run * 7919 % 100003}."
    return {
        **state,
        "ticket": {**ticket, "id": f"T-{run}", "messages": [{**message, "text": text}]},
    }


def _time(work: Callable[[], object], runs: int) -> float:
    work()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        samples.append((time.perf_counter() - started) * 1000)
    return percentiles(samples)[0]


def _embedded() -> Any:
    from app.embeddings.loader import current_embedder
    from app.engines.embedded import EmbeddedEngine

    return EmbeddedEngine(current_embedder())


def _slow_remote(latency: float) -> Any:
    """A System One engine whose upstream answers every request after `latency` seconds."""
    from app.engines.embedded import EmbeddedEngine
    from app.engines.systemone import SystemOneEngine

    local = EmbeddedEngine(None)

    def upstream(request: httpx.Request) -> httpx.Response:
        time.sleep(latency)
        if request.url.path.endswith("/v1/models"):
            models = [{"name": "jev-latest", "description": "", "release_date": "2026-01-01"}]
            return httpx.Response(200, json={"models": models})
        from app.engines.wire import parse_request

        body = parse_request(json.loads(request.content))
        answers = local.answer(body.model, [body.state], body.questions)[0]
        return httpx.Response(
            200,
            json={
                "model": body.model,
                "answers": {name: a.model_dump() for name, a in answers.items()},
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        )

    return SystemOneEngine(
        "http://upstream.invalid", "key", transport=httpx.MockTransport(upstream)
    )


if __name__ == "__main__":
    main()
