"""Meaning in recall and knowledge search, on the running service: reworded questions find
what was said in other words, each hit says why, forget stays exact, vectors go with their rows,
and a model change is re-embedded by the worker while recall keeps working."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.cache import get_redis
from app.db import session_scope
from app.embeddings import current_embedder
from app.embeddings.base import to_stored
from app.embeddings.refresh import TABLES, refresh_chunk
from app.embeddings.repository import waiting
from app.embeddings.static import DEFAULT_MODEL
from app.embeddings.storage import passage_for_meaning
from app.serving import serve_process, worker_process
from tests.knowledge_support import document_ready, enable
from tests.meaning_support import HELDOUT, HELDOUT_SUBJECTS, NOUL, load, score
from tests.support import Services, Tenant, own_services, tenant_http, wait_until

FIGURES = Path("test-output/meaning.json")
FORGET_TENANT_VECTORS = (
    "UPDATE lines SET embedding = NULL, embedding_model = NULL "
    "WHERE subject_id IN (SELECT id FROM subjects WHERE tenant_id = :t)",
    "UPDATE facts SET embedding = NULL, embedding_model = NULL WHERE tenant_id = :t",
    "UPDATE document_chunks SET embedding = NULL, embedding_model = NULL "
    "WHERE document_id IN (SELECT id FROM documents WHERE tenant_id = :t)",
)


def remember(client: TestClient, tenant: Tenant, subject: str, *lines: str) -> None:
    response = client.post(
        "/v1/memory/remember",
        json={"subject": subject, "text": "\n".join(lines)},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text


def decide(client: TestClient, tenant: Tenant, subject: str, state: str, **memory: Any) -> dict:
    body = {"model": "m", "state": state, "questions": NOUL, "subject": subject}
    if memory:
        body["memory"] = memory
    response = client.post("/v1/systemone", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def vectors_of(tenant: Tenant) -> dict[str, int]:
    """Stored vectors of the tenant's lines and facts."""

    with session_scope() as (session, _):
        lines = session.execute(
            text(
                "SELECT count(*) FROM lines l JOIN subjects s ON s.id = l.subject_id "
                "WHERE s.tenant_id = :t AND l.embedding IS NOT NULL"
            ),
            {"t": tenant.tenant_id},
        ).scalar_one()
        facts = session.execute(
            text("SELECT count(*) FROM facts WHERE tenant_id = :t AND embedding IS NOT NULL"),
            {"t": tenant.tenant_id},
        ).scalar_one()
    return {"lines": int(lines), "facts": int(facts)}


def vector_keys(tenant: Tenant) -> list[bytes]:

    client = get_redis()
    return [
        *client.scan_iter(match=f"dossier:vectors:{tenant.tenant_id}:*"),
        *client.scan_iter(match=f"dossier:kfacts:{tenant.tenant_id}:*:vec"),
    ]


def test_reworded_questions_find_what_was_said_in_other_words(
    client: TestClient, worker: Services
) -> None:
    """The held-out set (tests/data/meaning_heldout.json, written before any tuning by someone
    who had not seen it): every question shares no content word with its answer."""
    loaded = load(client, HELDOUT)
    hybrid = score(client, loaded, semantic=True)
    lexical = score(client, loaded, semantic=False)
    FIGURES.parent.mkdir(exist_ok=True)
    FIGURES.write_text(json.dumps({"hybrid": hybrid, "lexical": lexical}, indent=2))
    print(f"\nheld-out paraphrase set: hybrid {hybrid}, lexical {lexical}")
    # Measured on this set with the packaged model (README, "Meaning"): facts 34/40, documents
    # 16/21, subject lines 5/24. The target is 80% for each; facts meet it, documents
    # come close, subject lines do not (a static model's similarity between a situation and
    # the one line of 150 it needs is too blunt). These floors catch a regression of more than
    # one question.
    assert hybrid["facts"] >= 33 / 40, hybrid
    assert hybrid["documents"] >= 15 / 21, hybrid
    assert hybrid["subjects"] >= 4 / 24, hybrid
    # Words alone cannot bridge them: that is the gap meaning closes.
    assert all(lexical[part] < hybrid[part] for part in hybrid), (lexical, hybrid)


