"""The web console in Debian's Chromium, headless, over real HTTP with a real worker: sign in,
remember, preview and confirm a forget, watch a batch complete, open a user's graph, the fact
list across end-users, renames, conversations by thread, the knowledge switch, and more.

Screenshots go to test-output/console/. Needs /usr/bin/chromium (`apt-get install chromium`) and
the `playwright` package (the dev extra); the test skips, saying which, when either is missing.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.knowledge_support import pdf_without_text
from tests.support import Services, Tenant

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "console"
TIMEOUT_MS = 60_000

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed: pip install -e '.[dev]'"
)
expect = playwright_api.expect


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}: apt-get install -y chromium")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, live_url: str) -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=live_url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    crashes: list[str] = []
    elsewhere: list[str] = []
    page.on("pageerror", lambda error: crashes.append(str(error)))
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith((live_url, "blob:", "data:"))
            else elsewhere.append(request.url)
        ),
    )
    yield page
    context.close()
    assert crashes == [], f"the page threw: {crashes}"
    assert elsewhere == [], (
        f"the console fetched from elsewhere (it must work offline): {elsewhere}"
    )


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def sign_in(page: Any, tenant: Tenant) -> None:
    page.goto("/console")
    expect(page.get_by_role("heading", name="Dossier console")).to_be_visible()
    key = page.get_by_label("API key")
    key.fill("dsk_not-a-key")
    page.get_by_role("button", name="Sign in").click()
    # The API's own error message is shown.
    expect(page.locator("#signin-error")).to_contain_text("key")
    shot(page, "01-sign-in-refused")
    key.fill(tenant.api_key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Memory", exact=True, level=1)).to_be_visible()


def go(page: Any, section: str) -> None:
    page.get_by_role("navigation", name="Sections").get_by_role("link", name=section).click()
    expect(page.get_by_role("heading", name=section, exact=True, level=1)).to_be_visible()


def api(client: TestClient, tenant: Tenant, method: str, path: str, **kwargs: Any) -> Any:
    response = client.request(method, path, headers=tenant.headers, **kwargs)
    assert response.status_code < 300, response.text
    return response.json()


def test_memory_remember_and_forget_with_its_preview(page, client, tenant):
    sign_in(page, tenant)
    expect(page.get_by_text("No subject holds memory yet")).to_be_visible()
    shot(page, "02-memory-empty")

    page.get_by_label("Subject id").fill("acme")
    page.get_by_role("button", name="Open").click()
    expect(page.get_by_text("Nothing is remembered about acme yet")).to_be_visible()
    # The API's error message is shown where the operator typed.
    page.get_by_label("Lines to remember").fill("x" * 2001)
    page.get_by_role("button", name="Remember").click()
    expect(page.get_by_role("alert")).to_have_text(
        "line 1 has 2001 characters, more than 2000; nothing stored"
    )
    page.get_by_label("Lines to remember").fill(
        "ACME Logistics holds an enterprise contract.\n"
        "Ann Lindqvist is the ACME contact for refunds.\n"
        "Refunds for ACME go to the billing team within one business day.\n"
        "Never call ACME after 6 pm."
    )
    page.get_by_role("button", name="Remember").click()
    lines = page.locator("ol.lines li")
    expect(lines).to_have_count(4)
    expect(page.get_by_text("Remembered 4 lines about acme.")).to_be_visible()
    # The remember warning says which line belongs in a rule.
    expect(page.locator(".warning")).to_contain_text("Never call ACME after 6 pm.")
    shot(page, "03-subject-remembered")

    page.get_by_label("What to forget").fill("Ann Lindqvist")
    page.get_by_role("button", name="Preview what would go").click()
    removed = page.locator("ul.removed li")
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text("Ann Lindqvist is the ACME contact for refunds.")
    shot(page, "04-forget-preview")
    # A preview removes nothing.
    held = api(client, tenant, "GET", "/v1/memory", params={"subject": "acme", "lines": "true"})
    assert len(held["lines"]) == 4

    page.get_by_role("button", name="Forget 1 item for good").click()
    expect(page.locator("#notice")).to_contain_text("Verified: nothing left holds it.")
    expect(lines).to_have_count(3)
    expect(page.locator("ol.lines")).not_to_contain_text("Ann Lindqvist")
    shot(page, "05-forgotten")
    held = api(client, tenant, "GET", "/v1/memory", params={"subject": "acme", "lines": "true"})
    assert not any("Ann" in line for line in held["lines"])

    page.get_by_label("Add an alias").fill("ACME Logistics")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("ul.chips li")).to_have_text(["ACME Logistics×"])

    go(page, "Memory")
    row = page.locator("tr", has=page.get_by_role("link", name="acme"))
    expect(row.locator("td")).to_have_text(["acme", "3", "0", "1", re.compile(".")])

    # Deleting the whole subject asks first; saying no keeps it.
    row.get_by_role("link", name="acme").click()
    page.get_by_role("button", name="Delete acme").click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(page.locator("ol.lines li")).to_have_count(3)
    page.get_by_role("button", name="Delete acme").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete subject").click()
    expect(page.get_by_text("No subject holds memory yet")).to_be_visible()
    expect(page.locator("#notice")).to_contain_text("Deleted acme")


def test_a_batch_is_watched_to_completed_and_its_results_downloaded(
    page, client, tenant, worker: Services
):
    api(client, tenant, "POST", "/v1/memory/remember", json={"subject": "acme", "text": "x"})
    sign_in(page, tenant)
    go(page, "Batches")
    expect(page.get_by_text("No batch yet.")).to_be_visible()
    total = 2000
    requests = [
        {
            "custom_id": f"t-{n}",
            "body": {
                "model": "dossier-lexical-1",
                "subject": "acme",
                "state": f"Ticket {n}: dashboards are slow.",
                "questions": {"urgent": {"type": "noul", "instructions": "Is this urgent?"}},
            },
        }
        for n in range(total)
    ]
    upload = "\n".join(json.dumps(request) for request in requests).encode()
    page.get_by_label("JSONL file").set_input_files(
        {"name": "tickets.jsonl", "mimeType": "application/jsonl", "buffer": upload}
    )
    page.get_by_role("button", name="Submit batch").click()
    expect(page.locator("#notice")).to_contain_text("submitted")
    (batch,) = api(client, tenant, "GET", "/v1/batches")["data"]
    row = page.locator(f'tr[data-batch="{batch["id"]}"]')
    expect(row).to_be_visible()
    # Every figure the progress label shows from now on, as the page polls by itself.
    row.locator(".progress-label").evaluate(
        """label => {
            window.seen = [label.textContent];
            new MutationObserver(() => window.seen.push(label.textContent))
                .observe(label, {childList: true, characterData: true, subtree: true});
        }"""
    )
    shot(page, "06-batch-submitted")
    # A picture part-way, when the workers leave time for one (they may finish between polls).
    label = row.locator(".progress-label")
    label.evaluate(
        """(label, total) => new Promise(resolve => {
            setTimeout(() => resolve(0), 60000);  // the expect below then says what went wrong
            const check = () => {
                const done = parseInt(label.textContent, 10);
                if (done > 0) resolve(done); else setTimeout(check, 20);
            };
            check();
        })""",
        total,
    )
    if not label.text_content().startswith(f"{total} "):
        shot(page, "07-batch-in-progress")
    expect(row.locator(".badge")).to_have_text("completed", timeout=TIMEOUT_MS)
    expect(row.locator(".progress-label")).to_have_text(f"{total} / {total}")
    assert row.locator("progress").evaluate("p => p.value === p.max")
    seen = page.evaluate("window.seen")
    assert seen[-1] == f"{total} / {total}" and seen[0] != seen[-1], seen
    shot(page, "08-batch-completed")

    with page.expect_download() as download:
        row.get_by_role("button", name="Results").click()
    results = Path(download.value.path()).read_text().splitlines()
    assert len(results) == total
    assert {json.loads(line)["result"]["type"] for line in results} == {"succeeded"}


def test_a_batch_of_openais_api_shows_its_endpoint_and_files(
    page, client, tenant, worker: Services
):
    lines = [
        {
            "custom_id": f"q-{n}",
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": "dossier", "messages": [{"role": "user", "content": f"Hi {n}"}]},
        }
        for n in range(3)
    ]
    lines.append(
        {**lines[0], "custom_id": "q-bad", "body": {**lines[0]["body"], "collection": "none"}}
    )
    content = "".join(json.dumps(line) + "\n" for line in lines).encode()
    file = client.post(
        "/v1/files",
        files={"file": ("questions.jsonl", content)},
        data={"purpose": "batch"},
        headers=tenant.headers,
    ).json()
    batch = api(
        client,
        tenant,
        "POST",
        "/v1/batches",
        json={
            "input_file_id": file["id"],
            "endpoint": "/v1/chat/completions",
            "completion_window": "24h",
        },
    )
    sign_in(page, tenant)
    go(page, "Batches")
    row = page.locator(f'tr[data-batch="{batch["id"]}"]')
    expect(row.locator(".endpoint")).to_have_text("/v1/chat/completions")
    expect(row.locator(".input-file")).to_contain_text(file["id"])
    expect(row.locator(".badge")).to_have_text("completed", timeout=TIMEOUT_MS)
    expect(row.get_by_role("button", name="Error file")).to_be_visible()
    shot(page, "08b-openai-batch-completed")
    with page.expect_download() as download:
        row.get_by_role("button", name="Output file").click()
    assert download.value.suggested_filename == f"{batch['id']}_output.jsonl"
    output = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]
    assert sorted(line["custom_id"] for line in output) == ["q-0", "q-1", "q-2"]
    with page.expect_download() as download:
        row.get_by_role("button", name="Error file").click()
    (error,) = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]
    assert error["custom_id"] == "q-bad" and error["response"]["status_code"] == 422


def test_knowledge_switch_facts_and_a_users_graph(page, client, tenant):
    sign_in(page, tenant)
    go(page, "Settings")
    page.get_by_role("button", name="Turn knowledge on").click()
    expect(page.get_by_role("button", name="Turn knowledge off")).to_be_visible()
    # The switch at the top right follows the one in Settings.
    expect(page.get_by_role("switch", name="Knowledge")).to_have_attribute("aria-checked", "true")
    expect(page.locator("#retrieval-settings")).to_contain_text("the 8 most relevant")
    shot(page, "09-settings")

    facts = "/v1/users/client-7/facts"
    api(
        client,
        tenant,
        "POST",
        facts,
        json={
            "facts": [
                {"text": "Works at Northwind.", "slot": "employer", "value": "Northwind"},
                {"text": "Lives in Ghent.", "slot": "home", "value": "Ghent"},
                {"text": "Reports to Dana Smith.", "slot": "manager", "value": "Dana Smith"},
                {"text": "Likes cycling.", "slot": "likes", "value": "cycling"},
                {"text": "Speaks Dutch.", "slot": "language", "value": "Dutch"},
                {"text": "Ran the Ghent marathon.", "kind": "event", "happened_on": "2026-04-12"},
            ]
        },
    )
    # A new employer retires the old one: a dashed edge with its end day.
    api(
        client,
        tenant,
        "POST",
        facts,
        json={"facts": [{"text": "Works at Contoso.", "slot": "employer", "value": "Contoso"}]},
    )

    go(page, "Knowledge")
    user = page.get_by_role("region", name="End-users").get_by_role("link", name="client-7")
    expect(user).to_be_visible()
    user.click()
    expect(page.locator("span.fact-text")).to_have_count(7)
    page.get_by_label("Show").select_option("retired")
    expect(page.locator("span.fact-text")).to_have_text(["Works at Northwind."])
    page.get_by_label("Show").select_option("all")
    page.get_by_label("Search facts").fill("Ghent")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("span.fact-text")).to_have_count(2)
    shot(page, "10-facts")

    page.get_by_role("link", name="Graph").click()
    graph = page.locator("#user-graph svg.graph")
    expect(graph).to_be_visible()
    expect(graph.locator("g.node")).to_have_count(8)  # the user and 7 entities
    expect(graph.locator("line.edge")).to_have_count(7)
    expect(graph.locator("line.edge.retired")).to_have_count(1)
    for label in ("client-7", "Northwind", "Contoso", "Ghent", "Dana Smith"):
        expect(graph.get_by_text(label, exact=True)).to_be_visible()
    label = graph.get_attribute("aria-label") or ""
    assert re.search(r"7 entities, 7 relationships", label), label
    shot(page, "11-graph")

    # Promote a fact into a collection: it becomes a document and leaves personal memory.
    api(client, tenant, "POST", "/v1/collections", json={"name": "Handbook"})
    page.get_by_role("link", name="Facts").click()
    row = page.locator("tr", has=page.get_by_text("Speaks Dutch."))
    row.get_by_role("button", name="Promote").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Handbook").check()
    dialog.get_by_role("button", name="Promote").click()
    expect(page.locator("#notice")).to_contain_text("Promoted to handbook")
    expect(page.locator("span.fact-text", has_text="Speaks Dutch.")).to_have_count(0)

    # Delete a fact, after saying yes in the dialog.
    row = page.locator("tr", has=page.get_by_text("Likes cycling."))
    row.get_by_role("button", name="Delete").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete fact").click()
    expect(page.locator("span.fact-text", has_text="Likes cycling.")).to_have_count(0)
    remaining = api(client, tenant, "GET", facts)["data"]
    assert "Likes cycling." not in {fact["text"] for fact in remaining}

    # Turning knowledge off asks whether to keep or delete what it holds.
    go(page, "Settings")
    page.get_by_role("button", name="Turn knowledge off").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("on_disable")
    shot(page, "12-keep-or-delete")
    dialog.get_by_role("button", name="Keep and turn off").click()
    expect(page.get_by_role("button", name="Turn knowledge on")).to_be_visible()
    assert len(api(client, tenant, "GET", facts)["data"]) == 5


def test_documents_activity_and_ledger(page, client, tenant, worker: Services):
    sign_in(page, tenant)
    api(client, tenant, "PUT", "/v1/knowledge/settings", json={"enabled": True})
    go(page, "Documents")
    expect(page.get_by_text("No collection yet.")).to_be_visible()
    page.get_by_label("Name").fill("Support docs")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name="Support docs")).to_be_visible()
    page.get_by_text("Or paste text", exact=True).click()
    page.get_by_label("Title").fill("Returns policy")
    page.get_by_label("Text", exact=True).fill("Returns are free within 30 days of delivery.")
    page.get_by_label("Files").set_input_files(
        [{"name": "scan.pdf", "mimeType": "application/pdf", "buffer": pdf_without_text()}]
    )
    page.get_by_role("button", name="Upload").click()
    ready = page.locator("tr", has=page.get_by_text("Returns policy"))
    expect(ready.locator(".badge")).to_have_text("ready", timeout=TIMEOUT_MS)
    failed = page.locator("tr", has=page.get_by_text("scan.pdf"))
    expect(failed.locator(".badge")).to_have_text("failed", timeout=TIMEOUT_MS)
    expect(failed.locator("small.error")).not_to_be_empty()
    shot(page, "13-documents")

    go(page, "Activity")
    expect(page.locator("table")).to_contain_text("knowledge.settings")
    page.get_by_label("Action").select_option("knowledge.settings")
    expect(page.locator("tbody tr")).to_have_count(1)
    shot(page, "14-activity")

    go(page, "Settings")
    expect(page.get_by_role("heading", name="Ledger")).to_be_visible()
    expect(page.locator("#settings-credit")).to_have_text(re.compile(r"\d"))
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_label("API key")).to_be_visible()
    assert page.evaluate("sessionStorage.length") == 0


def test_settings_data_export_is_started_followed_and_downloaded(
    page, client, tenant, worker: Services
):
    api(client, tenant, "POST", "/v1/memory/remember", json={"subject": "acme", "text": "x\ny"})
    sign_in(page, tenant)
    go(page, "Settings")
    panel = page.get_by_role("region", name="Data export")
    expect(panel).to_contain_text("No export yet.")
    panel.get_by_role("button", name="Export everything").click()
    expect(page.locator("#notice")).to_contain_text("Export started")
    # The page follows the export by itself until its archive can be downloaded.
    expect(panel.locator(".badge")).to_have_text("completed", timeout=TIMEOUT_MS)
    expect(panel).to_contain_text("11 of 11 files, 3 records")
    shot(page, "15-settings-data-export")
    with page.expect_download() as download:
        panel.get_by_role("button", name="Download archive").click()
    assert download.value.suggested_filename.startswith("dossier-export-")
    with zipfile.ZipFile(download.value.path()) as archive:
        lines = archive.read("lines.jsonl").decode().splitlines()
    assert [json.loads(line)["text"] for line in lines] == ["x", "y"]


def test_the_knowledge_switch_top_right_and_the_fact_list_across_end_users(page, client, tenant):
    sign_in(page, tenant)
    switch = page.get_by_role("switch", name="Knowledge")
    expect(switch).to_have_attribute("aria-checked", "false")
    # How retrieval runs, beside the switch; it opens the settings.
    expect(page.locator("#knowledge-retrieval")).to_have_text("Retrieval: top 8, words and meaning")
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(page.locator("#notice")).to_contain_text("Knowledge is on")
    assert api(client, tenant, "GET", "/v1/knowledge/settings")["enabled"] is True

    for user, facts in (
        ("bob", [{"text": "Works at Northwind.", "slot": "employer", "value": "Northwind"}]),
        ("alice", [{"text": "Lives in Ghent.", "slot": "home", "value": "Ghent"}]),
        ("bob", [{"text": "Works at Contoso.", "slot": "employer", "value": "Contoso"}]),
        ("carol-ghent", [{"text": "Likes tea."}]),
    ):
        api(client, tenant, "POST", f"/v1/users/{user}/facts", json={"facts": facts})

    go(page, "Knowledge")
    expect(page.locator("main")).not_to_contain_text("null")  # no empty banner written out
    listed = page.get_by_role("region", name="All facts")
    texts = listed.locator("span.fact-text")
    expect(texts).to_have_text(
        ["Likes tea.", "Works at Contoso.", "Lives in Ghent.", "Works at Northwind."]
    )
    expect(listed.locator("a.fact-user")).to_have_text(["carol-ghent", "bob", "alice", "bob"])
    # Promote waits for a collection to promote to.
    expect(listed.get_by_role("button", name="Promote")).to_have_count(4)
    for button in listed.get_by_role("button", name="Promote").all():
        expect(button).to_be_disabled()
    expect(listed).to_contain_text("Promote is off until there is a collection")

    # By end-user or by text, in one box.
    listed.get_by_label("End-user or text").fill("ghent")
    listed.get_by_role("button", name="Apply").click()
    expect(texts).to_have_text(["Likes tea.", "Lives in Ghent."])
    listed.get_by_label("End-user or text").fill("")
    listed.get_by_label("Order").select_option("user")
    expect(texts).to_have_text(
        ["Lives in Ghent.", "Works at Contoso.", "Works at Northwind.", "Likes tea."]
    )
    listed.get_by_label("Show").select_option("retired")
    expect(texts).to_have_text(["Works at Northwind."])
    shot(page, "15-all-facts")
    listed.get_by_label("Show").select_option("all")
    expect(texts).to_have_count(4)

    # The end-user's id opens their page.
    listed.get_by_role("link", name="alice").click()
    expect(page.get_by_role("heading", name="alice", level=1)).to_be_visible()

    # With a collection, Promote works from the list of everyone's facts.
    api(client, tenant, "POST", "/v1/collections", json={"name": "Handbook"})
    go(page, "Knowledge")
    listed = page.get_by_role("region", name="All facts")
    expect(listed).not_to_contain_text("Promote is off")
    row = listed.locator("tr", has=page.get_by_text("Likes tea."))
    row.get_by_role("button", name="Promote").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("carol-ghent's personal memory")
    dialog.get_by_label("Handbook").check()
    dialog.get_by_role("button", name="Promote").click()
    expect(page.locator("#notice")).to_contain_text("Promoted to handbook")
    expect(listed.locator("span.fact-text")).to_have_count(3)

    # Off from the top right: with data stored, it asks to keep or delete first.
    switch.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Keep or delete")
    dialog.get_by_role("button", name="Keep and turn off").click()
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(page.locator(".warning")).to_contain_text("Knowledge is off")
    assert api(client, tenant, "GET", "/v1/knowledge/settings")["enabled"] is False
    assert len(api(client, tenant, "GET", "/v1/facts")["data"]) == 3


def test_renaming_collections_and_documents(page, client, tenant, worker: Services):
    api(client, tenant, "PUT", "/v1/knowledge/settings", json={"enabled": True})
    api(client, tenant, "POST", "/v1/collections", json={"name": "Support docs"})
    api(client, tenant, "POST", "/v1/collections", json={"name": "FAQ"})
    doc = api(
        client,
        tenant,
        "POST",
        "/v1/collections/faq/documents",
        json={"title": "Refunds", "text": "Refunds are paid within five days."},
    )
    sign_in(page, tenant)
    go(page, "Documents")
    page.get_by_role("button", name="Rename collection FAQ").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("The slug faq stays")
    dialog.get_by_label("New name").fill("Questions")
    dialog.get_by_label("New name").press("Enter")
    expect(page.locator("#notice")).to_contain_text("Renamed to “Questions” (slug faq)")
    row = page.locator("tr", has=page.get_by_role("link", name="Questions"))
    expect(row.locator("code")).to_have_text("faq")

    # Another collection's name is refused, with the API's reason.
    page.get_by_role("button", name="Rename collection Questions").click()
    page.get_by_role("dialog").get_by_label("New name").fill("support docs")
    page.get_by_role("dialog").get_by_role("button", name="Rename").click()
    expect(page.locator("#notice")).to_contain_text("another collection is already called")
    expect(page.get_by_role("link", name="Questions")).to_be_visible()

    page.get_by_role("link", name="Questions").click()
    ready = page.locator("tr", has=page.get_by_text("Refunds", exact=True))
    expect(ready.locator(".badge")).to_have_text("ready", timeout=TIMEOUT_MS)
    ready.get_by_role("button", name="Rename").click()
    page.get_by_role("dialog").get_by_label("New title").fill("Refund policy")
    page.get_by_role("dialog").get_by_role("button", name="Rename").click()
    expect(page.locator("#notice")).to_contain_text("Renamed to “Refund policy”")
    expect(page.locator("tbody strong")).to_have_text(["Refund policy"])
    held = api(client, tenant, "GET", f"/v1/collections/faq/documents/{doc['id']}")
    assert held["title"] == "Refund policy"
    # Cancelling changes nothing.
    page.get_by_role("button", name="Rename document Refund policy").click()
    page.get_by_role("dialog").get_by_label("New title").fill("Not this")
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(page.locator("tbody strong")).to_have_text(["Refund policy"])

    page.get_by_role("button", name="Rename collection").click()
    page.get_by_role("dialog").get_by_label("New name").fill("Help centre")
    page.get_by_role("dialog").get_by_role("button", name="Rename").click()
    expect(page.get_by_role("heading", name="Help centre", level=1)).to_be_visible()
    shot(page, "16-renamed")
    names = [c["name"] for c in api(client, tenant, "GET", "/v1/collections")["data"]]
    assert names == ["Support docs", "Help centre"]


def test_conversations_by_thread_show_ids_and_counts_only(page, client, tenant):
    api(client, tenant, "PUT", "/v1/knowledge/settings", json={"enabled": True})
    said = "My locker code is 4471."
    for thread, user in (("t-17", "u1"), ("t-9", None), ("t-17", None)):
        body: dict[str, Any] = {
            "model": "any",
            "messages": [{"role": "user", "content": said}],
            "thread": thread,
        }
        if user:
            body["user"] = user
        api(client, tenant, "POST", "/v1/chat/completions", json=body)

    sign_in(page, tenant)
    go(page, "Activity")
    page.get_by_role("link", name="Conversations").click()
    threads = page.get_by_role("region", name="Conversations")
    expect(threads.locator("tbody tr")).to_have_count(2)
    row = threads.locator("tr", has=page.get_by_role("link", name="t-17"))
    expect(row.locator("td").nth(1)).to_have_text("2")
    expect(row).to_contain_text("knowledge.retrieval 1")
    expect(row).to_contain_text("chat.completions 1")
    shot(page, "17-conversations")

    row.get_by_role("link", name="t-17").click()
    expect(page.locator("#thread-summary")).to_contain_text("2 calls")
    calls = page.get_by_role("region", name="Thread t-17")
    expect(calls.locator("tbody tr")).to_have_count(2)
    expect(calls.locator("tbody code")).to_contain_text(["chat.completions", "knowledge.retrieval"])

    page.get_by_label("Thread", exact=True).fill("t-9")
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page.locator("#thread-summary")).to_contain_text("1 call")
    expect(page.get_by_role("region", name="Thread t-9").locator("tbody tr")).to_have_count(1)
    page.get_by_label("Thread", exact=True).fill("t-404")
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page.get_by_text("No call was sent under the thread “t-404”.")).to_be_visible()
    # Ids and counts: what was said is on no page of it.
    for hash_ in ("#activity/threads", "#activity/threads/t-17"):
        page.evaluate("hash => { location.hash = hash; }", hash_)
        expect(page.get_by_role("heading", name="Activity", level=1)).to_be_visible()
        expect(page.locator("main")).not_to_contain_text("locker")

    # The ledger links a line to its conversation.
    go(page, "Settings")
    page.get_by_role("region", name="Ledger").get_by_role("link", name="t-9").click()
    expect(page.get_by_role("region", name="Thread t-9")).to_be_visible()


def test_settings_delete_account_asks_shows_the_date_and_withdraws(page, client, tenant):
    sign_in(page, tenant)
    go(page, "Settings")
    panel = page.get_by_role("region", name="Delete account")
    delete = panel.get_by_role("button", name="Delete account")
    expect(delete).to_be_disabled()
    typed = panel.get_by_label("Type test to confirm")
    typed.fill("tes")
    expect(delete).to_be_disabled()
    typed.fill("test")
    expect(delete).to_be_enabled()
    shot(page, "20-settings-delete-account")
    delete.click()
    expect(page.locator("#notice")).to_contain_text("Deletion requested")
    # The pending request, with when it runs, and the account suspended by it.
    panel = page.get_by_role("region", name="Delete account")
    expect(panel.locator("#deletion-erase-after")).to_have_text(re.compile(r"\d"))
    expect(page.locator("#account-status")).to_contain_text("deletion_requested")
    expect(page.locator("#account-deletion-note")).to_contain_text("will be erased after")
    deletion = api(client, tenant, "GET", "/v1/account/deletion")
    assert deletion["status"] == "pending"
    refused = client.post(
        "/v1/memory/remember", json={"subject": "s", "text": "x"}, headers=tenant.headers
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "deletion_requested"
    shot(page, "21-settings-deletion-pending")
    panel.get_by_role("button", name="Withdraw deletion request").click()
    expect(page.locator("#notice")).to_contain_text("withdrawn")
    expect(
        page.get_by_role("region", name="Delete account").get_by_role(
            "button", name="Delete account"
        )
    ).to_be_disabled()
    expect(page.locator("#account-status")).to_be_empty()
    assert api(client, tenant, "GET", "/v1/account")["status"] == "active"
    assert api(client, tenant, "GET", "/v1/account/deletion")["status"] == "withdrawn"
