// Settings > Data export: start an export of everything the tenant holds, follow it, download
// the archive. The download needs the API key, so it is fetched and handed over as a blob.

import { action, apiBlob, badge, fill, get, h, notify, plural, post, section, when } from "./lib.js";

const POLL_MS = 2000;
const RUNNING = new Set(["queued", "running"]);
const KINDS = { completed: "ok", failed: "danger", expired: "muted" };

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function save(exported) {
  const blob = await apiBlob(exported.download_url);
  const day = (exported.finished_at || exported.created_at).slice(0, 10);
  const link = h("a", { href: URL.createObjectURL(blob), download: `dossier-export-${day}.zip` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function describe(exported) {
  if (!exported) return h("p", { class: "muted" }, "No export yet.");
  const { progress } = exported;
  const rows = exported.counts
    ? Object.values(exported.counts).reduce((sum, count) => sum + count, 0)
    : progress.rows;
  return h(
    "dl",
    { class: "facts", id: "export-status" },
    h("dt", {}, "Latest"),
    h("dd", {}, badge(exported.status, KINDS[exported.status] || "muted"), " ", when(exported.created_at)),
    h("dt", {}, "Progress"),
    h("dd", {}, `${progress.sections_done} of ${progress.sections} files, ${plural(rows, "record")}`),
    exported.expires_at ? h("dt", {}, exported.status === "expired" ? "Expired" : "Expires") : null,
    exported.expires_at ? h("dd", {}, when(exported.expires_at)) : null,
    exported.error ? h("dt", {}, "Error") : null,
    exported.error ? h("dd", { class: "error" }, exported.error) : null,
    exported.download_url
      ? h("dd", {}, action("Download archive", () => save(exported), { id: "export-download" }))
      : null,
  );
}

export async function exportPanel(ctx) {
  const body = h("div");
  let latest = (await get("/v1/console/exports", { limit: 1 })).data[0] || null;
  const start = action(
    "Export everything",
    async () => {
      latest = await get(`/v1/console/exports/${(await post("/v1/console/exports")).id}`);
      notify("Export started: the archive is written in the background.");
      render();
      follow();
    },
    { class: "primary", id: "export-start" },
  );

  function render() {
    start.hidden = Boolean(latest && RUNNING.has(latest.status));
    fill(body, describe(latest));
  }

  async function follow() {
    while (latest && RUNNING.has(latest.status)) {
      await sleep(POLL_MS);
      if (!ctx.alive()) return;
      latest = await get(`/v1/console/exports/${latest.id}`);
      render();
    }
  }

  render();
  follow();
  return section(
    "Data export",
    h(
      "p",
      { class: "muted" },
      "Everything your organization holds, across every workspace: subjects with their lines, " +
        "rules and aliases; end-users with their facts (retired ones with the day they stopped " +
        "holding; forgotten ones are gone); collections with their documents; batches with " +
        "their results. One zip of JSON Lines files, downloadable until it expires.",
    ),
    body,
    start,
  );
}