def test_a_second_held_out_set_of_situations(client: TestClient) -> None:
    """tests/data/meaning_heldout_2.json (session 18, written by someone who had seen neither
    the code nor the other sets): four subjects of 131-142 lines, 48 situations sharing no
    content word with the line they need."""
    loaded = load(client, HELDOUT_SUBJECTS)
    hybrid = score(client, loaded, semantic=True)
    lexical = score(client, loaded, semantic=False)
    print(f"\nheld-out situations 2: hybrid {hybrid}, lexical {lexical}")
    # Measured: 8 of 48 (README, "Meaning"): far from the 0.8, as on the first set.
    assert hybrid["subjects"] >= 7 / 48, hybrid
    assert lexical["subjects"] < hybrid["subjects"], (lexical, hybrid)


def test_each_hit_says_why_and_semantic_false_is_words_alone(
    client: TestClient, tenant: Tenant
) -> None:
    remember(
        client,
        tenant,
        "globex",
        "Their office is closed on Fridays",
        "Globex pays by invoice every quarter",
        "Globex runs the on-premises edition",
    )
    hybrid = decide(client, tenant, "globex", "Which weekday can't we visit?")["memory"]
    assert hybrid["recall"] == "hybrid"
    top = hybrid["hits"][0]
    assert top["text"] == "Their office is closed on Fridays"
    assert top["semantic"] > 0 and top["lexical"] == 0
    assert top["score"] == pytest.approx(top["lexical"] + top["semantic"], abs=1e-3)

    worded = decide(client, tenant, "globex", "How does Globex pay the invoice?")["memory"]
    assert worded["hits"][0]["text"] == "Globex pays by invoice every quarter"
    assert worded["hits"][0]["lexical"] > 0

    lexical = decide(client, tenant, "globex", "Which weekday can't we visit?", semantic=False)
    assert lexical["memory"]["recall"] == "lexical"
    hits = lexical["memory"]["hits"]
    assert "Their office is closed on Fridays" not in [hit["text"] for hit in hits]
    assert all("semantic" not in hit for hit in hits)


def test_knowledge_search_says_why_and_can_be_words_alone(
    client: TestClient, tenant: Tenant
) -> None:
    enable(client, tenant)
    added = client.post(
        "/v1/users/ann/facts",
        json={"facts": [{"text": "Lives in Ljubljana"}, {"text": "Drives a 2019 Skoda Octavia"}]},
        headers=tenant.headers,
    )
    assert added.status_code == 200, added.text

    def search(**extra: Any) -> list[dict[str, Any]]:
        body = {"query": "Which town do I call home?", "user": "ann", **extra}
        response = client.post("/v1/knowledge/search", json=body, headers=tenant.headers)
        assert response.status_code == 200, response.text
        return list(response.json()["data"])

    hits = search()
    assert hits[0]["text"] == "Lives in Ljubljana"
    assert hits[0]["semantic"] > 0 and hits[0]["lexical"] == 0
    assert search(semantic=False) == []
    refused = client.post(
        "/v1/knowledge/search",
        json={"query": "x", "user": "ann", "semantic": "yes"},
        headers=tenant.headers,
    )
    assert refused.status_code == 422 and "semantic" in refused.text


