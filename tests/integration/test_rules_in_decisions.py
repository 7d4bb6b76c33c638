"""Rules in decisions and the compare / explain / placebo passes, through /v1/systemone."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.deps import second_tier
from app.engines.base import count_word_tokens
from app.engines.distribution import temper
from app.engines.registry import SecondTier
from app.engines.wire import Answer, ChoiceAnswer, NoulAnswer, Question, State
from tests.support import Tenant, new_tenant

TEAM = {
    "type": "choice",
    "instructions": "Which support team should handle this ticket?",
    "criteria": {
        "cloud_ops": "Cloud team: problems with the hosted cloud edition",
        "selfhosted_windows": "Self-hosted team, Windows Server installs and performance",
        "billing": "Billing: invoices, payments, seats and plan changes",
    },
}
KNOWN = {
    "type": "noul",
    "instructions": "Does this customer have a record in this system?",
    "criteria": {
        "true": "The customer has a record in this system",
        "false": "A new customer we have never seen",
    },
}

# The seed's dungeon: a room, its ways out, a lesson, and the trap a rule must close.
COIN_HALL = {
    "room": "The Coin Hall",
    "description": "A hall with a corridor where gold coins glitter on the floor, a narrow "
    "plain stair going down, and a heavy iron door.",
}
PATH = {
    "type": "choice",
    "instructions": "Which way does the hero go?",
    "criteria": {
        "gold_coins_corridor": "Walk along the corridor with the gold coins",
        "plain_stair": "Go down the narrow plain stair",
        "iron_door": "Open the heavy iron door",
    },
}
LESSON = "In the Coin Hall, the hero always goes down the narrow plain stair."
NEVER_COINS = "Never walk along the corridor with the gold coins."


# --- helpers -------------------------------------------------------------------------------------


def remember(client: TestClient, tenant: Tenant, subject: str, *lines: str) -> dict[str, Any]:
    response = client.post(
        "/v1/memory/remember",
        json={"subject": subject, "text": "\n".join(lines)},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def add_rule(client: TestClient, tenant: Tenant, subject: str, text: str, **fields: Any) -> int:
    response = client.post(
        "/v1/memory/rules",
        json={"subject": subject, "text": text, **fields},
        headers=tenant.headers,
    )
    assert response.status_code in (200, 201), response.text
    return int(response.json()["rule"]["id"])


def decide(
    client: TestClient,
    tenant: Tenant,
    state: Any,
    questions: Mapping[str, Any],
    subject: str | None = "acme",
    **memory: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "dossier-lexical-1", "state": state, "questions": questions}
    if subject is not None:
        body["subject"] = subject
    if memory:
        body["memory"] = memory
    response = client.post("/v1/systemone", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def set_quality(
    client: TestClient, tenant: Tenant, quality: str = "fast", temperature: float = 1.0
) -> Any:
    return client.put(
        "/v1/settings/quality",
        json={"quality": quality, "temperature": temperature},
        headers=tenant.headers,
    )


def probabilities(answer: Mapping[str, Any]) -> dict[str, float]:
    if answer["type"] == "noul":
        return {"true": answer["noul"], "false": 1 - answer["noul"]}
    return dict(answer["probabilities"])


def tempered(answer: Mapping[str, Any], temperature: float) -> dict[str, float]:
    parsed: Answer
    if answer["type"] == "noul":
        parsed = NoulAnswer.model_validate(answer)
    else:
        parsed = ChoiceAnswer.model_validate(answer)
    return probabilities(temper(parsed, temperature).model_dump())


# --- each rule kind ------------------------------------------------------------------------------


def test_a_pinned_rule_goes_first_whatever_the_state_says(client, tenant) -> None:
    remember(client, tenant, "acme", "ACME runs the self-hosted edition on Windows Server.")
    rule_id = add_rule(client, tenant, "acme", "ACME has premium support.", pin=True)
    body = decide(client, tenant, "Something about the weather.", {"team": TEAM})
    memory = body["memory"]
    (fired,) = memory["rules_fired"]
    assert fired == {
        "id": rule_id,
        "text": "ACME has premium support.",
        "kind": "pinned",
        "fact": None,
        "sent": True,
        "read": True,
        "excluded": [],
    }
    assert all(hit["kind"] == "recalled" for hit in memory["hits"])
    assert memory["lines_used"] == 1 + len(memory["hits"])


def test_a_conditional_rule_fires_on_the_number_and_adds_its_fact(client, tenant) -> None:
    remember(client, tenant, "acme", "ACME orders office chairs.")
    rule_id = add_rule(
        client,
        tenant,
        "acme",
        "Large orders need a manager's approval.",
        when={"path": "order.total", "op": ">", "value": 500},
    )
    questions = {"approve": {"type": "noul", "instructions": "Approve this order now?"}}
    big = decide(client, tenant, {"order": {"total": 620, "item": "chairs"}}, questions)
    # Two lines sent, the computed fact and the rule's text: an entry each, each read.
    computed, fired = big["memory"]["rules_fired"]
    assert computed["id"] == fired["id"] == rule_id
    assert (computed["kind"], computed["text"]) == (
        "computed",
        "order.total is 620, more than 500.",
    )
    assert fired["kind"] == "rule" and fired["sent"] is True
    assert fired["text"] == "Large orders need a manager's approval."
    assert fired["fact"] == computed["fact"] == "order.total is 620, more than 500."
    assert fired["read"] is True and computed["read"] is True
    assert big["memory"]["lines_used"] == 2 + len(big["memory"]["hits"])  # the fact and the rule
    # The seed's invariant: as many lines read in hits and rules_fired as lines_seen counts.
    entries = big["memory"]["hits"] + big["memory"]["rules_fired"]
    assert sum(entry["read"] for entry in entries) == big["memory"]["lines_seen"]
    assert big["memory"]["rules_broken"] == []

    small = decide(client, tenant, {"order": {"total": 120}}, questions)
    assert small["memory"]["rules_fired"] == [] and small["memory"]["rules_broken"] == []
    absent = decide(client, tenant, {"cart": {"total": 900}}, questions)
    assert absent["memory"]["rules_fired"] == [] and absent["memory"]["rules_broken"] == []


def test_a_malformed_path_or_a_non_number_is_listed_broken(client, tenant) -> None:
    text_rule = add_rule(
        client,
        tenant,
        "acme",
        "Rush notes first.",
        when={"path": "order.note", "op": ">", "value": 1},
    )
    path_rule = add_rule(
        client, tenant, "acme", "Odd path.", when={"path": "order..total", "op": ">", "value": 1}
    )
    body = decide(
        client,
        tenant,
        {"order": {"total": 5, "note": "rush"}},
        {"approve": {"type": "noul", "instructions": "Approve?"}},
    )
    broken = {rule["id"]: rule["reason"] for rule in body["memory"]["rules_broken"]}
    assert broken.keys() == {text_rule, path_rule}
    assert "order.note is the string 'rush', not a number" in broken[text_rule]
    assert "malformed path" in broken[path_rule]
    assert body["memory"]["rules_fired"] == []


def test_an_exclusion_removes_the_option_and_renormalises_the_rest(client, tenant) -> None:
    remember(client, tenant, "acme", "ACME has slow dashboards.")
    plain = decide(client, tenant, "Our invoice payment failed twice.", {"team": TEAM})
    assert plain["answers"]["team"]["choice"] == "billing"
    rule_id = add_rule(
        client,
        tenant,
        "acme",
        "Billing tickets for ACME go elsewhere.",
        exclude={"question": "team", "options": ["billing"]},
    )
    body = decide(client, tenant, "Our invoice payment failed twice.", {"team": TEAM})
    team = body["answers"]["team"]
    assert team["probabilities"]["billing"] == 0.0
    assert sum(team["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert team["choice"] != "billing"
    before = plain["answers"]["team"]["probabilities"]
    ratio = before["cloud_ops"] / before["selfhosted_windows"]
    after = team["probabilities"]
    assert after["cloud_ops"] / after["selfhosted_windows"] == pytest.approx(ratio, rel=1e-2)
    (fired,) = body["memory"]["rules_fired"]
    assert fired["id"] == rule_id and fired["sent"] is False and fired["read"] is False
    assert fired["excluded"] == [{"question": "team", "option": "billing"}]


def test_a_rule_that_would_remove_every_option_removes_none(client, tenant) -> None:
    rule_id = add_rule(
        client,
        tenant,
        "acme",
        "Never route anywhere.",
        exclude={"question": None, "options": list(TEAM["criteria"])},
    )
    body = decide(client, tenant, "Our invoice payment failed twice.", {"team": TEAM})
    assert body["answers"]["team"]["choice"] == "billing"
    (broken,) = body["memory"]["rules_broken"]
    assert broken["id"] == rule_id and broken["question"] == "team"
    assert "every option of question 'team'" in broken["reason"]
    assert body["memory"]["rules_fired"] == []


# --- compare, explain, placebo -------------------------------------------------------------------


def test_the_dungeon_a_rule_takes_the_coins_away(client, tenant) -> None:
    """The seed's Jepela Dungeon on the embedded engine: the hero takes the coins until taught;
    a line forbidding the coins names them and pulls the hero back; an exclusion rule makes them
    impossible, and compare says a rule took that answer away."""
    room = {"path": PATH}
    untaught = decide(client, tenant, COIN_HALL, room, subject=None)
    assert untaught["answers"]["path"]["choice"] == "gold_coins_corridor"

    remember(client, tenant, "hero", LESSON)
    taught = decide(client, tenant, COIN_HALL, room, subject="hero", explain=True)
    assert taught["answers"]["path"]["choice"] == "plain_stair"
    (lesson,) = taught["memory"]["explain"]
    assert lesson["text"] == LESSON and lesson["kind"] == "recalled" and lesson["read"] is True
    assert lesson["moves"]["path"] > 0.5 and lesson["flips"] == ["path"]

    warned = remember(client, tenant, "hero", NEVER_COINS)
    assert [w["code"] for w in warned["warnings"]] == ["memory_negative_rule"]
    pulled = decide(client, tenant, COIN_HALL, room, subject="hero")
    assert pulled["answers"]["path"]["choice"] == "gold_coins_corridor"  # naming pulls

    add_rule(
        client,
        tenant,
        "hero",
        NEVER_COINS,
        exclude={"question": "path", "options": ["gold_coins_corridor"]},
    )
    ruled = decide(
        client, tenant, COIN_HALL, room, subject="hero", compare=True, explain=True, placebo=True
    )
    path = ruled["answers"]["path"]
    assert path["choice"] == "plain_stair" and path["probabilities"]["gold_coins_corridor"] == 0
    memory = ruled["memory"]
    without = memory["without_memory"]["path"]
    assert without["choice"] == "gold_coins_corridor"
    assert without["probabilities"] == untaught["answers"]["path"]["probabilities"]  # kept
    change = memory["changes"]["path"]
    assert change["from"] == "gold_coins_corridor" and change["to"] == "plain_stair"
    assert change["excluded"] == [{"option": "gold_coins_corridor", "rule": NEVER_COINS}]
    assert change["taken_by_rule"] is True
    assert change["moved"] == pytest.approx(
        path["probabilities"]["plain_stair"] - without["probabilities"]["plain_stair"], abs=1e-4
    )
    explained = {(entry["kind"], entry["text"]): entry for entry in memory["explain"]}
    assert set(explained) == {
        ("rule", NEVER_COINS),
        ("recalled", LESSON),
        ("recalled", NEVER_COINS),
    }
    assert explained[("rule", NEVER_COINS)]["read"] is False  # it acts in code, unsent
    assert explained[("recalled", LESSON)]["moves"]["path"] > 0
    # Neutral lines name no way out: the hero goes for the coins as without memory.
    assert memory["placebo"]["answers"]["path"]["choice"] == "gold_coins_corridor"
    assert memory["placebo"]["presence_only"] == []


def test_placebo_finds_a_question_moved_by_presence_alone(client, tenant) -> None:
    remember(
        client,
        tenant,
        "north-traders",
        "North Traders has been a customer with a record in this system since 2019.",
        "North Traders runs the self-hosted edition on Windows Server.",
    )
    body = decide(
        client,
        tenant,
        {"ticket": "Hello, we need help with our account at North Traders."},
        {"known": KNOWN, "team": TEAM},
        subject="north-traders",
        placebo=True,
    )
    placebo = body["memory"]["placebo"]
    assert placebo["presence_only"] == ["known"]
    assert placebo["memory_effect"]["known"] > 0.3
    assert abs(placebo["content_effect"]["known"]) < 0.01
    assert placebo["content_effect"]["team"] > 0.5
    assert body["memory"]["without_memory"] is None  # placebo alone does not show compare


def test_explain_asks_every_line_left_out_and_is_not_billed(client) -> None:
    tenant = new_tenant(client)
    lines = [
        f"ACME note {i}: ACME runs the self-hosted edition on Windows Server." for i in range(9)
    ]
    remember(client, tenant, "acme", *lines)
    body = decide(
        client,
        tenant,
        "ACME says dashboards are slow on Windows Server.",
        {"team": TEAM},
        top_k=10,
        compare=True,
        explain=True,
        placebo=True,
    )
    assert len(body["memory"]["explain"]) == 8
    assert [e["text"] for e in body["memory"]["explain"]] == [
        hit["text"] for hit in body["memory"]["hits"][:8]
    ]
    assert body["usage"]["billed"] is True
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["route"] for line in ledger].count("systemone") == 1


def test_every_pass_reads_the_turns_the_answer_read(client, tenant) -> None:
    """Old billing turns give way to the memory; the answer without memory must not read them
    back, or compare would show what the old turns said, not what the memory did."""
    old = [{"from": "customer", "text": "Our invoice payment failed and billing charged twice."}]
    turns = old * 8 + [{"from": "customer", "text": f"Thanks, noted {i}."} for i in range(270)]
    remember(
        client,
        tenant,
        "harbor",
        "Harbor runs the self-hosted edition on Windows Server.",
        "Harbor signed a three year contract with the operations department in Rotterdam.",
    )
    body = decide(
        client, tenant, turns, {"team": TEAM}, subject="harbor", compare=True, placebo=True
    )
    dropped = body["reading"]["turns_dropped"]
    assert dropped > 8
    kept = decide(client, tenant, turns[dropped:], {"team": TEAM}, subject=None)
    full = decide(client, tenant, turns, {"team": TEAM}, subject=None)
    assert full["answers"]["team"]["choice"] == "billing"  # what a pass on all turns would say
    assert body["memory"]["without_memory"] == kept["answers"]
    assert body["memory"]["placebo"]["answers"]["team"]["choice"] != "billing"


# --- quality -------------------------------------------------------------------------------------


def test_the_temperature_is_applied_alike_to_the_answer_and_its_passes(client) -> None:
    tenant = new_tenant(client)
    remember(client, tenant, "acme", "ACME runs the self-hosted edition on Windows Server.")
    state = "ACME says the dashboards are slow and invoices are late."
    questions = {"team": TEAM, "known": KNOWN}
    passes = {"compare": True, "explain": True, "placebo": True}
    plain = decide(client, tenant, state, questions, **passes)
    assert plain["quality"] == {
        "level": "fast",
        "temperature": 1.0,
        "tiers": {"team": "first", "known": "first"},
        "first": {},
    }

    assert set_quality(client, tenant, "fast", 0.5).status_code == 200
    hot = decide(client, tenant, state, questions, **passes)
    assert hot["quality"]["temperature"] == 0.5
    for name in questions:
        shown = probabilities(hot["answers"][name])
        assert shown == pytest.approx(tempered(plain["answers"][name], 0.5), abs=1e-4)
        without = probabilities(hot["memory"]["without_memory"][name])
        expected = tempered(plain["memory"]["without_memory"][name], 0.5)
        assert without == pytest.approx(expected, abs=1e-4)
        neutral = probabilities(hot["memory"]["placebo"]["answers"][name])
        expected = tempered(plain["memory"]["placebo"]["answers"][name], 0.5)
        assert neutral == pytest.approx(expected, abs=1e-4)
    # One line: leaving it out is answering without memory, on the same (tempered) scale.
    (entry,) = hot["memory"]["explain"]
    assert entry["moves"]["team"] == pytest.approx(hot["memory"]["changes"]["team"]["moved"])
    assert entry["moves"]["team"] != pytest.approx(plain["memory"]["explain"][0]["moves"]["team"])


def test_quality_settings_are_checked(client, tenant) -> None:
    assert set_quality(client, tenant, "fast", 0).status_code == 422
    assert set_quality(client, tenant, "fastest").status_code == 422
    refused = set_quality(client, tenant, "balanced")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_second_tier"
    got = client.get("/v1/settings/quality", headers=tenant.headers).json()
    assert got == {"quality": "fast", "temperature": 1.0, "second_tier": False}


class SureEngine:
    """A second tier that is always sure of the last option: easy to tell from the first."""

    name = "sure"
    read_window_tokens = 4096

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, list[str]]] = []

    def count_tokens(self, text: str) -> int:
        return count_word_tokens(text)

    def models(self) -> list[str]:
        return ["sure-1"]

    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        self.asked.append((model, len(states), list(questions)))
        answers: dict[str, Answer] = {}
        for name, question in questions.items():
            labels = list(getattr(question, "criteria", {}) or {})
            if question.type == "choice":
                rest = 0.05 / (len(labels) - 1)
                probs = {label: rest for label in labels[:-1]} | {labels[-1]: 0.95}
                answers[name] = ChoiceAnswer(choice=labels[-1], confidence=0.9, probabilities=probs)
            else:
                answers[name] = NoulAnswer(noul=0.97)
        return [answers for _ in states]


@pytest.fixture
def sure_engine(client: TestClient) -> Iterator[SureEngine]:
    engine = SureEngine()
    app: Any = client.app
    app.dependency_overrides[second_tier] = lambda: SecondTier(engine, threshold=0.6)
    yield engine
    app.dependency_overrides.pop(second_tier, None)


def test_balanced_asks_unsure_questions_of_the_second_tier(client, tenant, sure_engine) -> None:
    remember(client, tenant, "acme", "ACME runs the self-hosted edition on Windows Server.")
    assert set_quality(client, tenant, "balanced", 0.5).status_code == 200
    state = "ACME says dashboards are slow on Windows Server."
    unsure = {"type": "choice", "criteria": {"red": "red", "blue": "blue"}}
    body = decide(
        client, tenant, state, {"team": TEAM, "colour": unsure}, explain=True, placebo=True
    )
    quality = body["quality"]
    assert quality["level"] == "balanced"
    assert quality["tiers"] == {"team": "first", "colour": "second"}
    assert sure_engine.asked == [("sure-1", 1, ["colour"])]  # only the unsure question, once
    colour = body["answers"]["colour"]
    assert colour["choice"] == "blue" and colour["probabilities"]["blue"] == 0.95  # untempered
    first = quality["first"]["colour"]
    assert first["probabilities"] == {"red": 0.5, "blue": 0.5}  # the engine's own, untempered
    memory = body["memory"]
    assert memory["placebo"]["measured_on_first"] == ["colour"]
    assert all(entry["measured_on_first"] == ["colour"] for entry in memory["explain"])
    # the passes stayed with the first engine: still only one call to the second tier
    assert len(sure_engine.asked) == 1

    assert set_quality(client, tenant, "best").status_code == 200
    best = decide(client, tenant, state, {"team": TEAM})
    assert best["quality"]["tiers"] == {"team": "second"}
    assert best["answers"]["team"]["choice"] == "billing"  # the sure engine's last option


# --- asynchronous passes -------------------------------------------------------------------------


def wait_for_job(client: TestClient, tenant: Tenant, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        response = client.get(f"/v1/jobs/{job_id}", headers=tenant.headers)
        assert response.status_code == 200, response.text
        job = dict(response.json())
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < deadline, f"job {job_id} still {job['status']}"
        time.sleep(0.1)


def test_async_passes_run_on_the_worker_from_what_was_placed(client, worker) -> None:
    tenant = new_tenant(client)
    remember(client, tenant, "hero", LESSON)
    add_rule(
        client,
        tenant,
        "hero",
        NEVER_COINS,
        exclude={"question": "path", "options": ["gold_coins_corridor"]},
    )
    asked = {"compare": True, "explain": True, "placebo": True}
    sync = decide(client, tenant, COIN_HALL, {"path": PATH}, subject="hero", **asked)
    later = decide(
        client, tenant, COIN_HALL, {"path": PATH}, subject="hero", passes="async", **asked
    )
    assert later["answers"] == sync["answers"]
    job_ref = later["memory"]["passes_job"]
    assert job_ref["status"] == "queued" and job_ref["url"] == f"/v1/jobs/{job_ref['id']}"
    assert later["memory"]["without_memory"] is None and later["memory"]["explain"] is None
    # The memory changes at once; the job still measures the lines that decision placed.
    remember(client, tenant, "hero", "In the Coin Hall, the iron door always hides the exit.")

    job = wait_for_job(client, tenant, job_ref["id"])
    assert job["status"] == "done", job
    for block in ("without_memory", "changes", "explain", "placebo"):
        assert job[block] == sync["memory"][block], block
    assert job["changes"]["path"]["taken_by_rule"] is True

    stranger = new_tenant(client)
    assert client.get(f"/v1/jobs/{job_ref['id']}", headers=stranger.headers).status_code == 404
    assert client.get("/v1/jobs/not-a-uuid", headers=tenant.headers).status_code == 404
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert [line["route"] for line in ledger].count("systemone") == 2

    deleted = client.post("/v1/memory/delete", json={"subject": "hero"}, headers=tenant.headers)
    assert deleted.status_code == 200, deleted.text
    assert client.get(f"/v1/jobs/{job_ref['id']}", headers=tenant.headers).status_code == 404


class FailingEngine(SureEngine):
    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        from app.errors import UpstreamTimeout

        raise UpstreamTimeout("the engine did not answer in time")


def test_a_job_whose_engine_fails_says_so_and_runs_once(client, tenant) -> None:
    import uuid

    from app.db import session_scope
    from app.decisions import pass_jobs
    from app.decisions.passes import Baseline, PassPlan
    from app.engines.wire import parse_request
    from app.tenants.service import CurrentTenant

    request = parse_request({"model": "m", "state": "x", "questions": {"path": PATH}})
    plan = PassPlan("m", "x", dict(request.questions), 0, (), (), compare=True)
    owner = CurrentTenant(id=uuid.UUID(tenant.tenant_id), status="active")
    with session_scope() as (session, _jobs):
        job_id = str(pass_jobs.create_job(session, owner, None, plan, Baseline({})).id)

    pass_jobs.run_job(FailingEngine(), job_id)
    job = wait_for_job(client, tenant, job_id)
    assert job["status"] == "failed"
    assert job["error"] == "upstream_timeout: the engine did not answer in time"
    pass_jobs.run_job(SureEngine(), job_id)  # a second delivery finds it finished
    assert wait_for_job(client, tenant, job_id) == job
