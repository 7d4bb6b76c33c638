"""`dossier demo`: the support-routing example decided without and with memory, over HTTP.

The two customers' lasting facts are remembered as memory lines; then each of the six later
messages, which never mention the customer's setup, is decided twice: with `memory.use: false`
and with the subject's memory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from app.demo.routing import (
    CUSTOMERS,
    EARLIER_TICKETS,
    LATER_MESSAGES,
    ROUTE,
    Ticket,
    lasting_facts,
    ticket_state,
)
from app.engines.embedded import HYBRID_MODEL


@dataclass(frozen=True)
class Outcome:
    ticket: Ticket
    without: tuple[str, float]
    with_memory: tuple[str, float]
    lines_used: int


def run(http: httpx.Client, model: str = HYBRID_MODEL) -> list[Outcome]:
    for customer_id in CUSTOMERS:
        response = http.post(
            "/v1/memory/remember",
            json={"subject": customer_id, "text": "\n".join(lasting_facts(customer_id))},
        )
        response.raise_for_status()
    return decide_later(http, model)


def _decide(http: httpx.Client, model: str, ticket: Ticket, *, use_memory: bool) -> dict[str, Any]:
    body = {
        "model": model,
        "state": ticket_state(ticket),
        "questions": ROUTE,
        "subject": ticket.customer_id,
        "memory": {"use": use_memory},
    }
    response = http.post("/v1/systemone", json=body)
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


def _answer(result: dict[str, Any]) -> tuple[str, float]:
    team = result["answers"]["team"]
    return team["choice"], float(team["probabilities"][team["choice"]])


def table(outcomes: list[Outcome]) -> str:
    rows = [
        f"{'ticket':<7} {'customer':<17} {'expected':<19} {'without memory':<26} "
        f"{'with memory':<26} lines",
    ]
    for o in outcomes:
        rows.append(
            f"{o.ticket.id:<7} {CUSTOMERS[o.ticket.customer_id].company:<17} "
            f"{o.ticket.expected_team:<19} {_cell(o.without, o.ticket):<26} "
            f"{_cell(o.with_memory, o.ticket):<26} {o.lines_used}"
        )
    right_without = sum(o.without[0] == o.ticket.expected_team for o in outcomes)
    right_with = sum(o.with_memory[0] == o.ticket.expected_team for o in outcomes)
    rows.append(
        f"\nright without memory: {right_without}/{len(outcomes)}   "
        f"with memory: {right_with}/{len(outcomes)}   "
        "(the cookbook's hosted engine: 2/6 without, 6/6 with)"
    )
    return "\n".join(rows)


def _cell(answer: tuple[str, float], ticket: Ticket) -> str:
    mark = "ok" if answer[0] == ticket.expected_team else "--"
    return f"{mark} {answer[0]} {answer[1]:.2f}"


@dataclass(frozen=True)
class Learned:
    ticket: Ticket
    probability: float | None
    stored: list[str]


def learn_from_earlier(
    http: httpx.Client, model: str = HYBRID_MODEL, timeout: float = 60
) -> list[Learned]:
    """The five earlier tickets decided with `learn: true`; waits for the gate on each."""
    queued = []
    for ticket in EARLIER_TICKETS:
        body = {
            "model": model,
            "state": ticket_state(ticket),
            "questions": ROUTE,
            "subject": ticket.customer_id,
            "memory": {"learn": True},
        }
        response = http.post("/v1/systemone", json=body)
        response.raise_for_status()
        queued.append((ticket, response.json()["learning"]["request_id"]))
    learned = []
    deadline = time.monotonic() + timeout
    for ticket, request_id in queued:
        while True:
            status = http.get(f"/v1/learning/{request_id}").json()
            if status["status"] != "queued":
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the gate did not run for {ticket.id}: is a worker running?")
            time.sleep(0.1)
        outcome = status["outcome"] or {}
        learned.append(Learned(ticket, status["probability"], list(outcome.get("stored", []))))
    return learned


def decide_later(http: httpx.Client, model: str = HYBRID_MODEL) -> list[Outcome]:
    """The six later messages, without and with the subject's memory."""
    outcomes = []
    for ticket in LATER_MESSAGES:
        without = _decide(http, model, ticket, use_memory=False)
        with_memory = _decide(http, model, ticket, use_memory=True)
        lines_used = with_memory["memory"]["lines_used"]
        outcomes.append(Outcome(ticket, _answer(without), _answer(with_memory), lines_used))
    return outcomes


def learned_table(learned: list[Learned]) -> str:
    rows = [f"{'ticket':<7} {'customer':<17} {'lasting fact?':<14} {'P(remember)':<12} stored"]
    for item in learned:
        expected = "yes" if item.ticket.lasting_fact else "no"
        probability = "-" if item.probability is None else f"{item.probability:.2f}"
        stored = "; ".join(item.stored) if item.stored else "(nothing)"
        rows.append(
            f"{item.ticket.id:<7} {CUSTOMERS[item.ticket.customer_id].company:<17} "
            f"{expected:<14} {probability:<12} {stored}"
        )
    return "\n".join(rows)
