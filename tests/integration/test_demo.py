"""The main job: the support-routing example (seed 002) through the API on the embedded engine.

This set was used to tune the embedded scorer; tests/unit/test_routing_example.py also holds a
hospital-meals set written before tuning, and ops/bench/decisions.py measures two larger held-out
sets.
"""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient

from app.demo.run import run, table
from tests.support import Services, new_tenant


def test_memory_routes_six_of_six_and_more_than_without(live_url: str, client: TestClient) -> None:
    tenant = new_tenant(client)
    with httpx.Client(base_url=live_url, headers=tenant.headers, timeout=60) as http:
        outcomes = run(http)
    right_with = sum(o.with_memory[0] == o.ticket.expected_team for o in outcomes)
    right_without = sum(o.without[0] == o.ticket.expected_team for o in outcomes)
    assert len(outcomes) == 6
    assert right_with == 6, table(outcomes)
    assert right_without < right_with, table(outcomes)
    assert all(o.lines_used >= 1 for o in outcomes)
    assert "right without memory" in table(outcomes)


def test_demo_learn_keeps_the_three_lasting_facts_and_routes_five_of_six(
    live_url: str, client: TestClient, worker: Services
) -> None:
    from app.demo.run import decide_later, learn_from_earlier, learned_table

    tenant = new_tenant(client)
    with httpx.Client(base_url=live_url, headers=tenant.headers, timeout=60) as http:
        learned = learn_from_earlier(http)
        outcomes = decide_later(http)
    stored = {item.ticket.id: bool(item.stored) for item in learned}
    assert stored == {
        "T-101": True,
        "T-102": True,
        "T-103": False,
        "T-104": False,
        "T-105": True,
    }, learned_table(learned)
    right_with = sum(o.with_memory[0] == o.ticket.expected_team for o in outcomes)
    right_without = sum(o.without[0] == o.ticket.expected_team for o in outcomes)
    # The learned lines are the tickets' own sentences, not a person's summary: "We signed our
    # Enterprise contract in March." pulls T-201's slow dashboards to the enterprise desk.
    assert right_with >= 5 and right_without < right_with, table(outcomes)
