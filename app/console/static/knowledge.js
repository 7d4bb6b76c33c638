// Knowledge: end-users, their facts (search, filter, delete, promote) and the graph their facts
// form; Documents: collections, their documents, uploads and processing status.

import { drawGraph, legend } from "./graph.js";
import {
  action,
  api,
  openByIdForm,
  badge,
  confirmDialog,
  del,
  empty,
  field,
  get,
  h,
  messageOf,
  notify,
  patch,
  plural,
  post,
  promptDialog,
  section,
  table,
  uid,
  when,
  fill,
} from "./lib.js";

const USER = /^[A-Za-z0-9_.@:+-]{1,128}$/;
const POLL_MS = 1500;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A warning while knowledge is off; an empty text node while it is on (root.append() would
// write a null out as the word "null").
async function knowledgeBanner() {
  const settings = await get("/v1/knowledge/settings");
  if (settings.enabled) return document.createTextNode("");
  return h(
    "div",
    { class: "warning", role: "status" },
    h("p", {}, "Knowledge is off for this tenant: nothing is learned from chats and no fact is recalled. "),
    h("a", { href: "#settings" }, "Turn it on in Settings"),
  );
}

// Knowledge: end-users

export async function knowledgeView(root, ctx) {
  if (ctx.args.length) return userView(root, ctx, ctx.args[0], ctx.args[1] === "graph" ? "graph" : "facts");
  const users = [];
  let cursor = null;
  const list = h("div");
  const more = action("Show more end-users", async () => {
    await load();
  });
  async function load() {
    const page = await get("/v1/users", { cursor, limit: 100 });
    users.push(...page.data);
    cursor = page.next_cursor;
    more.hidden = !cursor;
    fill(
      list,
      users.length
        ? table(
            [
              ["End-user", (u) => h("a", { href: `#knowledge/${encodeURIComponent(u.user)}` }, u.user)],
              ["Facts", (u) => u.fact_count - u.retired_fact_count, "num"],
              ["Retired", (u) => u.retired_fact_count, "num"],
              ["Graph", (u) => h("a", { href: `#knowledge/${encodeURIComponent(u.user)}/graph` }, "View graph")],
              ["First seen", (u) => when(u.created_at), "nowrap"],
            ],
            users,
            `${plural(users.length, "end-user")}${cursor ? " so far" : ""}, by id`,
          )
        : empty("No end-user yet. Facts are learned from chat turns sent with a user, or added with POST /v1/users/{user}/facts."),
    );
  }
  const [banner, allFacts] = await Promise.all([knowledgeBanner(), factList(), load()]);
  root.append(
    h("h1", {}, "Knowledge"),
    h("p", { class: "lead" }, "What Dossier learned about each of your end-users from their chats: facts with their dates, and the graph they form."),
    banner,
    allFacts,
    section(
      "Open an end-user",
      openByIdForm({
        label: "End-user id",
        name: "user",
        placeholder: "user-4821",
        pattern: USER,
        invalid: "An end-user id is 1 to 128 letters, digits or _ . @ : + -.",
        route: (user) => ctx.go(`#knowledge/${encodeURIComponent(user)}`),
      }),
    ),
    section("End-users", list, more),
  );
}

async function userView(root, ctx, user, tab) {
  const base = `#knowledge/${encodeURIComponent(user)}`;
  const tabs = h(
    "div",
    { class: "tabs", role: "navigation", "aria-label": "End-user views" },
    h("a", { href: base, "aria-current": tab === "facts" ? "page" : null }, "Facts"),
    h("a", { href: `${base}/graph`, "aria-current": tab === "graph" ? "page" : null }, "Graph"),
  );
  const erase = action(
    "Erase this end-user",
    async () => {
      const sure = await confirmDialog({
        title: `Erase ${user}?`,
        body: "Every fact, pending chat turn and cached index of this end-user goes at once, for good (GDPR erasure).",
        confirm: "Erase end-user",
      });
      if (!sure) return;
      const done = await del(`/v1/users/${encodeURIComponent(user)}`);
      notify(`Erased ${user}: ${plural(done.deleted.facts || 0, "fact")}.`);
      ctx.go("#knowledge");
    },
    { class: "danger" },
  );
  root.append(
    h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: "#knowledge" }, "Knowledge"),
      " › ",
      h("span", { "aria-current": "page" }, user),
    ),
    h("div", { class: "title-row" }, h("h1", {}, user), erase),
    tabs,
  );
  if (tab === "graph") return graphPanel(root, user);
  return factsPanel(root, user);
}

