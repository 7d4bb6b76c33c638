"""End-user knowledge on real PostgreSQL, Redis and a Celery worker: the switch, extraction
from chat turns, reconciliation, facts routes, collections and documents, blended search."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from redis import Redis

from app.chat.service import DISCLOSURE
from app.deps import UowDep
from app.knowledge.indexes import KnowledgeIndexes
from app.knowledge.service import RetrievalService
from app.settings import get_settings
from tests.knowledge_support import (
    chat,
    document_ready,
    enable,
    facts,
    pdf_with_text,
    pdf_without_text,
    wait_for,
)
from tests.support import Services, Tenant


def today() -> date:
    return datetime.now(UTC).date()


def add_facts(client: TestClient, tenant: Tenant, user: str, *items: dict[str, Any]) -> Any:
    response = client.post(
        f"/v1/users/{user}/facts", json={"facts": list(items)}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    return response.json()


# The switch


def test_knowledge_is_off_until_switched_on_and_then_stores_nothing(
    client: TestClient, tenant: Tenant
) -> None:
    assert client.get("/v1/knowledge/settings", headers=tenant.headers).json() == {
        "enabled": False,
        "retrieval": {"top_k": 8, "embeddings": "static"},
    }
    answer = chat(client, tenant, "I live in Rotterdam.", user="u1", thread="t1")
    assert answer["sources"] == [] and answer["knowledge"]["enabled"] is False
    refused = client.post(
        "/v1/users/u1/facts", json={"facts": [{"text": "x"}]}, headers=tenant.headers
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "knowledge_off"
    enable(client, tenant)
    assert facts(client, tenant, "u1") == []


def test_turning_off_with_data_needs_keep_or_delete(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    add_facts(client, tenant, "u1", {"text": "Lives in Lyon", "slot": "home", "value": "Lyon"})
    client.post("/v1/collections", json={"name": "Support docs"}, headers=tenant.headers)

    refused = client.put("/v1/knowledge/settings", json={"enabled": False}, headers=tenant.headers)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "on_disable"
    assert client.get("/v1/knowledge/settings", headers=tenant.headers).json()["enabled"]

    kept = client.put(
        "/v1/knowledge/settings",
        json={"enabled": False, "on_disable": "keep"},
        headers=tenant.headers,
    )
    assert kept.status_code == 200 and kept.json() == {"enabled": False}
    search = client.post(
        "/v1/knowledge/search", json={"query": "Lyon", "user": "u1"}, headers=tenant.headers
    )
    assert search.json()["data"] == [] and search.json()["searched"] is False
    enable(client, tenant)
    assert [f["text"] for f in facts(client, tenant, "u1")] == ["Lives in Lyon"]

    deleted = client.put(
        "/v1/knowledge/settings",
        json={"enabled": False, "on_disable": "delete"},
        headers=tenant.headers,
    )
    assert deleted.status_code == 200
    assert deleted.json()["deleted"]["facts"] == 1
    assert deleted.json()["deleted"]["collections"] == 1
    assert facts(client, tenant, "u1") == []
    assert client.get("/v1/collections", headers=tenant.headers).json()["data"] == []
    actions = [e["action"] for e in client.get("/v1/audit", headers=tenant.headers).json()["data"]]
    assert actions.count("knowledge.settings") == 4


# Extraction from chat turns


def test_a_threads_turns_are_extracted_together_after_the_delay_and_billed_once(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    first = chat(
        client, tenant, "Hi, I'm Priya and I work at Northwind.", user="priya", thread="onboarding"
    )
    assert first["sources"] == []  # nothing known yet
    assert facts(client, tenant, "priya") == []  # not instantly: after the delay
    messages = [
        {"role": "user", "content": "Hi, I'm Priya and I work at Northwind."},
        {"role": "assistant", "content": "Nice to meet you."},
        {"role": "user", "content": "I'm allergic to peanuts. Can you book me a table?"},
    ]
    response = client.post(
        "/v1/chat/completions",
        json={"model": "any", "messages": messages, "user": "priya", "thread": "onboarding"},
        headers=tenant.headers,
    )
    assert response.status_code == 200

    learned = wait_for(lambda: facts(client, tenant, "priya"), what="extraction")
    texts = sorted(f["text"] for f in learned)
    assert texts == ["Is allergic to peanuts", "Name is Priya", "Works at Northwind"]
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    extraction = [line for line in ledger if line["route"] == "knowledge.extraction"]
    assert len(extraction) == 1 and extraction[0]["units"] == 2

    recalled = chat(client, tenant, "Where does Priya work?", user="priya")
    assert recalled["sources"][0]["type"] == "facts"
    assert "Works at Northwind" in recalled["choices"][0]["message"]["content"]
    assert "embedded answerer" in recalled["choices"][0]["message"]["content"]


def test_a_contradicted_fact_retires_with_its_day_and_is_no_longer_retrieved(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    chat(client, tenant, "I work at Northwind.", user="jo", thread="a")
    wait_for(lambda: facts(client, tenant, "jo"), what="first extraction")
    chat(
        client, tenant, "I left Northwind yesterday. I work at Contoso now.", user="jo", thread="b"
    )
    wait_for(lambda: facts(client, tenant, "jo", status="retired"), what="retirement")
    retired = facts(client, tenant, "jo", status="retired")
    assert [(f["text"], f["retired_on"]) for f in retired] == [
        ("Works at Northwind", (today() - timedelta(days=1)).isoformat())
    ]
    assert [f["text"] for f in facts(client, tenant, "jo", status="active")] == ["Works at Contoso"]
    found = client.post(
        "/v1/knowledge/search", json={"query": "Northwind", "user": "jo"}, headers=tenant.headers
    ).json()
    assert all("Northwind" not in hit["text"] for hit in found["data"])
    export = client.get("/v1/users/jo/export", headers=tenant.headers).json()
    assert {f["status"] for f in export["data"]} == {"active", "retired"}
    graph = client.get("/v1/users/jo/graph", headers=tenant.headers).json()
    edges = {(e["target"], e["status"]) for e in graph["edges"]}
    assert ("organization:northwind", "retired") in edges
    assert ("organization:contoso", "active") in edges


def test_everyday_phrasing_is_kept_by_the_durable_reader_and_replaces_the_old_home(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    """No pattern knows "relocated ... for good": the durable reader (the default while meaning
    is on) keeps it, in the words said, and as a new home it retires the old one."""
    enable(client, tenant)
    chat(client, tenant, "I live in Kraków.", user="ola", thread="a")
    wait_for(lambda: facts(client, tenant, "ola"), what="first extraction")
    chat(
        client,
        tenant,
        "I've just relocated to Gdansk for good. Could you find me a dentist there?",
        user="ola",
        thread="b",
    )
    wait_for(lambda: facts(client, tenant, "ola", status="retired"), what="the new home")
    active = facts(client, tenant, "ola", status="active")
    assert [f["text"] for f in active] == ["I've just relocated to Gdansk for good"]
    assert [f["text"] for f in facts(client, tenant, "ola", status="retired")] == [
        "Lives in Kraków"
    ]


def test_a_fact_said_before_a_question_and_a_second_fact_in_one_sentence_are_kept(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    """The durable reader reads clauses: the statement before a question (a question alone
    gives nothing) and the second thing one sentence says; someone else's home is not the
    user's."""
    enable(client, tenant)
    chat(
        client,
        tenant,
        "I'm vegetarian, what should I order at a steakhouse? "
        "grew up in Valparaíso, these days I live in Santiago with my wife. "
        "My sister has lived in Oslo for years, she loves it.",
        user="tomas",
        thread="a",
    )
    wait_for(lambda: len(facts(client, tenant, "tomas")) >= 3, what="the clauses' facts")
    found = {(f["slot"], f["value"]) for f in facts(client, tenant, "tomas", status="all")}
    assert {("diet", "vegetarian"), ("origin", "Valparaíso"), ("home", "Santiago")} <= found
    assert not any("Oslo" in value for _, value in found)


