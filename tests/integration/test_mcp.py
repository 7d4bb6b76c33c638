"""`/mcp`: the official `mcp` client over Streamable HTTP against the live server, every tool
called, each tenant's key seeing only its own data, and no key refused before any MCP traffic."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio
import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.knowledge_support import document_ready, enable
from tests.support import Services, Tenant, new_tenant

T = TypeVar("T")

TOOLS = {
    "search_knowledge",
    "recall_memory",
    "remember",
    "forget_concept",
    "list_facts",
    "forget_fact",
}


@asynccontextmanager
async def connected(live_url: str, api_key: str) -> AsyncIterator[Client]:
    """The client a user would write: the endpoint's URL and the key in a header."""
    headers = {"Authorization": f"Bearer {api_key}"}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(f"{live_url}/mcp", http_client=http)) as client:
            yield client


def session(live_url: str, api_key: str, work: Callable[[Client], Awaitable[T]]) -> T:
    async def run() -> T:
        async with connected(live_url, api_key) as client:
            return await work(client)

    return anyio.run(run)


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error(result: CallToolResult) -> str:
    assert result.is_error, result.structured_content
    text = getattr(result.content[0], "text", "")
    assert isinstance(text, str)
    return text


def _seed(client: TestClient, tenant: Tenant) -> int:
    """Knowledge on, a fact about end-user ann, a handbook document; returns the fact's id."""
    enable(client, tenant)
    added = client.post(
        "/v1/users/ann/facts",
        json={"facts": [{"text": "Ann is allergic to peanuts"}]},
        headers=tenant.headers,
    )
    assert added.status_code == 200, added.text
    client.post("/v1/collections", json={"name": "Handbook"}, headers=tenant.headers)
    client.post("/v1/collections", json={"name": "Menu"}, headers=tenant.headers)
    for slug, title, text in (
        ("handbook", "Travel", "Travel expenses are refunded within 30 days of the trip."),
        ("menu", "Lunch", "The lunch menu refunds nothing; the lentil curry is vegan."),
    ):
        doc = client.post(
            f"/v1/collections/{slug}/documents",
            json={"title": title, "text": text},
            headers=tenant.headers,
        ).json()
        assert document_ready(client, tenant, slug, doc["id"])["status"] == "ready"
    return int(added.json()["ids"][0])