async function graphPanel(root, user) {
  const graph = await get(`/v1/users/${encodeURIComponent(user)}/graph`);
  if (!graph.edges.length) {
    root.append(section("Graph", empty(`No fact about ${user} yet, so there is nothing to draw.`)));
    return;
  }
  const key = legend(graph).map(({ type, colour }) =>
    h("li", {}, svgDot(colour), type),
  );
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  root.append(
    section(
      "Graph",
      h(
        "p",
        { class: "muted" },
        `${plural(graph.nodes.length - 1, "entity", "entities")} and ${plural(graph.edges.length, "relationship")}. ` +
          "Dashed lines are retired facts, with their end day. Hover a dot for its full name.",
      ),
      h("div", { class: "graph-wrap", id: "user-graph" }, drawGraph(graph)),
      h("ul", { class: "legend", "aria-label": "Legend" }, key),
      h(
        "details",
        {},
        h("summary", {}, "The same, as a list"),
        table(
          [
            ["Relationship", (edge) => edge.relation],
            ["To", (edge) => (nodes.get(edge.target) || { label: edge.target }).label],
            ["Kind", (edge) => (nodes.get(edge.target) || { type: "" }).type],
            ["Status", (edge) => statusBadge(edge.status)],
            ["Until", (edge) => edge.retired_on || edge.valid_until || "—"],
            ["Fact", (edge) => edge.fact_id, "num"],
          ],
          graph.edges,
        ),
      ),
    ),
  );
}

function svgDot(colour) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 10 10");
  svg.setAttribute("class", "dot");
  svg.setAttribute("aria-hidden", "true");
  const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  circle.setAttribute("cx", "5");
  circle.setAttribute("cy", "5");
  circle.setAttribute("r", "5");
  circle.setAttribute("fill", colour);
  svg.append(circle);
  return svg;
}

function statusBadge(status) {
  return badge(status, { active: "ok", upcoming: "info", retired: "muted" }[status] || "muted");
}

async function factsPanel(root, user) {
  root.append(await factList({ user }));
}

