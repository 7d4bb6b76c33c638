// The console's shell: sign-in, the account bar, hash routing; and the Activity and Settings
// views. Each view is `async (root, ctx) => void`: it fills `root`, which the shell shows.

import {
  action,
  badge,
  choose,
  clearKey,
  empty,
  errorBox,
  field,
  get,
  getKey,
  h,
  loading,
  messageOf,
  money,
  notify,
  notifyError,
  plural,
  put,
  section,
  setKey,
  table,
  when,
  whenUnauthorized,
  fill,
} from "./lib.js";
import { batchesView } from "./batches.js";
import { exportPanel } from "./exports.js";
import { deletionPanel } from "./account.js";
import { documentsView, knowledgeView } from "./knowledge.js";
import { memoryView } from "./memory.js";

const VIEWS = {
  memory: memoryView,
  knowledge: knowledgeView,
  documents: documentsView,
  batches: batchesView,
  activity: activityView,
  settings: settingsView,
};

let generation = 0;

// Sign-in

function showSignIn(message) {
  document.getElementById("app").hidden = true;
  document.getElementById("signin").hidden = false;
  const error = document.getElementById("signin-error");
  error.textContent = message || "";
  error.hidden = !message;
  document.getElementById("signin-key").focus();
}

async function signIn(event) {
  event.preventDefault();
  const input = document.getElementById("signin-key");
  const error = document.getElementById("signin-error");
  const key = input.value.trim();
  if (!key) {
    error.textContent = "Paste an API key first.";
    error.hidden = false;
    return;
  }
  const button = event.target.querySelector("button");
  button.disabled = true;
  try {
    const account = await get("/v1/account", null, { key });
    setKey(key);
    input.value = "";
    showAccount(account);
    showApp();
  } catch (failure) {
    error.textContent = messageOf(failure);
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
}

function signOut(message) {
  clearKey();
  generation += 1; // stops the pollers of the view that was open
  document.getElementById("view").replaceChildren();
  showSignIn(message);
}

function showApp() {
  document.getElementById("signin").hidden = true;
  document.getElementById("app").hidden = false;
  route(false);
}

// The account bar

function showAccount(account) {
  document.getElementById("account-name").textContent = account.name;
  fill(
    document.getElementById("account-status"),
    account.status === "active" ? null : badge(account.status, "danger"),
  );
  document.getElementById("account-credit").textContent = money(account.credit);
}

async function refreshAccount() {
  try {
    showAccount(await get("/v1/account"));
  } catch {
    // the bar keeps its last figures; the view reports its own errors
  }
}

// The knowledge switch, top right, with how retrieval runs beside it. Flipping it takes effect
// at once: there is no save step.

let knowledgeOn = false;

function retrievalText(retrieval) {
  if (!retrieval) return "";
  const reads = retrieval.embeddings === "off" ? "words only" : "words and meaning";
  return `Retrieval: top ${retrieval.top_k}, ${reads}`;
}

function showKnowledge(settings) {
  knowledgeOn = settings.enabled;
  const button = document.getElementById("knowledge-switch");
  button.setAttribute("aria-checked", String(knowledgeOn));
  document.getElementById("knowledge-state").textContent = knowledgeOn ? "on" : "off";
  // PUT's answer has no `retrieval`: the text stays as the last GET gave it.
  if (settings.retrieval) {
    document.getElementById("knowledge-retrieval").textContent = retrievalText(settings.retrieval);
  }
}

async function refreshKnowledge() {
  try {
    showKnowledge(await get("/v1/knowledge/settings"));
  } catch {
    // the switch keeps its last state; the view reports its own errors
  }
}

// Turn knowledge on or off; turning it off while it holds data asks whether to keep or delete
// it first. Resolves true when the switch moved.
async function setKnowledge(on) {
  if (on) {
    showKnowledge(await put("/v1/knowledge/settings", { enabled: true }));
    notify("Knowledge is on: facts are learned from chats and documents can be added.");
    return true;
  }
  try {
    showKnowledge(await put("/v1/knowledge/settings", { enabled: false }));
  } catch (error) {
    if (error.code !== "on_disable_required") throw error;
    const answer = await choose({
      title: "Keep or delete what knowledge holds?",
      body: [
        "Knowledge still holds end-users' facts or your documents. What should happen to them?",
        h(
          "ul",
          {},
          h("li", {}, h("strong", {}, "Keep: "), "they stay stored, unused, until knowledge is turned on again."),
          h("li", {}, h("strong", {}, "Delete: "), "every fact of every end-user and every document goes, for good."),
        ),
        h("p", { class: "muted small" }, `The API said: ${error.message}`),
      ],
      choices: [
        { value: "cancel", label: "Cancel" },
        { value: "keep", label: "Keep and turn off", kind: "primary" },
        { value: "delete", label: "Delete all and turn off", kind: "danger" },
      ],
    });
    if (answer !== "keep" && answer !== "delete") return false;
    const done = await put("/v1/knowledge/settings", { enabled: false, on_disable: answer });
    showKnowledge(done);
    const gone = done.deleted
      ? ` Deleted ${Object.entries(done.deleted)
          .map(([name, count]) => `${count} ${name}`)
          .join(", ")}.`
      : " Facts and documents are kept.";
    notify(`Knowledge is off.${gone}`);
    return true;
  }
  notify("Knowledge is off.");
  return true;
}

async function flipKnowledge(event) {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    if (await setKnowledge(!knowledgeOn)) await route(false); // banners and switches follow
  } catch (error) {
    notifyError(error);
  } finally {
    button.disabled = false;
    await refreshKnowledge();
  }
}