def _ledger_routes(client: TestClient, tenant: Tenant) -> list[str]:
    response = client.get("/v1/ledger", params={"limit": 100}, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return [line["route"] for line in response.json()["data"]]


def test_every_tool_over_streamable_http(
    client: TestClient, tenant: Tenant, worker: Services, live_url: str
) -> None:
    fact_id = _seed(client, tenant)

    async def work(mcp: Client) -> dict[str, Any]:
        listed = await mcp.list_tools()
        results: dict[str, Any] = {"tools": {tool.name: tool for tool in listed.tools}}
        call = mcp.call_tool
        results["remember"] = await call(
            "remember",
            {
                "subject": "acme",
                "text": "ACME pays invoices late, usually 60 days.\n"
                "ACME's contact is Ann Lindqvist.",
            },
        )
        results["recall"] = await call(
            "recall_memory", {"subject": "acme", "text": "ACME asks when its invoice is due"}
        )
        results["search"] = await call("search_knowledge", {"query": "peanuts", "user": "ann"})
        results["handbook"] = await call(
            "search_knowledge", {"query": "refunded", "collection": "handbook"}
        )
        results["both"] = await call(
            "search_knowledge", {"query": "refunded", "collection": ["handbook", "menu"]}
        )
        results["no_such_collection"] = await call(
            "search_knowledge", {"query": "refunded", "collection": "nope"}
        )
        results["preview"] = await call(
            "forget_concept", {"subject": "acme", "concept": "Ann Lindqvist"}
        )
        results["wrong_confirmation"] = await call(
            "forget_concept",
            {"subject": "acme", "concept": "Ann Lindqvist", "confirmation": "0" * 16},
        )
        results["look_only"] = await call(
            "forget_fact", {"user": "ann", "fact_id": fact_id, "dry_run": True}
        )
        results["facts"] = await call("list_facts", {"user": "ann"})
        return results

    results = session(live_url, tenant.api_key, work)
    tools = results["tools"]
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert len(tool.description or "") > 150, tool.name  # written for a model to use
    assert tools["search_knowledge"].input_schema["properties"]["collection"]
    assert tools["forget_fact"].annotations.destructive_hint is True

    remembered = data(results["remember"])
    assert remembered["line_count"] == 2 and remembered["usage"]["billed"] is True
    memory = client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()
    assert memory["lines"] == [
        "ACME pays invoices late, usually 60 days.",
        "ACME's contact is Ann Lindqvist.",
    ]

    recalled = data(results["recall"])["lines"]
    assert recalled[0]["text"] == "ACME pays invoices late, usually 60 days."
    assert recalled[0]["kind"] == "recalled" and recalled[0]["score"] > 0

    hits = data(results["search"])
    assert [hit["text"] for hit in hits["data"]] == ["Ann is allergic to peanuts"]
    handbook = data(results["handbook"])
    assert {source.get("collection") for source in handbook["sources"]} == {"handbook"}
    assert {source.get("collection") for source in data(results["both"])["sources"]} == {
        "handbook",
        "menu",
    }
    assert "unknown_collection" in error(results["no_such_collection"])
    assert "'nope'" in error(results["no_such_collection"])

    preview = data(results["preview"])
    assert preview["preview"] is True
    assert preview["removed_lines"] == ["ACME's contact is Ann Lindqvist."]
    assert "confirmation_stale" in error(results["wrong_confirmation"])
    assert "look_only_argument" in error(results["look_only"])
    # Neither the preview, the wrong confirmation nor the refused argument removed anything.
    lines = client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()["lines"]
    assert len(lines) == 2
    listed = data(results["facts"])["data"]
    assert [(fact["id"], fact["text"]) for fact in listed] == [
        (fact_id, "Ann is allergic to peanuts")
    ]

    async def confirm(mcp: Client) -> tuple[CallToolResult, CallToolResult, CallToolResult]:
        forgot = await mcp.call_tool(
            "forget_concept",
            {
                "subject": "acme",
                "concept": "Ann Lindqvist",
                "confirmation": preview["confirmation"],
            },
        )
        fact = await mcp.call_tool("forget_fact", {"user": "ann", "fact_id": fact_id})
        again = await mcp.call_tool("forget_fact", {"user": "ann", "fact_id": fact_id})
        return forgot, fact, again

    forgot, fact, again = session(live_url, tenant.api_key, confirm)
    assert data(forgot)["removed_lines"] == ["ACME's contact is Ann Lindqvist."]
    assert data(forgot)["verified_forgotten"] is True
    assert data(fact)["deleted"] == fact_id
    assert "not_found" in error(again)
    assert client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()["lines"] == ["ACME pays invoices late, usually 60 days."]
    assert client.get("/v1/users/ann/facts", headers=tenant.headers).json()["data"] == []

    # Billed and audited as the HTTP routes bill and audit them.
    routes = _ledger_routes(client, tenant)
    for route in (
        "memory.remember",
        "memory.recall",
        "knowledge.search",
        "memory.forget",
        "knowledge.fact.delete",
    ):
        assert route in routes, route
    audit = client.get("/v1/audit", headers=tenant.headers).json()["data"]
    assert {"memory.remember", "memory.forget", "knowledge.fact.delete"} <= {
        event["action"] for event in audit
    }


def test_another_tenants_key_sees_none_of_the_data(
    client: TestClient, tenant: Tenant, live_url: str
) -> None:
    enable(client, tenant)
    added = client.post(
        "/v1/users/ann/facts",
        json={"facts": [{"text": "Ann lives in Lisbon"}]},
        headers=tenant.headers,
    ).json()
    fact_id = added["ids"][0]
    client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "ACME's renewal is in March."},
        headers=tenant.headers,
    )
    other = new_tenant(client)
    enable(client, other)

    async def work(mcp: Client) -> list[CallToolResult]:
        return [
            await mcp.call_tool("search_knowledge", {"query": "Lisbon", "user": "ann"}),
            await mcp.call_tool("list_facts", {"user": "ann"}),
            await mcp.call_tool("recall_memory", {"subject": "acme", "text": "renewal"}),
            await mcp.call_tool("forget_fact", {"user": "ann", "fact_id": fact_id}),
            await mcp.call_tool("forget_concept", {"subject": "acme", "concept": "renewal"}),
        ]

    search, facts, recall, forget_fact, forget_concept = session(live_url, other.api_key, work)
    assert data(search)["data"] == []
    assert data(facts)["data"] == []
    assert "no subject 'acme'" in error(recall)
    assert "not_found" in error(forget_fact)
    assert "no subject 'acme'" in error(forget_concept)
    # The first tenant's data is all still there.
    assert [
        f["text"] for f in client.get("/v1/users/ann/facts", headers=tenant.headers).json()["data"]
    ] == ["Ann lives in Lisbon"]
    assert client.get(
        "/v1/memory", params={"subject": "acme", "lines": "true"}, headers=tenant.headers
    ).json()["lines"] == ["ACME's renewal is in March."]


