"""Learned memory through a real worker: the gate, its threshold, supersession, calibration,
and forget removing a learned line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.support import Services, Tenant

LABELLED = Path(__file__).resolve().parents[1] / "data" / "gate_labelled.jsonl"
HELDOUT = Path(__file__).resolve().parents[1] / "data" / "gate_heldout.jsonl"
"""80 sentences in 8 domains, half worth keeping, written before the gate was tuned by someone
who had not seen it; never tuned on (ops/bench/data/gate_tuning.jsonl is the tuning set)."""


def decide(client: TestClient, tenant: Tenant, subject: str, state: object) -> dict:
    body = {
        "model": "dossier-hybrid-1",
        "state": state,
        "questions": {
            "team": {"type": "choice", "criteria": {"cloud": "Cloud", "onprem": "On premises"}}
        },
        "subject": subject,
        "memory": {"learn": True},
    }
    response = client.post("/v1/systemone", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    learning = response.json()["learning"]
    assert learning["status"] == "queued"  # the answer does not wait for the gate
    return learning


def outcome(client: TestClient, tenant: Tenant, request_id: str) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status = client.get(f"/v1/learning/{request_id}", headers=tenant.headers).json()
        if status["status"] != "queued":
            return status
        time.sleep(0.1)
    pytest.fail("the gate did not run")


def memory(client: TestClient, tenant: Tenant, subject: str) -> dict:
    return client.get(
        "/v1/memory", params={"subject": subject, "lines": "true"}, headers=tenant.headers
    ).json()


LASTING = "Harbor Logistics runs the self-hosted edition on Windows Server."
MOMENTARY = "Sorry for the typos, I'm typing on my phone at the airport."


def test_a_lasting_fact_is_stored_and_a_momentary_one_is_not(client, tenant, worker: Services):
    stored = outcome(
        client, tenant, decide(client, tenant, "harbor", {"ticket": LASTING})["request_id"]
    )
    assert stored["status"] == "stored" and stored["outcome"]["stored"] == [LASTING]
    assert stored["probability"] >= 0.5
    skipped = outcome(
        client, tenant, decide(client, tenant, "harbor", {"ticket": MOMENTARY})["request_id"]
    )
    assert skipped["status"] == "not_stored" and skipped["probability"] < 0.5
    assert memory(client, tenant, "harbor")["lines"] == [LASTING]


def test_the_threshold_decides_around_the_probability(client, tenant, worker):
    first = outcome(client, tenant, decide(client, tenant, "s1", {"ticket": LASTING})["request_id"])
    probability = first["probability"]
    high = client.put(
        "/v1/settings/gate",
        json={"threshold": min(1.0, probability + 0.01)},
        headers=tenant.headers,
    )
    assert high.status_code == 200
    above = outcome(client, tenant, decide(client, tenant, "s2", {"ticket": LASTING})["request_id"])
    assert above["status"] == "not_stored"
    client.put("/v1/settings/gate", json={"threshold": probability}, headers=tenant.headers)
    at = outcome(client, tenant, decide(client, tenant, "s3", {"ticket": LASTING})["request_id"])
    assert at["status"] == "stored"


def test_a_newer_learned_line_retires_the_older_one(client, tenant, worker):
    outcome(client, tenant, decide(client, tenant, "harbor", {"ticket": LASTING})["request_id"])
    newer = "Harbor Logistics moved to the cloud edition and no longer runs Windows Server."
    result = outcome(
        client, tenant, decide(client, tenant, "harbor", {"ticket": newer})["request_id"]
    )
    assert result["outcome"]["stored"] == [newer]
    assert result["outcome"]["retired"] == [LASTING]
    held = memory(client, tenant, "harbor")
    assert held["lines"] == [newer]
    assert [(line["text"], line["retired"]) for line in held["retired_lines"]] == [(LASTING, True)]
    # Retired lines are never recalled.
    decision = client.post(
        "/v1/systemone",
        json={
            "model": "m",
            "state": "Windows Server edition question",
            "subject": "harbor",
            "questions": {"q": {"type": "noul", "instructions": "Windows Server?"}},
        },
        headers=tenant.headers,
    ).json()
    assert LASTING not in [hit["text"] for hit in decision["memory"]["hits"]]


def test_forget_removes_a_learned_line(client, tenant, worker):
    outcome(client, tenant, decide(client, tenant, "harbor", {"ticket": LASTING})["request_id"])
    gone = client.post(
        "/v1/memory/forget",
        json={"subject": "harbor", "concept": "Windows Server"},
        headers=tenant.headers,
    ).json()
    assert gone["removed_lines"] == [LASTING] and gone["verified_forgotten"] is True
    assert memory(client, tenant, "harbor")["lines"] == []


def test_calibration_on_a_labelled_file_with_a_held_out_part(client, tenant):
    examples = [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]
    response = client.post(
        "/v1/gate/calibrate",
        json={
            "examples": examples,
            "held_out_share": 0.4,
            "seed": 3,
            "apply": True,
        },
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fit_examples"] == 12 and body["held_out_examples"] == 8
    assert 0 < body["threshold"] <= 1
    assert body["held_out_precision"] is not None and body["held_out_recall"] is not None
    assert (
        client.get("/v1/settings/gate", headers=tenant.headers).json()["threshold"]
        == body["threshold"]
    )
    events = client.get("/v1/audit", params={"action": "gate."}, headers=tenant.headers)
    assert [(e["action"], e["counts"]) for e in events.json()["data"]] == [
        ("gate.calibrate", {"examples": len(examples), "applied": 1})
    ]


def test_a_gate_change_is_audited_without_its_text(client, tenant):
    wording = "Does it state the customer's edition?"
    response = client.put(
        "/v1/settings/gate",
        json={"instructions": wording, "threshold": 0.7},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text
    events = client.get("/v1/audit", params={"action": "gate."}, headers=tenant.headers).json()
    assert [(e["action"], e["counts"]) for e in events["data"]] == [
        ("gate.settings", {"instructions": 1, "true": 0, "false": 0, "threshold": 1})
    ]
    assert wording not in str(events)


def test_calibration_on_the_held_out_set_reaches_the_targets(client, tenant):
    """Issue 16's bar, through the API on the default gate: fitted on 70%, held-out precision
    at least 0.85 and recall at least 0.8 (the mean over five splits, so one lucky split does
    not decide), and at most 10% of the sentences at exactly 0.5 (no answer)."""
    examples = [json.loads(line) for line in HELDOUT.read_text().splitlines() if line.strip()]
    assert len(examples) == 80 and sum(e["remember"] for e in examples) == 40
    assert client.get("/v1/settings/gate", headers=tenant.headers).json()["lasting_probe"]
    precision, recall = [], []
    for seed in range(5):
        response = client.post(
            "/v1/gate/calibrate",
            json={"examples": examples, "held_out_share": 0.3, "seed": seed},
            headers=tenant.headers,
        )
        assert response.status_code == 200, response.text
        body = response.json()
        precision.append(body["held_out_precision"])
        recall.append(body["held_out_recall"])
    assert sum(p == 0.5 for p in body["probabilities"]) <= 8
    assert sum(precision) / 5 >= 0.85 and sum(recall) / 5 >= 0.8, (precision, recall)


def test_calibration_refuses_bad_examples_by_name(client, tenant):
    response = client.post(
        "/v1/gate/calibrate",
        json={"examples": [{"request": "x", "remember": "yes"}] * 4},
        headers=tenant.headers,
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "examples.0.remember"