// Routing: #view/arg/arg, each part URI-encoded.

async function route(focus = true) {
  if (!getKey()) return showSignIn();
  const [name, ...args] = location.hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent);
  const view = VIEWS[name] ? name : "memory";
  generation += 1;
  const mine = generation;
  for (const link of document.querySelectorAll(".sidebar a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const slot = document.getElementById("view");
  if (focus) {
    // A new place: a message about the last one no longer applies, unless the action that
    // brought us here just said it ("Deleted acme.").
    if (Date.now() - (notify.at || 0) > 1500) document.getElementById("notice").replaceChildren();
  }
  if (focus || !slot.childElementCount) fill(slot, loading());
  const root = h("div", { class: `view view-${view}` });
  const ctx = {
    args,
    alive: () => mine === generation && !document.getElementById("app").hidden,
    go: (hash) => {
      location.hash = hash;
    },
    reload: () => route(false),
    account: refreshAccount,
  };
  try {
    await VIEWS[view](root, ctx);
  } catch (error) {
    root.append(errorBox(error));
  }
  if (!ctx.alive()) return;
  fill(slot, root);
  document.title = `${view[0].toUpperCase()}${view.slice(1)} · Dossier console`;
  if (focus) document.getElementById("main").focus({ preventScroll: true });
  refreshAccount(); // writes cost credit: keep the bar's figure current
  refreshKnowledge();
}

// Activity: the audit log, filtered in the page; and conversations, the calls sent under each
// thread (ids, routes, times and counts: no message is kept).

function activityTabs(current) {
  return h(
    "div",
    { class: "tabs", role: "navigation", "aria-label": "Activity views" },
    h("a", { href: "#activity", "aria-current": current === "audit" ? "page" : null }, "Audit log"),
    h("a", { href: "#activity/threads", "aria-current": current === "threads" ? "page" : null }, "Conversations"),
  );
}

async function activityView(root, ctx) {
  if (ctx.args[0] === "threads") return conversationsView(root, ctx, ctx.args[1]);
  return auditView(root);
}

function routesOf(routes) {
  return Object.entries(routes)
    .map(([name, count]) => `${name} ${count}`)
    .join(" · ");
}

async function conversationsView(root, ctx, thread) {
  const input = h("input", {
    type: "search",
    name: "thread",
    placeholder: "t-17",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: "200",
    value: thread || "",
  });
  const filter = h(
    "form",
    {
      class: "filters",
      role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        const id = input.value.trim();
        ctx.go(id ? `#activity/threads/${encodeURIComponent(id)}` : "#activity/threads");
      },
    },
    field("Thread", input),
    h("button", { type: "submit" }, "Show"),
    thread ? h("a", { href: "#activity/threads" }, "All conversations") : null,
  );
  root.append(
    h("h1", {}, "Activity"),
    activityTabs("threads"),
    h(
      "p",
      { class: "lead" },
      "Chat calls sent with a thread, one conversation at a time: when, which route, what it cost. " +
        "A thread stores no message: only its id is kept, on each call's ledger line.",
    ),
    filter,
  );
  root.append(thread ? await threadCalls(thread) : await threadList());
}