// A list of facts: one end-user's (`user`), or every end-user's in the tenant (no `user`):
// search, filter, sort, page on; delete a fact, or promote it once a collection exists.
async function factList({ user = null } = {}) {
  const everyone = user === null;
  const path = everyone ? "/v1/facts" : `/v1/users/${encodeURIComponent(user)}/facts`;
  const q = h("input", {
    type: "search",
    name: "q",
    placeholder: everyone ? "user-4821, Ghent…" : "Ghent",
    autocomplete: "off",
  });
  const status = h(
    "select",
    { name: "status" },
    [
      ["all", "Active and retired"],
      ["active", "Active only"],
      ["retired", "Retired only"],
    ].map(([value, label]) => h("option", { value }, label)),
  );
  const sort = h(
    "select",
    { name: "sort" },
    h("option", { value: "newest" }, "Newest first"),
    h("option", { value: "oldest" }, "Oldest first"),
    everyone ? h("option", { value: "user" }, "By end-user") : null,
  );
  const list = h("div", { "aria-live": "polite" });
  let facts = [];
  let cursor = null;
  const more = action("Show more facts", async () => {
    await load(false);
  });
  // Promoting needs somewhere to promote to: the action stays off until a collection exists.
  const { data: collections } = await get("/v1/collections");
  const promoteHint = uid("promote-hint");

  async function load(fresh) {
    if (fresh) {
      facts = [];
      cursor = null;
    }
    const page = await get(path, { q: q.value.trim(), status: status.value, sort: sort.value, cursor, limit: 100 });
    facts.push(...page.data);
    cursor = page.next_cursor;
    more.hidden = !cursor;
    const filtered = q.value.trim() || status.value !== "all";
    const columns = [
      ["Fact", (f) => h("span", { class: "fact-text" }, f.text)],
      everyone
        ? ["End-user", (f) => h("a", { href: `#knowledge/${encodeURIComponent(f.user)}`, class: "fact-user" }, f.user)]
        : null,
      ["Slot", (f) => (f.slot ? h("span", {}, h("code", {}, f.slot), f.value ? ` → ${f.value}` : "") : f.kind)],
      ["Status", (f) => statusBadge(f.status)],
      ["Holds", (f) => spanOf(f), "nowrap"],
      ["Added", (f) => h("span", {}, when(f.created_at), h("br"), h("small", { class: "muted" }, f.source))],
      ["", (f) => factActions(f), "actions"],
    ].filter(Boolean);
    fill(
      list,
      collections.length
        ? null
        : h("p", { class: "hint", id: promoteHint }, "Promote is off until there is a collection to promote to: create one in ", h("a", { href: "#documents" }, "Documents"), "."),
      facts.length
        ? table(columns, facts, `${plural(facts.length, "fact")}${cursor ? " so far" : ""}`)
        : empty(
            filtered
              ? "No fact matches these filters."
              : everyone
                ? "No fact about any end-user yet."
                : `No fact about ${user} yet.`,
          ),
    );
  }

  function factActions(fact) {
    const factPath = `/v1/users/${encodeURIComponent(fact.user)}/facts/${fact.id}`;
    return h(
      "div",
      { class: "row-actions" },
      action("Promote", () => promote(fact, factPath), {
        class: "small",
        "aria-label": `Promote fact ${fact.id}`,
        disabled: !collections.length,
        "aria-describedby": collections.length ? null : promoteHint,
        title: collections.length ? null : "Create a collection in Documents first",
      }),
      action(
        "Delete",
        async () => {
          const sure = await confirmDialog({
            title: "Delete this fact?",
            body: [h("q", {}, fact.text), "It goes from retrieval, the graph and every export, for good."],
            confirm: "Delete fact",
          });
          if (!sure) return;
          await del(factPath);
          notify("Fact deleted.");
          await load(true);
        },
        { class: "small danger-text", "aria-label": `Delete fact ${fact.id}` },
      ),
    );
  }

  async function promote(fact, factPath) {
    const boxes = collections.map((collection) => {
      const id = uid("c");
      return h(
        "div",
        { class: "check" },
        h("input", { type: "checkbox", id, value: collection.slug }),
        h("label", { for: id }, collection.name),
      );
    });
    const sure = await confirmDialog({
      title: "Promote this fact to documents?",
      body: [
        h("q", {}, fact.text),
        `It becomes a document in each collection you tick, and leaves ${fact.user}'s personal memory.`,
        h("fieldset", {}, h("legend", {}, "Collections"), boxes),
      ],
      confirm: "Promote",
      danger: false,
    });
    if (!sure) return;
    const chosen = boxes.map((box) => box.querySelector("input")).filter((box) => box.checked).map((box) => box.value);
    if (!chosen.length) {
      notify("Nothing promoted: no collection was ticked.", "error");
      return;
    }
    const done = await post(`${factPath}/promote`, { collections: chosen });
    notify(`Promoted to ${done.documents.map((doc) => doc.collection).join(", ")}.`);
    await load(true);
  }

  const form = h(
    "form",
    {
      class: "filters",
      role: "search",
      "aria-label": everyone ? "Search every end-user's facts" : `Search ${user}'s facts`,
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await load(true);
        } catch (failure) {
          fill(list, h("p", { class: "error", role: "alert" }, messageOf(failure)));
        }
      },
    },
    field(everyone ? "End-user or text" : "Search facts", q),
    field("Show", status),
    field("Order", sort),
    h("button", { type: "submit" }, "Apply"),
  );
  status.addEventListener("change", () => form.requestSubmit());
  sort.addEventListener("change", () => form.requestSubmit());
  await load(true);
  return section(everyone ? "All facts" : "Facts", form, list, more);
}

