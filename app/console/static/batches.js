// Batches: the list with live progress, results as a download, cancel and delete, and a JSONL
// upload to start one. Batches made with OpenAI's Batch API (from an uploaded file) show their
// endpoint and files, and their output and error files download from here too.

import {
  action,
  api,
  apiBlob,
  badge,
  confirmDialog,
  empty,
  field,
  fill,
  get,
  h,
  messageOf,
  notify,
  post,
  section,
  when,
} from "./lib.js";

const FINAL = new Set(["completed", "failed", "expired", "cancelled"]);
const RUNNING = new Set(["validating", "in_progress", "finalizing"]);
const POLL_MS = 1000;
const KIND = {
  completed: "ok",
  in_progress: "info",
  validating: "info",
  finalizing: "info",
  cancelling: "warn",
  cancelled: "muted",
  expired: "muted",
  failed: "danger",
};

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function doneOf(counts) {
  return counts.succeeded + counts.errored + counts.canceled + counts.expired;
}

export async function batchesView(root, ctx) {
  const rows = new Map(); // batch id -> its row's live parts
  const tbody = h("tbody");
  const listArea = h("div");
  let cursor = null;
  let newest = []; // the first page, read again at every poll
  let older = []; // pages loaded with "Show older batches"
  let batches = [];
  const more = action("Show older batches", async () => {
    const page = await get("/v1/batches", { cursor, limit: 50 });
    older = older.concat(page.data);
    cursor = page.next_cursor;
    render();
  });

  function row(batch) {
    const parts = {
      status: h("td"),
      progress: h("progress", { max: 1, value: 0 }),
      label: h("span", { class: "progress-label" }),
      counts: h("td", { class: "counts" }),
      actions: h("td", { class: "actions" }),
      shownStatus: null,
    };
    parts.element = h(
      "tr",
      { dataset: { batch: batch.id } },
      h(
        "td",
        {},
        h("code", {}, batch.id),
        h("small", { class: "muted block endpoint" }, batch.endpoint),
        batch.input_file_id
          ? h("small", { class: "muted block input-file" }, "from ", h("code", {}, batch.input_file_id))
          : null,
        h("small", { class: "muted block" }, when(batch.created_at)),
      ),
      parts.status,
      h("td", { class: "progress-cell" }, parts.progress, parts.label),
      parts.counts,
      parts.actions,
    );
    return parts;
  }

  function update(parts, batch) {
    const counts = batch.request_counts;
    const done = doneOf(counts);
    parts.progress.max = Math.max(counts.total, 1);
    parts.progress.value = done;
    parts.progress.setAttribute("aria-label", `Batch ${batch.id}: ${done} of ${counts.total} items done`);
    parts.label.textContent = `${done} / ${counts.total}`;
    fill(
      parts.counts,
      h("span", { class: "count-ok" }, `${counts.succeeded} succeeded`),
      counts.errored ? h("span", { class: "count-bad" }, ` · ${counts.errored} errored`) : null,
      counts.canceled ? ` · ${counts.canceled} canceled` : null,
      counts.expired ? ` · ${counts.expired} expired` : null,
    );
    // A file batch's files are written when it ends, sometimes a moment after its status.
    const shown = `${batch.status} ${batch.output_file_id} ${batch.error_file_id}`;
    if (parts.shownStatus === shown) return;
    // Buttons are rebuilt only when the status moves, so one being pressed is not replaced.
    parts.shownStatus = shown;
    const errors = (batch.errors && batch.errors.data) || [];
    fill(
      parts.status,
      badge(batch.status.replace("_", " "), KIND[batch.status]),
      errors.length ? h("small", { class: "error block" }, errors.map((e) => e.message).join("; ")) : null,
    );
    fill(
      parts.actions,
      h(
        "div",
        { class: "row-actions" },
        done > 0 || FINAL.has(batch.status)
          ? action("Results", () => download(batch), { class: "small", "aria-label": `Download results of ${batch.id}` })
          : null,
        batch.output_file_id
          ? action("Output file", () => downloadFile(batch.output_file_id, `${batch.id}_output.jsonl`), {
              class: "small",
              "aria-label": `Download the output file of ${batch.id}`,
            })
          : null,
        batch.error_file_id
          ? action("Error file", () => downloadFile(batch.error_file_id, `${batch.id}_error.jsonl`), {
              class: "small",
              "aria-label": `Download the error file of ${batch.id}`,
            })
          : null,
        RUNNING.has(batch.status)
          ? action(
              "Cancel",
              async () => {
                const sure = await confirmDialog({
                  title: "Cancel this batch?",
                  body: "Chunks already running finish; every item not started yet ends canceled.",
                  confirm: "Cancel batch",
                });
                if (!sure) return;
                await post(`/v1/batches/${encodeURIComponent(batch.id)}/cancel`);
                notify(`Cancelling ${batch.id}.`);
                refresh();
              },
              { class: "small danger-text", "aria-label": `Cancel ${batch.id}` },
            )
          : null,
        FINAL.has(batch.status)
          ? action(
              "Delete",
              async () => {
                const sure = await confirmDialog({
                  title: "Delete this batch?",
                  body: "The batch, its items and their results go for good.",
                  confirm: "Delete batch",
                });
                if (!sure) return;
                await post("/v1/batches/delete", { id: batch.id });
                notify(`Deleted ${batch.id}.`);
                older = older.filter((b) => b.id !== batch.id);
                await refresh();
              },
              { class: "small danger-text", "aria-label": `Delete ${batch.id}` },
            )
          : null,
      ),
    );
  }

  function render() {
    const fresh = new Set(newest.map((batch) => batch.id));
    batches = newest.concat(older.filter((batch) => !fresh.has(batch.id)));
    more.hidden = !cursor;
    if (!batches.length) {
      fill(listArea, empty("No batch yet. Upload a JSONL file above, or send one with POST /v1/batches."));
      rows.clear();
      return;
    }
    const seen = new Set();
    for (const batch of batches) {
      let parts = rows.get(batch.id);
      if (!parts) rows.set(batch.id, (parts = row(batch)));
      update(parts, batch);
      seen.add(batch.id);
    }
    for (const id of rows.keys()) if (!seen.has(id)) rows.delete(id);
    fill(tbody, ...batches.map((batch) => rows.get(batch.id).element));
    if (!listArea.contains(tbody)) {
      fill(
        listArea,
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "batches" },
            h("caption", {}, "Batches, newest first"),
            h(
              "thead",
              {},
              h("tr", {}, ["Batch", "Status", "Progress", "Items", ""].map((title) => h("th", { scope: "col" }, title))),
            ),
            tbody,
          ),
        ),
      );
    }
  }

  async function refresh() {
    const first = await get("/v1/batches", { limit: 50 });
    newest = first.data;
    if (!older.length) cursor = first.next_cursor;
    render();
  }

  async function poll() {
    // Every second while a batch runs; every three otherwise, to notice new ones.
    while (ctx.alive()) {
      await sleep(batches.some((batch) => !FINAL.has(batch.status)) ? POLL_MS : 3 * POLL_MS);
      if (!ctx.alive()) return;
      try {
        await refresh();
      } catch (failure) {
        notify(messageOf(failure), "error");
        return;
      }
    }
  }

  async function download(batch) {
    save(await apiBlob(`/v1/batches/${encodeURIComponent(batch.id)}/results`), `${batch.id}-results.jsonl`);
  }

  async function downloadFile(fileId, name) {
    save(await apiBlob(`/v1/files/${encodeURIComponent(fileId)}/content`), name);
  }

  function save(blob, name) {
    const link = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  const file = h("input", { type: "file", name: "file", accept: ".jsonl,.ndjson,application/jsonl", required: true });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const upload = h(
    "form",
    {
      class: "inline-form",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        if (!file.files.length) {
          error.textContent = "Choose a JSONL file: one {\"custom_id\", \"body\"} per line.";
          error.hidden = false;
          return;
        }
        try {
          const made = await api("POST", "/v1/batches", {
            raw: await file.files[0].text(),
            contentType: "application/jsonl",
          });
          notify(`Batch ${made.id} submitted.`);
          upload.reset();
          await refresh();
        } catch (failure) {
          error.textContent = messageOf(failure);
          error.hidden = false;
        }
      },
    },
    field("JSONL file", file),
    h("button", { type: "submit", class: "primary" }, "Submit batch"),
    error,
    h("p", { class: "hint form-note" }, "Each line: {\"custom_id\": …, \"body\": a /v1/systemone request}."),
  );

  await refresh();
  root.append(
    h("h1", {}, "Batches"),
    h(
      "p",
      { class: "lead" },
      "Decisions and chat completions run in bulk by the workers. Progress updates by itself while a batch runs. " +
        "Batches sent with OpenAI's client (a file and an endpoint) show their files here too.",
    ),
    section("New batch", upload),
    section("Batches", listArea, more),
  );
  poll();
}
