"""The official `openai` client against Dossier's `/v1/chat/completions`, over real HTTP:
user, collection, thread, sources, streaming and the 422s."""

from __future__ import annotations

import openai
import pytest
from fastapi.testclient import TestClient

from app.chat.service import DISCLOSURE
from tests.knowledge_support import document_ready, enable, facts, wait_for
from tests.support import Services, Tenant

pytestmark = pytest.mark.integration


@pytest.fixture
def sdk(live_url: str, tenant: Tenant) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{live_url}/v1", api_key=tenant.api_key, max_retries=0)


def _ready_collection(client: TestClient, tenant: Tenant, name: str, text: str) -> str:
    slug = client.post("/v1/collections", json={"name": name}, headers=tenant.headers).json()[
        "slug"
    ]
    doc = client.post(
        f"/v1/collections/{slug}/documents",
        json={"title": name, "text": text},
        headers=tenant.headers,
    ).json()
    document_ready(client, tenant, slug, doc["id"])
    return slug


def test_the_official_client_learns_recalls_and_narrows(
    sdk: openai.OpenAI, client: TestClient, tenant: Tenant, worker: Services
) -> None:
    enable(client, tenant)
    public = _ready_collection(client, tenant, "Public FAQ", "Returns are free within 30 days.")
    _ready_collection(client, tenant, "Internal notes", "Returns fraud cases go to Dana.")

    first = sdk.chat.completions.create(
        model="dossier",
        messages=[{"role": "user", "content": "I live in Ghent and I prefer email over calls."}],
        user="client-7",
        extra_body={"thread": "support-42"},
    )
    assert first.choices[0].message.content
    assert first.model_extra is not None and first.model_extra["thread"] == "support-42"
    wait_for(lambda: facts(client, tenant, "client-7"), what="extraction")

    answer = sdk.chat.completions.create(
        model="dossier",
        messages=[{"role": "user", "content": "Where do I live, and are returns free?"}],
        user="client-7",
        extra_body={"collection": public},
    )
    sources = answer.model_extra["sources"]  # type: ignore[index]
    assert {s["type"] for s in sources} == {"facts", "document"}
    assert {s.get("collection") for s in sources if s["type"] == "document"} == {"public-faq"}
    content = answer.choices[0].message.content or ""
    assert "Ghent" in content and "embedded answerer" in content

    shared = sdk.chat.completions.create(
        model="dossier",
        messages=[{"role": "user", "content": "Where do I live?"}],
        user="client-7",
        extra_body={"member_count": 2},
    )
    assert shared.model_extra["disclosure"] == DISCLOSURE  # type: ignore[index]
    assert all(s["type"] != "facts" for s in shared.model_extra["sources"])  # type: ignore[index]

    chunks = list(
        sdk.chat.completions.create(
            model="dossier",
            messages=[{"role": "user", "content": "Are returns free?"}],
            stream=True,
        )
    )
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "Returns are free" in text
    assert chunks[0].model_extra["sources"]  # type: ignore[index]


def test_the_official_client_sees_the_422s(
    sdk: openai.OpenAI, client: TestClient, tenant: Tenant
) -> None:
    enable(client, tenant)
    messages = [{"role": "user", "content": "hi"}]
    with pytest.raises(openai.UnprocessableEntityError) as rag:
        sdk.chat.completions.create(model="m", messages=messages, extra_body={"rag": "faq"})
    assert rag.value.body["code"] == "rag_renamed"  # type: ignore[index]
    assert "collection" in rag.value.body["message"]  # type: ignore[index]
    with pytest.raises(openai.UnprocessableEntityError) as typo:
        sdk.chat.completions.create(
            model="m", messages=messages, extra_body={"collection": ["no-such-slug"]}
        )
    assert "no-such-slug" in typo.value.body["message"]  # type: ignore[index]
    empty = sdk.chat.completions.create(model="m", messages=messages)
    assert empty.model_extra["sources"] == []  # type: ignore[index]