def test_no_key_or_a_wrong_key_is_refused_before_any_mcp_traffic(
    client: TestClient, tenant: Tenant, live_url: str
) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream"}
    for headers in ({}, {"Authorization": "Bearer dsk_not-a-key"}, {"Authorization": "Basic x"}):
        response = httpx.post(f"{live_url}/mcp", json=initialize, headers={**accept, **headers})
        assert response.status_code == 401, response.text
        assert response.json()["error"]["code"] == "unauthorized"
        assert response.headers["www-authenticate"].startswith("Bearer")
    # The official client is refused too: it never gets as far as listing the tools.
    with pytest.raises(ExceptionGroup) as refused:
        session(live_url, "dsk_not-a-key", lambda mcp: mcp.list_tools())
    assert refused.group_contains(MCPError, depth=2)
    good = httpx.post(f"{live_url}/mcp", json=initialize, headers={**accept, **tenant.headers})
    assert good.status_code == 200, good.text
    assert good.json()["result"]["serverInfo"]["name"] == "dossier"
    # No event stream to open: the server never writes unasked.
    assert httpx.get(f"{live_url}/mcp", headers={**accept, **tenant.headers}).status_code == 405


def test_dossier_mcp_serves_the_same_tools_over_stdio(client: TestClient, tenant: Tenant) -> None:
    """`dossier mcp`, started by the client as a command, acts for the tenant of its key."""
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "app.cli", "mcp"],
        env={**os.environ, "DOSSIER_API_KEY": tenant.api_key},
    )

    async def run() -> tuple[set[str], CallToolResult, CallToolResult]:
        async with Client(server) as mcp:
            names = {tool.name for tool in (await mcp.list_tools()).tools}
            stored = await mcp.call_tool("remember", {"subject": "globex", "text": "Pays on time."})
            wrong = await mcp.call_tool("recall_memory", {"subject": "nobody", "text": "x"})
            return names, stored, wrong

    names, stored, wrong = anyio.run(run)
    assert names == TOOLS
    assert data(stored)["stored"] == ["Pays on time."]
    assert "no subject 'nobody'" in error(wrong)
    assert client.get(
        "/v1/memory", params={"subject": "globex", "lines": "true"}, headers=tenant.headers
    ).json()["lines"] == ["Pays on time."]

    refused = subprocess.run(
        [sys.executable, "-m", "app.cli", "mcp"],
        env={**os.environ, "DOSSIER_API_KEY": "dsk_not-a-key"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode != 0 and "DOSSIER_API_KEY" in refused.stderr