async function threadList() {
  const threads = [];
  let cursor = null;
  const body = h("div", { "aria-live": "polite" });
  const older = action("Show more conversations", async () => {
    await load();
  });
  async function load() {
    const page = await get("/v1/ledger/threads", { cursor, limit: 100 });
    threads.push(...page.data);
    cursor = page.next_cursor;
    older.hidden = !cursor;
    fill(
      body,
      threads.length
        ? table(
            [
              ["Thread", (t) => h("a", { href: `#activity/threads/${encodeURIComponent(t.thread)}` }, t.thread)],
              ["Calls", (t) => t.calls, "num"],
              ["Routes", (t) => routesOf(t.routes)],
              ["Cost", (t) => money(t.cost), "num"],
              ["First call", (t) => when(t.first_at), "nowrap"],
              ["Last call", (t) => when(t.last_at), "nowrap"],
            ],
            threads,
            `${plural(threads.length, "conversation")}${cursor ? " so far" : ""}, most recent first`,
          )
        : empty('No conversation yet: send chat completions with a "thread" and they are grouped here.'),
    );
  }
  await load();
  return section("Conversations", body, older);
}

async function threadCalls(thread) {
  const calls = [];
  let cursor = null;
  const body = h("div", { "aria-live": "polite" });
  const older = action("Show older calls", async () => {
    await load();
  });
  async function load() {
    const page = await get("/v1/ledger", { thread, cursor, limit: 200 });
    calls.push(...page.data);
    cursor = page.next_cursor;
    older.hidden = !cursor;
    if (!calls.length) {
      fill(body, empty(`No call was sent under the thread “${thread}”.`));
      return;
    }
    const routes = {};
    for (const call of calls) routes[call.route] = (routes[call.route] || 0) + 1;
    const cost = calls.reduce((sum, call) => sum + call.cost, 0);
    fill(
      body,
      h(
        "p",
        { class: "summary", id: "thread-summary" },
        badge(`${plural(calls.length, "call")}${cursor ? " so far" : ""}`, "info"),
        badge(routesOf(routes), "muted"),
        ` cost ${money(cost)}, from ${when(calls[calls.length - 1].created_at)} to ${when(calls[0].created_at)}`,
      ),
      table(
        [
          ["When", (c) => when(c.created_at), "nowrap"],
          ["Route", (c) => h("code", {}, c.route)],
          ["Line", (c) => h("code", {}, String(c.id)), "num"],
          ["Units", (c) => c.units, "num"],
          ["Cost", (c) => money(c.cost), "num"],
          ["Billed", (c) => (c.billed ? "yes" : badge("free", "muted"))],
        ],
        calls,
        "Calls of this conversation, newest first",
      ),
    );
  }
  await load();
  return section(`Thread ${thread}`, body, older);
}