function spanOf(fact) {
  if (fact.kind === "event") return fact.happened_on ? `on ${fact.happened_on}` : "—";
  const parts = [];
  if (fact.valid_from) parts.push(`from ${fact.valid_from}`);
  if (fact.valid_until) parts.push(`until ${fact.valid_until}`);
  if (fact.retired_on) parts.push(`retired ${fact.retired_on}`);
  return parts.join(", ") || "open-ended";
}

// Documents: collections and their documents

export async function documentsView(root, ctx) {
  if (ctx.args.length) return collectionView(root, ctx, ctx.args[0]);
  const [{ data: collections }, banner] = await Promise.all([get("/v1/collections"), knowledgeBanner()]);
  const name = h("input", { name: "name", required: true, placeholder: "Support docs", autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  root.append(
    h("h1", {}, "Documents"),
    h("p", { class: "lead" }, "Collections of your documents (PDF, text, Markdown), searched for every chat that names them."),
    banner,
    section(
      "New collection",
      h(
        "form",
        {
          class: "inline-form",
          onsubmit: async (event) => {
            event.preventDefault();
            error.hidden = true;
            try {
              const made = await post("/v1/collections", { name: name.value });
              notify(`Collection “${made.name}” created (slug ${made.slug}).`);
              ctx.go(`#documents/${encodeURIComponent(made.slug)}`);
            } catch (failure) {
              error.textContent = messageOf(failure);
              error.hidden = false;
            }
          },
        },
        field("Name", name),
        h("button", { type: "submit", class: "primary" }, "Create"),
        error,
        h("p", { class: "hint form-note" }, "The slug used in API calls comes from the name and never changes."),
      ),
    ),
    section(
      "Collections",
      collections.length
        ? table(
            [
              ["Collection", (c) => h("a", { href: `#documents/${encodeURIComponent(c.slug)}` }, c.name)],
              ["Slug", (c) => h("code", {}, c.slug)],
              ["Documents", (c) => c.documents, "num"],
              ["Created", (c) => when(c.created_at), "nowrap"],
              [
                "",
                (c) =>
                  action("Rename", () => renameCollection(c, ctx), {
                    class: "small",
                    "aria-label": `Rename collection ${c.name}`,
                  }),
                "actions",
              ],
            ],
            collections,
          )
        : empty("No collection yet. Create one above, then upload documents into it."),
    ),
  );
}

// Only the display name changes: the slug is what requests send, so it stays.
async function renameCollection(collection, ctx) {
  const name = await promptDialog({
    title: `Rename “${collection.name}”`,
    label: "New name",
    value: collection.name,
    confirm: "Rename",
    hint: `The slug ${collection.slug} stays: requests that name it keep working.`,
  });
  if (name === null) return;
  const done = await patch(`/v1/collections/${encodeURIComponent(collection.slug)}`, { name });
  notify(`Renamed to “${done.name}” (slug ${done.slug}).`);
  ctx.reload();
}

function sizeOf(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function collectionView(root, ctx, slug) {
  const base = `/v1/collections/${encodeURIComponent(slug)}`;
  const { data: collections } = await get("/v1/collections");
  const collection = collections.find((c) => c.slug === slug);
  root.append(
    h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: "#documents" }, "Documents"),
      " › ",
      h("span", { "aria-current": "page" }, collection ? collection.name : slug),
    ),
  );
  if (!collection) {
    root.append(h("h1", {}, slug), empty(`There is no collection “${slug}”.`, h("a", { href: "#documents" }, "Back to collections")));
    return;
  }
  const list = h("div", { "aria-live": "polite" });

  async function load() {
    const page = await get(`${base}/documents`, { limit: 200 });
    fill(
      list,
      page.data.length
        ? table(
            [
              [
                "Document",
                (d) =>
                  h(
                    "span",
                    {},
                    h("strong", {}, d.title),
                    d.filename && d.filename !== d.title ? h("small", { class: "muted block" }, d.filename) : null,
                    d.source ? h("small", { class: "muted block" }, d.source) : null,
                  ),
              ],
              [
                "Status",
                (d) =>
                  h(
                    "span",
                    {},
                    badge(d.status, { ready: "ok", processing: "info", failed: "danger" }[d.status]),
                    d.error ? h("small", { class: "error block" }, d.error) : null,
                  ),
              ],
              ["Type", (d) => d.media_type],
              ["Size", (d) => sizeOf(d.size_bytes), "num"],
              ["Tokens", (d) => d.tokens, "num"],
              ["Added", (d) => when(d.created_at), "nowrap"],
              [
                "",
                (d) =>
                  h(
                    "div",
                    { class: "row-actions" },
                    action(
                      "Rename",
                      async () => {
                        const title = await promptDialog({
                          title: `Rename “${d.title}”`,
                          label: "New title",
                          value: d.title,
                          confirm: "Rename",
                        });
                        if (title === null) return;
                        const done = await patch(`${base}/documents/${d.id}`, { title });
                        notify(`Renamed to “${done.title}”.`);
                        await load();
                      },
                      { class: "small", "aria-label": `Rename document ${d.title}` },
                    ),
                    action(
                      "Delete",
                      async () => {
                        const sure = await confirmDialog({
                          title: `Delete “${d.title}”?`,
                          body: "The document and its indexed passages go for good.",
                          confirm: "Delete document",
                        });
                        if (!sure) return;
                        await del(`${base}/documents/${d.id}`);
                        notify(`Deleted “${d.title}”.`);
                        await load();
                      },
                      { class: "small danger-text", "aria-label": `Delete document ${d.title}` },
                    ),
                  ),
                "actions",
              ],
            ],
            page.data,
            `${plural(page.data.length, "document")}, newest first`,
          )
        : empty("No document yet. Upload files or paste text above."),
    );
    return page.data.some((d) => d.status === "processing");
  }

  async function poll() {
    // Documents are parsed by a worker: refresh while one is still processing.
    while (ctx.alive()) {
      let busy = false;
      try {
        busy = await load();
      } catch (failure) {
        fill(list, h("p", { class: "error", role: "alert" }, messageOf(failure)));
      }
      if (!busy) return;
      await sleep(POLL_MS);
    }
  }

  const files = h("input", { type: "file", name: "files", multiple: true, accept: ".pdf,.txt,.md,application/pdf,text/plain,text/markdown" });
  const title = h("input", { name: "title", autocomplete: "off" });
  const text = h("textarea", { name: "text", rows: 4 });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const upload = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        const form = new FormData();
        for (const file of files.files) form.append("files", file);
        if (title.value.trim() || text.value.trim()) {
          form.append("title", title.value.trim());
          form.append("text", text.value);
        }
        if (!files.files.length && !text.value.trim()) {
          error.textContent = "Choose files, or paste a title and text.";
          error.hidden = false;
          return;
        }
        const button = upload.querySelector("button[type=submit]");
        button.disabled = true;
        try {
          const done = await api("POST", `${base}/documents`, { form });
          const count = done.data ? done.data.length : 1;
          notify(`${plural(count, "document")} added: processing.`);
          upload.reset();
          poll();
        } catch (failure) {
          error.textContent = messageOf(failure);
          error.hidden = false;
        } finally {
          button.disabled = false;
        }
      },
    },
    field("Files", files, "PDF, .txt or .md; 20 MB each at most."),
    h(
      "details",
      {},
      h("summary", {}, "Or paste text"),
      field("Title", title),
      field("Text", text),
    ),
    error,
    h("button", { type: "submit", class: "primary" }, "Upload"),
  );
  await load();
  root.append(
    h(
      "div",
      { class: "title-row" },
      h("h1", {}, collection.name),
      h(
        "div",
        { class: "buttons" },
        action("Rename collection", () => renameCollection(collection, ctx)),
        action(
          "Delete collection",
          async () => {
            const sure = await confirmDialog({
              title: `Delete “${collection.name}”?`,
              body: `Its ${plural(collection.documents, "document")} and their passages go for good.`,
              confirm: "Delete collection",
            });
            if (!sure) return;
            await del(base);
            notify(`Deleted “${collection.name}”.`);
            ctx.go("#documents");
          },
          { class: "danger" },
        ),
      ),
    ),
    h("p", { class: "muted" }, "Slug ", h("code", {}, slug), ": name it in chat requests as ", h("code", {}, `"collection": "${slug}"`), "."),
    section("Upload", upload),
    section("Documents", list),
  );
  poll();
}