def test_a_year_of_history_is_imported_with_each_turns_own_date(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    """Relative days read against the day each turn was said, not the day of the import, and
    the import's progress and counts visible while and after it runs."""
    enable(client, tenant)
    first = date(2025, 1, 6)
    turns: list[dict[str, str]] = [
        {
            "text": f"Thanks, that helps with note {n}!",
            "said_at": f"{first + timedelta(days=2 * n)}T10:00:00+00:00",
            "thread": f"month-{(2 * n) // 30}",
        }
        for n in range(180)
    ]
    turns += [
        {"text": "I ran a half marathon yesterday.", "said_at": "2025-04-14T08:00:00+00:00"},
        {"text": "I start at Contoso next Monday.", "said_at": "2025-06-11T21:30:00+02:00"},
        {
            "text": "I work from the Berlin office until 1 October.",
            "said_at": "2025-09-10T12:00:00-04:00",
        },
    ]
    started = client.post("/v1/users/hana/history", json={"turns": turns}, headers=tenant.headers)
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["turns"] == 183 and job["status"] in ("queued", "running")
    assert sum(job["batches"].values()) > 10  # by thread and at most 50 turns: many batches

    def finished() -> dict[str, Any] | None:
        view = client.get(f"/v1/users/hana/history/{job['id']}", headers=tenant.headers).json()
        return view if view["status"] == "done" else None

    done = wait_for(finished, timeout=90, what="the history import")
    assert done["batches"]["pending"] == 0 and done["batches"]["failed"] == 0
    assert done["turns_done"] == 183
    assert (done["facts"], done["events"]) == (2, 1)
    days = {
        f["text"]: (f["valid_from"], f["valid_until"], f["happened_on"], f["said_on"])
        for f in facts(client, tenant, "hana", status="all")
    }
    assert days == {
        "Ran a half marathon 13 April 2025": (None, None, "2025-04-13", "2025-04-14"),
        "Works at Contoso": ("2025-06-16", None, None, "2025-06-11"),
        "Works in the Berlin office": (None, "2025-10-01", None, "2025-09-10"),
    }
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    billed = sum(line["units"] for line in ledger if line["route"] == "knowledge.extraction")
    assert billed == 183


def test_dossier_knowledge_import_follows_each_part_with_a_progress_bar(
    live_url: str, client: TestClient, tenant: Tenant, worker: Services, tmp_path: Path
) -> None:
    enable(client, tenant)
    history = tmp_path / "history.jsonl"
    lines = [
        {"text": "I start at Contoso next Monday.", "said_at": "2025-06-11T09:00:00+00:00"},
        {"text": "How do I export a report?", "said_at": "2025-02-01T09:00:00+00:00"},
    ]
    history.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    command = [sys.executable, "-m", "app.cli", "knowledge", "import", str(history)]
    ran = subprocess.run(
        [*command, "--user", "cli-user", "--server", live_url, "--key", tenant.api_key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert "2 turns extracted: 1 facts, 0 events" in ran.stdout
    assert "2/2 turns" in ran.stderr  # the progress bar's last state
    (fact,) = facts(client, tenant, "cli-user")
    assert (fact["text"], fact["valid_from"]) == ("Works at Contoso", "2025-06-16")

    history.write_text('{"text": "no date"}\n')
    refused = subprocess.run(
        [*command, "--user", "cli-user", "--server", live_url, "--key", tenant.api_key],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0
    assert 'history.jsonl:1: a turn needs "text" and "said_at"' in refused.stderr


def test_a_chat_message_may_say_when_it_was_said(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    message = {
        "role": "user",
        "content": "I ran a half marathon yesterday.",
        "said_at": "2025-04-14T08:00:00+00:00",
    }
    body = {"model": "any", "messages": [message], "user": "ines"}
    assert client.post("/v1/chat/completions", json=body, headers=tenant.headers).status_code == 200
    (event,) = wait_for(lambda: facts(client, tenant, "ines"), what="extraction")
    assert (event["happened_on"], event["said_on"]) == ("2025-04-13", "2025-04-14")
    future = {**message, "said_at": "2999-01-01T00:00:00Z"}
    refused = client.post(
        "/v1/chat/completions", json={**body, "messages": [future]}, headers=tenant.headers
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["field"] == "messages.0.said_at"


def test_a_history_import_names_what_is_wrong(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    cases = [
        ({"turns": []}, "turns"),
        ({"turns": [{"text": "Hi there", "said_at": "2025-03-03T10:00:00"}]}, "turns.0.said_at"),
        ({"turns": [{"text": "Hi there", "said_at": "2999-01-01T00:00:00Z"}]}, "turns.0.said_at"),
        ({"turns": [{"text": "Hi", "said_at": "2025-03-03T10:00:00Z", "mood": 1}]}, "turns.0.mood"),
    ]
    for body, field in cases:
        response = client.post("/v1/users/hana/history", json=body, headers=tenant.headers)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"]["field"] == field
    missing = client.get(f"/v1/users/hana/history/imp_{'0' * 32}", headers=tenant.headers)
    assert missing.status_code == 404


def test_saying_a_habit_ended_retires_it_and_keeps_what_holds_now(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    chat(client, tenant, "I drink coffee every morning.", user="tom", thread="a")
    wait_for(lambda: facts(client, tenant, "tom"), what="the habit")
    chat(client, tenant, "I don't drink coffee anymore.", user="tom", thread="b")
    retired = wait_for(lambda: facts(client, tenant, "tom", status="retired"), what="the end")
    assert [f["text"] for f in retired] == ["I drink coffee every morning"]
    active = facts(client, tenant, "tom", status="active")
    assert [(f["slot"], f["text"]) for f in active] == [("habit", "No longer drinks coffee")]
    chat(client, tenant, "I drink coffee every morning again.", user="tom", thread="c")
    wait_for(
        lambda: (
            sorted(f["text"] for f in facts(client, tenant, "tom", status="retired"))
            == ["I drink coffee every morning", "No longer drinks coffee"]
        ),
        what="taking it up again",
    )
    active = facts(client, tenant, "tom", status="active")
    assert [f["text"] for f in active] == ["I drink coffee every morning again"]


def test_shared_conversations_read_and_store_nothing_personal(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    add_facts(
        client, tenant, "sam", {"text": "Prefers vegan food", "slot": "diet", "value": "vegan"}
    )
    client.post("/v1/collections", json={"name": "Menu"}, headers=tenant.headers)
    doc = client.post(
        "/v1/collections/menu/documents",
        json={"title": "Lunch", "text": "The vegan lunch is lentil curry."},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, "menu", doc["id"])

    shared = chat(
        client,
        tenant,
        "What vegan food is there? I hate olives.",
        user="sam",
        thread="team",
        member_count=3,
    )
    assert shared["disclosure"] == DISCLOSURE
    assert [s["type"] for s in shared["sources"]] == ["document"]  # workspace knowledge only
    assert shared["knowledge"]["personal"] is False
    private = chat(client, tenant, "What vegan food is there?", user="sam")
    assert {s["type"] for s in private["sources"]} == {"document", "facts"}
    assert "disclosure" not in private
    # Nothing said in the shared thread becomes a fact: the private call's turn does, later.
    wait_for(
        lambda: (
            len(client.get("/v1/audit", headers=tenant.headers).json()["data"])
            and [
                e
                for e in client.get("/v1/audit", headers=tenant.headers).json()["data"]
                if e["action"] == "knowledge.extraction"
            ]
        ),
        what="the private thread's extraction",
    )
    assert all("olives" not in f["text"] for f in facts(client, tenant, "sam"))


# Facts routes


def test_facts_list_search_filter_sort_and_cursor(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    added = add_facts(
        client,
        tenant,
        "kim",
        {"text": "Lives in Oslo", "slot": "home", "value": "Oslo"},
        {"text": "Likes skiing", "slot": "likes", "value": "skiing"},
        {"text": "Went to Bergen", "kind": "event", "happened_on": "2025-02-01"},
        {"text": "Lives in Trondheim", "slot": "home", "value": "Trondheim"},
    )
    assert len(added["ids"]) == 4 and len(added["retired"]) == 1
    assert [f["text"] for f in facts(client, tenant, "kim", q="lives")] == [
        "Lives in Trondheim",
        "Lives in Oslo",
    ]
    assert [f["text"] for f in facts(client, tenant, "kim", status="retired")] == ["Lives in Oslo"]
    oldest = facts(client, tenant, "kim", sort="oldest", status="active")
    assert [f["text"] for f in oldest] == ["Likes skiing", "Went to Bergen", "Lives in Trondheim"]
    page = client.get("/v1/users/kim/facts", params={"limit": 3}, headers=tenant.headers).json()
    assert len(page["data"]) == 3 and page["next_cursor"]
    rest = client.get(
        "/v1/users/kim/facts",
        params={"limit": 3, "cursor": page["next_cursor"]},
        headers=tenant.headers,
    ).json()
    assert len(rest["data"]) == 1 and rest["next_cursor"] is None
    assert (
        add_facts(
            client, tenant, "kim", {"text": "Likes skiing", "slot": "likes", "value": "skiing"}
        )["duplicates"]
        == 1
    )


def test_deleting_a_fact_forgets_it_everywhere(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    ids = add_facts(
        client,
        tenant,
        "lee",
        {"text": "Email address is lee@example.com", "slot": "email", "value": "lee@example.com"},
    )["ids"]
    assert client.post(
        "/v1/knowledge/search", json={"query": "email", "user": "lee"}, headers=tenant.headers
    ).json()["data"]
    refused = client.request(
        "DELETE", f"/v1/users/lee/facts/{ids[0]}?dry_run=true", headers=tenant.headers
    )
    assert refused.status_code == 422
    deleted = client.delete(f"/v1/users/lee/facts/{ids[0]}", headers=tenant.headers)
    assert deleted.status_code == 200
    assert (
        client.post(
            "/v1/knowledge/search", json={"query": "email", "user": "lee"}, headers=tenant.headers
        ).json()["data"]
        == []
    )
    assert client.get("/v1/users/lee/export", headers=tenant.headers).json()["data"] == []
    assert client.get("/v1/users/lee/graph", headers=tenant.headers).json()["edges"] == []
    again = client.delete(f"/v1/users/lee/facts/{ids[0]}", headers=tenant.headers)
    assert again.status_code == 404


def test_promoting_a_fact_moves_it_into_collections(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    fact_id = add_facts(client, tenant, "ana", {"text": "The Lisbon office closes at 6pm"})["ids"][
        0
    ]
    no_collection = client.post(
        f"/v1/users/ana/facts/{fact_id}/promote",
        json={"collections": ["faq"]},
        headers=tenant.headers,
    )
    assert no_collection.status_code == 409
    for name in ("FAQ", "Offices"):
        client.post("/v1/collections", json={"name": name}, headers=tenant.headers)
    unknown = client.post(
        f"/v1/users/ana/facts/{fact_id}/promote",
        json={"collections": ["faq", "nope"]},
        headers=tenant.headers,
    )
    assert unknown.status_code == 422 and "nope" in unknown.json()["error"]["message"]
    promoted = client.post(
        f"/v1/users/ana/facts/{fact_id}/promote",
        json={"collections": ["faq", "offices"]},
        headers=tenant.headers,
    )
    assert promoted.status_code == 200, promoted.text
    for doc in promoted.json()["documents"]:
        assert document_ready(client, tenant, doc["collection"], doc["id"])["status"] == "ready"
    assert facts(client, tenant, "ana") == []
    anyone = client.post(
        "/v1/knowledge/search",
        json={"query": "When does the Lisbon office close?"},
        headers=tenant.headers,
    ).json()
    assert {s["collection"] for s in anyone["sources"]} == {"faq", "offices"}


def test_export_pages_with_next_cursor(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    add_facts(
        client, tenant, "pat", *[{"text": f"Event number {n}", "kind": "event"} for n in range(5)]
    )
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/users/pat/export", params=params, headers=tenant.headers).json()
        seen += [f["text"] for f in page["data"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"Event number {n}" for n in range(5)]
    assert client.get("/v1/users/nobody/export", headers=tenant.headers).json()["data"] == []


# Collections and documents


def test_collections_slug_rename_and_delete(client: TestClient, tenant: Tenant) -> None:
    created = client.post("/v1/collections", json={"name": "Support docs"}, headers=tenant.headers)
    assert created.status_code == 201 and created.json()["slug"] == "support-docs"
    assert (
        client.post(
            "/v1/collections", json={"name": "Support Docs!"}, headers=tenant.headers
        ).status_code
        == 409
    )
    renamed = client.patch(
        "/v1/collections/support-docs", json={"name": "Help centre"}, headers=tenant.headers
    )
    assert renamed.json()["slug"] == "support-docs" and renamed.json()["name"] == "Help centre"
    assert (
        client.post(
            "/v1/collections", json={"name": "Support docs", "slug": "x"}, headers=tenant.headers
        ).json()["error"]["field"]
        == "slug"
    )
    assert client.delete("/v1/collections/support-docs", headers=tenant.headers).status_code == 200
    assert (
        client.get("/v1/collections/support-docs/documents", headers=tenant.headers).status_code
        == 404
    )


def test_documents_upload_several_files_pasted_text_and_failures(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    client.post("/v1/collections", json={"name": "Handbook"}, headers=tenant.headers)
    files = [
        ("files", ("leave.md", b"# Leave\n\nStaff get 25 days of annual leave.", "text/markdown")),
        ("files", ("travel.txt", b"Book trains for trips under 500 km.", "text/plain")),
        (
            "files",
            ("refunds.pdf", pdf_with_text("Refunds are paid within five days"), "application/pdf"),
        ),
        ("files", ("scan.pdf", pdf_without_text(), "application/pdf")),
    ]
    response = client.post(
        "/v1/collections/handbook/documents",
        files=files,
        data={"title": "Parking", "text": "Parking is free on weekends.", "source": "intranet"},
        headers=tenant.headers,
    )
    assert response.status_code == 202, response.text
    docs = response.json()["data"]
    assert [d["status"] for d in docs] == ["processing"] * 5
    finished = {d["title"]: document_ready(client, tenant, "handbook", d["id"]) for d in docs}
    assert finished["scan.pdf"]["status"] == "failed"
    assert "image-only" in finished["scan.pdf"]["error"]
    assert {t for t, d in finished.items() if d["status"] == "ready"} == {
        "Parking",
        "leave.md",
        "travel.txt",
        "refunds.pdf",
    }
    assert finished["Parking"]["source"] == "intranet"
    found = client.post(
        "/v1/knowledge/search", json={"query": "How fast are refunds paid?"}, headers=tenant.headers
    ).json()
    assert found["data"][0]["title"] == "refunds.pdf"
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert len([line for line in ledger if line["route"] == "knowledge.ingest"]) == 4

    renamed = client.patch(
        f"/v1/collections/handbook/documents/{docs[0]['id']}",
        json={"title": "Parking rules"},
        headers=tenant.headers,
    )
    assert renamed.json()["title"] == "Parking rules"
    moved = client.patch(
        f"/v1/collections/handbook/documents/{docs[0]['id']}",
        json={"collection": "other"},
        headers=tenant.headers,
    )
    assert moved.status_code == 422 and moved.json()["error"]["field"] == "collection"


def test_upload_refuses_other_types_and_files_over_the_limit(
    client: TestClient, tenant: Tenant
) -> None:
    client.post("/v1/collections", json={"name": "Files"}, headers=tenant.headers)
    wrong = client.post(
        "/v1/collections/files/documents",
        files=[
            ("files", ("a.txt", b"ok", "text/plain")),
            ("files", ("b.docx", b"PK..", "application/msword")),
        ],
        headers=tenant.headers,
    )
    assert wrong.status_code == 422 and wrong.json()["error"]["field"] == "files[1]"
    big = client.post(
        "/v1/collections/files/documents",
        files=[("files", ("big.txt", b"a" * (20 * 1024 * 1024 + 1), "text/plain"))],
        headers=tenant.headers,
    )
    assert big.status_code == 422 and big.json()["error"]["code"] == "file_too_large"
    listed = client.get("/v1/collections/files/documents", headers=tenant.headers).json()
    assert listed["data"] == []


# Chat and search


def test_chat_collection_narrowing_and_the_422s(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    for name, text in (
        ("Public", "Our support line opens at 9am."),
        ("Internal", "The support line rota is set by Dana."),
    ):
        client.post("/v1/collections", json={"name": name}, headers=tenant.headers)
        doc = client.post(
            f"/v1/collections/{name.lower()}/documents",
            json={"title": name, "text": text},
            headers=tenant.headers,
        ).json()
        document_ready(client, tenant, name.lower(), doc["id"])

    blended = chat(client, tenant, "When does the support line open?")
    assert {s["collection"] for s in blended["sources"]} == {"public", "internal"}
    narrowed = chat(client, tenant, "When does the support line open?", collection="public")
    assert [s["collection"] for s in narrowed["sources"]] == ["public"]
    listed = chat(client, tenant, "support line", collection=["internal"])
    assert [s["collection"] for s in listed["sources"]] == ["internal"]

    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    rag = client.post(
        "/v1/chat/completions", json={**body, "rag": "public"}, headers=tenant.headers
    )
    assert rag.status_code == 422 and rag.json()["error"]["field"] == "rag"
    assert "collection" in rag.json()["error"]["message"]
    typo = client.post(
        "/v1/chat/completions",
        json={**body, "collection": ["public", "pubic"]},
        headers=tenant.headers,
    )
    assert typo.status_code == 422 and "'pubic'" in typo.json()["error"]["message"]
    unknown = client.post(
        "/v1/chat/completions", json={**body, "temprature": 1}, headers=tenant.headers
    )
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "temprature"

    nothing = chat(client, tenant, "hello", thread="x")
    assert nothing["thread"] == "x"
    retrievals = [
        line
        for line in client.get("/v1/ledger", headers=tenant.headers).json()["data"]
        if line["route"] == "knowledge.retrieval"
    ]
    assert len(retrievals) == 4  # every request that searched, whatever it found


def test_no_user_and_no_ready_document_means_no_retrieval(
    client: TestClient, tenant: Tenant
) -> None:
    enable(client, tenant)
    answer = chat(client, tenant, "What is our refund policy?")
    assert answer["sources"] == [] and answer["knowledge"]["searched"] is False
    ledger = client.get("/v1/ledger", headers=tenant.headers).json()["data"]
    assert not [line for line in ledger if line["route"] == "knowledge.retrieval"]


def test_an_upstream_model_gets_the_context_and_the_answer_gets_sources(
    client: TestClient, tenant: Tenant
) -> None:
    from app.chat.routes import get_chat_client
    from app.chat.upstream import ChatClient

    seen: list[dict[str, Any]] = []

    def upstream(request: httpx.Request) -> httpx.Response:
        import json

        seen.append(json.loads(request.content))
        return httpx.Response(
            200,
            json={
                "id": "up-1",
                "object": "chat.completion",
                "created": 1,
                "model": "up-model",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "Oslo."},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
            },
        )

    enable(client, tenant)
    add_facts(client, tenant, "eva", {"text": "Lives in Oslo", "slot": "home", "value": "Oslo"})
    client.app.dependency_overrides[get_chat_client] = lambda: ChatClient(
        "http://upstream.test/v1", "k", transport=httpx.MockTransport(upstream)
    )
    try:
        answer = chat(client, tenant, "Where do I live?", user="eva", temperature=0.2)
        failing = client.app.dependency_overrides[get_chat_client] = lambda: ChatClient(
            "http://upstream.test/v1",
            "k",
            transport=httpx.MockTransport(
                lambda r: httpx.Response(500, json={"error": {"message": "overloaded"}})
            ),
        )
        assert failing is not None
        broken = client.post(
            "/v1/chat/completions",
            headers=tenant.headers,
            json={"model": "m", "messages": [{"role": "user", "content": "hi"}]},
        )
    finally:
        client.app.dependency_overrides.clear()
    assert answer["choices"][0]["message"]["content"] == "Oslo."
    assert answer["sources"][0]["type"] == "facts"
    sent = seen[0]
    assert sent["temperature"] == 0.2 and sent["user"] == "eva"
    assert (
        sent["messages"][0]["role"] == "system"
        and "Lives in Oslo" in sent["messages"][0]["content"]
    )
    assert broken.status_code == 502 and "overloaded" in broken.json()["error"]["message"]


class _BrokenIndexes(KnowledgeIndexes):
    def get(self, key: str, load: Any, embedder: Any = None) -> Any:
        raise OSError("the knowledge store is down")


def _broken_knowledge(uow: UowDep) -> RetrievalService:
    return RetrievalService(uow.session, get_settings(), _BrokenIndexes(Redis(), 60, 1 << 20))


def test_retrieval_that_fails_fails_the_request(client: TestClient, tenant: Tenant) -> None:
    from app.knowledge import routes

    enable(client, tenant)
    add_facts(client, tenant, "u", {"text": "Likes tea"})
    client.app.dependency_overrides[routes._retrieval] = _broken_knowledge
    try:
        response = client.post(
            "/v1/chat/completions",
            headers=tenant.headers,
            json={"model": "m", "user": "u", "messages": [{"role": "user", "content": "hi"}]},
        )
    finally:
        client.app.dependency_overrides.clear()
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "retrieval_failed"


def test_streaming_carries_sources_in_the_first_chunk(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    add_facts(client, tenant, "max", {"text": "Likes jazz", "slot": "likes", "value": "jazz"})
    with client.stream(
        "POST",
        "/v1/chat/completions",
        headers=tenant.headers,
        json={
            "model": "m",
            "user": "max",
            "stream": True,
            "messages": [{"role": "user", "content": "What music do I like? jazz"}],
        },
    ) as response:
        lines = [line for line in response.iter_lines() if line.startswith("data: ")]
    import json

    first = json.loads(lines[0].removeprefix("data: "))
    assert first["sources"][0]["type"] == "facts"
    assert lines[-1] == "data: [DONE]"