async function auditView(root) {
  const events = [];
  let cursor = null;
  let more = true;
  const actionSelect = h("select", {}, h("option", { value: "" }, "All actions"));
  const search = h("input", { type: "search", placeholder: "acme, 42…" });
  const results = h("div", { "aria-live": "polite" });
  const older = action("Load older events", async () => {
    await loadPage();
    render();
  });

  async function loadPage() {
    const page = await get("/v1/audit", { cursor, limit: 200 });
    events.push(...page.data);
    cursor = page.next_cursor;
    more = Boolean(cursor);
  }

  function render() {
    const chosen = actionSelect.value;
    const actions = [...new Set(events.map((event) => event.action))].sort();
    fill(
      actionSelect,
      h("option", { value: "" }, "All actions"),
      actions.map((name) => h("option", { value: name, selected: name === chosen }, name)),
    );
    const needle = search.value.trim().toLowerCase();
    const shown = events.filter(
      (event) =>
        (!chosen || event.action === chosen) &&
        (!needle ||
          (event.subject || "").toLowerCase().includes(needle) ||
          event.ids.some((id) => String(id).toLowerCase().includes(needle))),
    );
    older.hidden = !more;
    if (!events.length) {
      fill(results, empty("Nothing has happened yet: writes, deletes and settings changes show here."));
      return;
    }
    if (!shown.length) {
      fill(
        results,
        empty(
          more
            ? `No event matches among the ${events.length} newest. Load older events to look further.`
            : `No event matches among all ${events.length} events.`,
        ),
      );
      return;
    }
    fill(
      results,
      h("p", { class: "muted" }, `Showing ${shown.length} of the ${events.length} events loaded`),
      table(
        [
          ["When", (e) => when(e.created_at), "nowrap"],
          ["Action", (e) => h("code", {}, e.action)],
          ["Subject", (e) => e.subject || "—"],
          ["Ids", (e) => (e.ids.length ? h("code", {}, e.ids.join(", ")) : "—"), "ids"],
          [
            "Counts",
            (e) =>
              Object.entries(e.counts)
                .map(([name, count]) => `${name} ${count}`)
                .join(" · ") || "—",
          ],
        ],
        shown,
        "Audit events, newest first",
      ),
    );
  }

  actionSelect.addEventListener("change", render);
  search.addEventListener("input", render);
  await loadPage();
  root.append(
    h("h1", {}, "Activity"),
    activityTabs("audit"),
    h(
      "p",
      { class: "lead" },
      "Who changed what, newest first: the action, the subject, the ids touched and counts. " +
        "The log never holds the text of lines, facts or documents.",
    ),
    h(
      "form",
      { class: "filters", role: "search", onsubmit: (event) => event.preventDefault() },
      field("Action", actionSelect),
      field("Subject or id contains", search),
    ),
    results,
    older,
  );
  render();
}

// Settings: the account, the knowledge switch, quality, the export, the ledger, and the danger
// zone (Delete account) last.

async function settingsView(root, ctx) {
  const [account, knowledge, quality] = await Promise.all([
    get("/v1/account"),
    get("/v1/knowledge/settings"),
    get("/v1/settings/quality"),
  ]);
  showAccount(account);
  root.append(
    h("h1", {}, "Settings"),
    h("div", { class: "grid" }, accountPanel(account), knowledgePanel(knowledge, ctx), qualityPanel(quality)),
    await exportPanel(ctx),
    await ledgerPanel(),
    deletionPanel(account, ctx),
  );
}

function accountPanel(account) {
  return section(
    "Account",
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Tenant"),
      h("dd", {}, account.name),
      h("dt", {}, "Tenant id"),
      h("dd", {}, h("code", {}, account.tenant_id)),
      h("dt", {}, "Status"),
      h("dd", {}, badge(account.status, account.status === "active" ? "ok" : "danger")),
      h("dt", {}, "Credit"),
      h("dd", { class: "big", id: "settings-credit" }, money(account.credit)),
    ),
    h(
      "p",
      { class: "muted" },
      "Reads, forget and deletes keep working at zero credit and while suspended. " +
        "Credit is topped up by your Dossier operator.",
    ),
    account.deletion
      ? h(
          "p",
          { class: "error", id: "account-deletion-note" },
          `Deletion requested: this account will be erased after ${when(account.deletion.erase_after)}. ` +
            "Withdraw it under Delete account, below.",
        )
      : null,
  );
}

