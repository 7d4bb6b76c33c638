"""The paraphrase sets (tests/data/meaning_heldout.json, ops/bench/data/meaning_tuning.json)
loaded into tenants through the API, and scored: how often a question worded in other words
finds its fact or document in the first 3 hits, and a decision's state the subject line it
needs among its recalled lines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.knowledge_support import document_ready, enable
from tests.support import Tenant, new_tenant

ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT / "tests/data/meaning_heldout.json"
HELDOUT_SUBJECTS = ROOT / "tests/data/meaning_heldout_2.json"
TUNING = ROOT / "ops/bench/data/meaning_tuning.json"
NOUL = {"act": {"type": "noul", "instructions": "Does this need action from us?"}}


@dataclass
class Loaded:
    data: dict[str, Any]
    facts: Tenant
    documents: Tenant
    subjects: Tenant
    fact_ids: dict[str, list[int]]
    document_ids: dict[str, list[int]]


def load(client: TestClient, path: Path) -> Loaded:
    """Facts, documents and subjects in three tenants of their own, so a search for a user's
    fact meets no document and the other way round."""
    data = json.loads(path.read_text())
    facts, documents, subjects = (new_tenant(client) for _ in range(3))
    enable(client, facts)
    enable(client, documents)
    fact_ids = {}
    for user in data["facts"]:
        response = client.post(
            f"/v1/users/{user['user']}/facts",
            json={"facts": [{"text": text} for text in user["facts"]]},
            headers=facts.headers,
        )
        assert response.status_code == 200, response.text
        fact_ids[user["user"]] = response.json()["ids"]
    document_ids: dict[str, list[int]] = {}
    for collection in data["documents"]:
        slug = collection["collection"]
        response = client.post("/v1/collections", json={"name": slug}, headers=documents.headers)
        assert response.status_code == 201, response.text
        for doc in collection["documents"]:
            added = client.post(
                f"/v1/collections/{slug}/documents",
                json={"title": doc["title"], "text": doc["text"]},
                headers=documents.headers,
            )
            assert added.status_code == 202, added.text
            document_ids.setdefault(slug, []).append(added.json()["id"])
        for doc_id in document_ids[slug]:
            assert document_ready(client, documents, slug, doc_id)["status"] == "ready"
    for subject in data["subjects"]:
        response = client.post(
            "/v1/memory/remember",
            json={"subject": subject["subject"], "text": "\n".join(subject["lines"])},
            headers=subjects.headers,
        )
        assert response.status_code == 200, response.text
    return Loaded(data, facts, documents, subjects, fact_ids, document_ids)


def score(client: TestClient, loaded: Loaded, *, semantic: bool) -> dict[str, float]:
    """Share of questions answered in the first 3 (facts, documents) and of cases whose line
    is among the recalled lines (subjects)."""
    found = {"facts": 0, "documents": 0, "subjects": 0}
    asked = {"facts": 0, "documents": 0, "subjects": 0}
    for user in loaded.data["facts"]:
        for question in user["questions"]:
            hits = _search(client, loaded.facts, question["q"], semantic, user=user["user"])
            wanted = loaded.fact_ids[user["user"]][question["answer"]]
            found["facts"] += wanted in [hit["id"] for hit in hits if hit["type"] == "fact"]
            asked["facts"] += 1
    for collection in loaded.data["documents"]:
        slug = collection["collection"]
        for question in collection["questions"]:
            hits = _search(client, loaded.documents, question["q"], semantic, collection=slug)
            wanted = loaded.document_ids[slug][question["answer"]]
            found["documents"] += wanted in [hit.get("document_id") for hit in hits]
            asked["documents"] += 1
    for subject in loaded.data["subjects"]:
        for case in subject["cases"]:
            body = {
                "model": "m",
                "state": case["state"],
                "questions": NOUL,
                "subject": subject["subject"],
                "memory": {"semantic": semantic},
            }
            response = client.post("/v1/systemone", json=body, headers=loaded.subjects.headers)
            assert response.status_code == 200, response.text
            recalled = [hit["text"] for hit in response.json()["memory"]["hits"]]
            found["subjects"] += subject["lines"][case["answer"]] in recalled
            asked["subjects"] += 1
    return {part: found[part] / asked[part] for part in found if asked[part]}


def _search(
    client: TestClient, tenant: Tenant, query: str, semantic: bool, **scope: str
) -> list[dict[str, Any]]:
    body = {"query": query, "top_k": 3, "semantic": semantic, **scope}
    response = client.post("/v1/knowledge/search", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return list(response.json()["data"])