def test_forget_stays_exact_beside_meaning(client: TestClient, tenant: Tenant) -> None:
    remember(
        client,
        tenant,
        "acme",
        "Ann Lindqvist is the main contact",
        "The main contact prefers calls after noon",
        "Reports go to the head of purchasing",
    )
    response = client.post(
        "/v1/memory/forget",
        json={"subject": "acme", "concept": "Ann Lindqvist"},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verified_forgotten"] is True
    assert body["removed_lines"] == ["Ann Lindqvist is the main contact"]
    # A line near in meaning that does not name the concept stays, and is no leak.
    left = client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()["lines"]
    assert "The main contact prefers calls after noon" in left
    asked = decide(client, tenant, "acme", "Ann Lindqvist")["memory"]
    assert all("Lindqvist" not in hit["text"] for hit in asked["hits"])
    assert vectors_of(tenant)["lines"] == 2


def test_vectors_go_with_their_rows_and_cached_indexes(client: TestClient, tenant: Tenant) -> None:
    enable(client, tenant)
    remember(client, tenant, "globex", "Reports to Ines Valcourt", "Pays by invoice")
    client.post(
        "/v1/users/ann/facts",
        json={"facts": [{"text": "Lives in Ljubljana"}, {"text": "Allergic to shellfish"}]},
        headers=tenant.headers,
    ).raise_for_status()
    assert vectors_of(tenant) == {"lines": 2, "facts": 2}
    decide(client, tenant, "globex", "Who is the boss?")
    client.post(
        "/v1/knowledge/search",
        json={"query": "Where do I live?", "user": "ann"},
        headers=tenant.headers,
    ).raise_for_status()
    assert len(vector_keys(tenant)) == 2

    fact_id = client.get("/v1/users/ann/facts", headers=tenant.headers).json()["data"][0]["id"]
    deleted = client.delete(f"/v1/users/ann/facts/{fact_id}", headers=tenant.headers)
    assert deleted.status_code == 200, deleted.text
    assert vectors_of(tenant)["facts"] == 1
    gone = client.delete("/v1/users/ann", headers=tenant.headers)
    assert gone.status_code == 200, gone.text
    assert vectors_of(tenant)["facts"] == 0
    client.post("/v1/memory/delete", json={"subject": "globex"}, headers=tenant.headers)
    assert vectors_of(tenant)["lines"] == 0
    assert vector_keys(tenant) == []


def test_rows_without_a_vector_get_theirs_a_chunk_at_a_time(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:

    embedder = current_embedder()
    assert embedder is not None
    enable(client, tenant)
    remember(client, tenant, "globex", "Reports to Ines Valcourt")
    client.post(
        "/v1/users/ann/facts",
        json={"facts": [{"text": "Lives in Ljubljana"}]},
        headers=tenant.headers,
    ).raise_for_status()
    client.post("/v1/collections", json={"name": "Handbook"}, headers=tenant.headers)
    doc = client.post(
        "/v1/collections/handbook/documents",
        json={"title": "Refunds", "text": "Within 30 days of purchase."},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, "handbook", doc["id"])
    chunk_sql = (
        "SELECT c.embedding FROM document_chunks c JOIN documents d ON d.id = c.document_id "
        "WHERE d.tenant_id = :t"
    )
    with session_scope() as (session, _):
        written = session.execute(text(chunk_sql), {"t": tenant.tenant_id}).scalar_one()
        for sql in FORGET_TENANT_VECTORS:  # as if written before meaning was on
            session.execute(text(sql), {"t": tenant.tenant_id})
    with session_scope() as (session, _):
        assert all(waiting(session, embedder.name).values())
        for table in TABLES:
            count, after = refresh_chunk(session, embedder, table, 2)
            while count:
                count, after = refresh_chunk(session, embedder, table, 2, after)
        assert not any(waiting(session, embedder.name).values())
        again = session.execute(text(chunk_sql), {"t": tenant.tenant_id}).scalar_one()
    expected = to_stored(
        embedder.encode([passage_for_meaning("Refunds", "Within 30 days of purchase.")])
    )
    assert again == written == expected[0]
    assert vectors_of(tenant) == {"lines": 1, "facts": 1}


def test_a_renamed_document_gets_vectors_of_its_new_title(
    client: TestClient, tenant: Tenant, worker: Services
) -> None:

    embedder = current_embedder()
    assert embedder is not None
    enable(client, tenant)
    client.post("/v1/collections", json={"name": "Policies"}, headers=tenant.headers)
    doc = client.post(
        "/v1/collections/policies/documents",
        json={"title": "Ines Valcourt's notes", "text": "Laptops are replaced every four years."},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, "policies", doc["id"])
    renamed = client.patch(
        f"/v1/collections/policies/documents/{doc['id']}",
        json={"title": "Hardware policy"},
        headers=tenant.headers,
    )
    assert renamed.status_code == 200, renamed.text
    with session_scope() as (session, _):
        stored = session.execute(
            text("SELECT embedding FROM document_chunks WHERE document_id = :d"), {"d": doc["id"]}
        ).scalar_one()
    passage = passage_for_meaning("Hardware policy", "Laptops are replaced every four years.")
    assert stored == to_stored(embedder.encode([passage]))[0]
    hits = client.post(
        "/v1/knowledge/search",
        json={"query": "How often do we get new computers?", "collection": "policies"},
        headers=tenant.headers,
    ).json()["data"]
    assert hits and hits[0]["title"] == "Hardware policy"


@pytest.mark.parametrize(
    "command", [["serve", "--no-worker", "--port", "1"], ["worker"]], ids=["serve", "worker"]
)
def test_a_model_that_cannot_load_stops_start_up_naming_the_setting(
    tmp_path: Path, command: list[str]
) -> None:
    env = {**os.environ, "DOSSIER_EMBEDDING_MODEL": str(tmp_path / "no-such-model")}
    started = subprocess.run(
        [sys.executable, "-m", "app.cli", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode != 0
    assert "DOSSIER_EMBEDDING_MODEL" in started.stderr


def test_meaning_off_is_words_alone_and_says_so(services: Services, tmp_path: Path) -> None:
    with own_services(services, tmp_path, embeddings="off") as own:
        with serve_process(own.env) as url:
            http = tenant_http(url, "off")
            http.post(
                "/v1/memory/remember",
                json={"subject": "acme", "text": "Their office is closed on Fridays"},
            ).raise_for_status()
            body = {"model": "m", "state": "Is the office open on Fridays?", "questions": NOUL}
            answer = http.post("/v1/systemone", json={**body, "subject": "acme"}).json()
            assert answer["memory"]["recall"] == "lexical"
            assert answer["memory"]["hits"][0]["text"] == "Their office is closed on Fridays"
            assert "semantic" not in answer["memory"]["hits"][0]
            assert "dossier_vectors_waiting{" not in http.get("/metrics").text
        assert _vector_models(own.database_url) == {None: 1}


def _vector_models(database_url: str) -> dict[str | None, int]:
    with psycopg.connect(database_url.replace("+psycopg", "")) as conn:
        rows = conn.execute(
            "SELECT embedding_model, count(*) FROM ("
            "SELECT embedding_model FROM lines UNION ALL SELECT embedding_model FROM facts) m "
            "GROUP BY embedding_model"
        ).fetchall()
    return {model: count for model, count in rows}


def test_a_model_change_is_re_embedded_by_the_worker_while_recall_goes_on(
    services: Services, tmp_path: Path
) -> None:
    other_model = tmp_path / "other-model"  # another folder: another model by name
    shutil.copytree(DEFAULT_MODEL, other_model)
    with own_services(services, tmp_path, embedding_partial_seconds="1") as own:
        with serve_process(own.env) as url:
            http = tenant_http(url, "model-change")
            lines = [f"Depot {n} opens at {6 + n % 4} in the morning" for n in range(300)]
            lines.append("Reports to Ines Valcourt")
            http.post(
                "/v1/memory/remember", json={"subject": "fleet", "text": "\n".join(lines)}
            ).raise_for_status()
        before = _vector_models(own.database_url)
        assert len(before) == 1 and None not in before, before

        changed = {**own.env, "DOSSIER_EMBEDDING_MODEL": str(other_model)}
        with serve_process(changed) as url:
            http = httpx.Client(base_url=url, timeout=30, headers=http.headers)

            def ask(state: str) -> dict[str, Any]:
                body = {"model": "m", "state": state, "questions": NOUL, "subject": "fleet"}
                response = http.post("/v1/systemone", json=body)
                response.raise_for_status()
                return dict(response.json())

            def re_embedded() -> bool:
                models = _vector_models(own.database_url)
                return models.keys().isdisjoint(before) and None not in models

            meanwhile = ask("When does depot 17 open?")
            assert "meaning_partial" in meanwhile["warnings"]
            assert "Depot 17 opens at 7 in the morning" in [
                hit["text"] for hit in meanwhile["memory"]["hits"]
            ]
            metrics = http.get("/metrics").text
            assert 'dossier_vectors_waiting{table="lines"} 301.0' in metrics

            with worker_process(changed):
                wait_until(re_embedded, 90, "every line re-embedded under the new model")
                after = wait_until(
                    lambda: (
                        (answer := ask("When does depot 17 open?"))["warnings"] == [] and answer
                    ),
                    30,
                    "recall with every vector of the new model",
                )
            top = after["memory"]["hits"][0]
            assert top["text"] == "Depot 17 opens at 7 in the morning" and top["semantic"] > 0
            assert 'dossier_vectors_waiting{table="lines"} 0.0' in http.get("/metrics").text