function knowledgePanel(settings, ctx) {
  const on = settings.enabled;
  const toggle = action(
    on ? "Turn knowledge off" : "Turn knowledge on",
    async () => {
      if (await setKnowledge(!on)) return ctx.reload();
    },
    { class: on ? "" : "primary", id: "knowledge-toggle" },
  );
  const retrieval = settings.retrieval;
  return section(
    "Knowledge",
    h(
      "p",
      {},
      "End-user knowledge is ",
      badge(on ? "on" : "off", on ? "ok" : "muted"),
      on
        ? ": Dossier learns facts about your end-users from chats and searches your documents."
        : ": nothing is learned or recalled about end-users, and documents are not searched.",
    ),
    toggle,
    retrieval
      ? h(
          "div",
          { id: "retrieval-settings" },
          h("h3", {}, "Retrieval"),
          h(
            "dl",
            { class: "facts" },
            h("dt", {}, "Searched"),
            h("dd", {}, "The end-user's facts and every collection, in one pass (a request can name collections)"),
            h("dt", {}, "Per chat"),
            h("dd", {}, `the ${retrieval.top_k} most relevant facts and passages`),
            h("dt", {}, "Reads"),
            h("dd", {}, retrieval.embeddings === "off" ? "words only" : `words and meaning (${retrieval.embeddings} embeddings)`),
          ),
          h("p", { class: "muted small" }, "Set by your Dossier operator for every tenant."),
        )
      : null,
  );
}

function qualityPanel(quality) {
  const level = h(
    "select",
    { name: "quality" },
    ["fast", "balanced", "best"].map((name) =>
      h(
        "option",
        { value: name, selected: name === quality.quality, disabled: name !== "fast" && !quality.second_tier },
        name,
      ),
    ),
  );
  const temperature = h("input", {
    type: "number",
    name: "temperature",
    min: "0.05",
    max: "10",
    step: "0.05",
    value: String(quality.temperature),
  });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        try {
          const saved = await put("/v1/settings/quality", {
            quality: level.value,
            temperature: Number(temperature.value),
          });
          notify(`Quality is ${saved.quality}, temperature ${saved.temperature}.`);
        } catch (failure) {
          error.textContent = messageOf(failure);
          error.hidden = false;
        }
      },
    },
    field("Quality", level, quality.second_tier
      ? "balanced and best ask the second-tier engine when the first is unsure (or always)."
      : "No second-tier engine is configured here, so only fast can be chosen."),
    field("Temperature", temperature, "1 leaves the engine's probabilities as they are."),
    error,
    h("button", { type: "submit", class: "primary" }, "Save quality"),
  );
  return section("Decision quality", form);
}

async function ledgerPanel() {
  const lines = [];
  let cursor = null;
  const body = h("div");
  const older = action("Load older lines", async () => {
    await load();
  });
  async function load() {
    const page = await get("/v1/ledger", { cursor, limit: 100 });
    lines.push(...page.data);
    cursor = page.next_cursor;
    older.hidden = !cursor;
    fill(
      body,
      lines.length
        ? table(
            [
              ["When", (l) => when(l.created_at), "nowrap"],
              ["Route", (l) => h("code", {}, l.route)],
              ["Subject", (l) => l.subject || "—"],
              [
                "Thread",
                (l) => (l.thread ? h("a", { href: `#activity/threads/${encodeURIComponent(l.thread)}` }, l.thread) : "—"),
              ],
              ["Units", (l) => l.units, "num"],
              ["Cost", (l) => money(l.cost), "num"],
              ["Billed", (l) => (l.billed ? "yes" : badge("unbilled", "muted"))],
            ],
            lines,
            "Priced requests, newest first",
          )
        : empty("No priced request yet."),
    );
  }
  await load();
  return section(
    "Ledger",
    h("p", { class: "muted" }, "One line per priced request, and one per free chat call sent with a thread."),
    body,
    older,
  );
}

// Start

whenUnauthorized((message) => signOut(`Signed out: ${message}`));
document.getElementById("signin-form").addEventListener("submit", signIn);
document.getElementById("signout").addEventListener("click", () => signOut());
document.getElementById("knowledge-switch").addEventListener("click", flipKnowledge);
window.addEventListener("hashchange", () => route(true));
if (getKey()) {
  refreshAccount();
  showApp();
} else {
  showSignIn();
}
