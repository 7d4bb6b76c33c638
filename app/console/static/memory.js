// Memory: the tenant's subjects; one subject's lines, rules and aliases; remember; forget with
// its preview first.

import {
  action,
  ApiError,
  openByIdForm,
  badge,
  confirmDialog,
  empty,
  field,
  get,
  h,
  messageOf,
  notify,
  plural,
  post,
  section,
  table,
  when,
  fill,
} from "./lib.js";

const SUBJECT = /^[A-Za-z0-9_-]{1,36}$/;

export async function memoryView(root, ctx) {
  if (ctx.args.length) return subjectView(root, ctx, ctx.args[0]);
  return subjectsView(root, ctx);
}

function openSubjectForm(ctx) {
  return openByIdForm({
    label: "Subject id",
    name: "subject",
    placeholder: "acme",
    pattern: SUBJECT,
    invalid: "A subject id is 1 to 36 letters, digits, _ or -.",
    route: (subject) => ctx.go(`#memory/${encodeURIComponent(subject)}`),
    note: "Open a subject, or type a new id to start one.",
  });
}

async function subjectsView(root, ctx) {
  const subjects = [];
  let cursor = null;
  const list = h("div");
  const more = action("Show more subjects", async () => {
    await load();
  });

  async function load() {
    const page = await get("/v1/memory/subjects", { cursor, limit: 100 });
    subjects.push(...page.data);
    cursor = page.next_cursor;
    more.hidden = !cursor;
    fill(
      list,
      subjects.length
        ? table(
            [
              [
                "Subject",
                (s) => h("a", { href: `#memory/${encodeURIComponent(s.subject)}` }, s.subject),
              ],
              ["Lines", (s) => s.line_count, "num"],
              ["Rules", (s) => s.rule_count, "num"],
              ["Aliases", (s) => s.alias_count, "num"],
              ["Last used", (s) => when(s.touched_at), "nowrap"],
            ],
            subjects,
            `${plural(subjects.length, "subject")}${cursor ? " so far" : ""}, by name`,
          )
        : empty("No subject holds memory yet. Type a subject id above and remember its first line."),
    );
  }

  await load();
  root.append(
    h("h1", {}, "Memory"),
    h(
      "p",
      { class: "lead" },
      "A subject is a customer, account, patient or device your decisions are about. " +
        "Its lines are what is true about it; recall puts the right ones in front of the engine.",
    ),
    section("Open a subject", openSubjectForm(ctx)),
    section("Subjects", list, more),
  );
}

async function subjectView(root, ctx, subject) {
  let memory = null;
  try {
    memory = await get("/v1/memory", { subject, lines: "true" });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  const reload = () => ctx.reload();
  root.append(
    h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: "#memory" }, "Memory"),
      " › ",
      h("span", { "aria-current": "page" }, subject),
    ),
    h("h1", {}, subject),
  );
  if (memory) {
    root.append(
      h(
        "p",
        { class: "summary" },
        badge(plural(memory.line_count, "line"), "info"),
        badge(plural(memory.rule_count, "rule"), "info"),
        badge(plural(memory.alias_count, "alias", "aliases"), "info"),
      ),
    );
  } else {
    root.append(
      empty(`Nothing is remembered about ${subject} yet. Remember a first line below.`),
    );
  }
  root.append(
    h("div", { class: "grid" }, rememberPanel(subject, reload), memory ? forgetPanel(subject, reload) : null),
  );
  if (!memory) return;
  root.append(
    linesPanel(memory),
    h("div", { class: "grid" }, rulesPanel(subject, memory, reload), aliasesPanel(subject, memory, reload)),
    section(
      "Delete this subject",
      h("p", {}, "Deletes every line, rule and alias of the subject at once. It cannot be undone."),
      action(
        `Delete ${subject}`,
        async () => {
          const sure = await confirmDialog({
            title: `Delete ${subject}?`,
            body: `All ${plural(memory.line_count, "line")}, ${plural(memory.rule_count, "rule")} and ${plural(memory.alias_count, "alias", "aliases")} go for good.`,
            confirm: "Delete subject",
          });
          if (!sure) return;
          const done = await post("/v1/memory/delete", { subject });
          notify(`Deleted ${subject}: ${plural(done.deleted.lines || 0, "line")} and ${plural(done.deleted.rules || 0, "rule")}.`);
          ctx.go("#memory");
        },
        { class: "danger" },
      ),
    ),
  );
}

function rememberPanel(subject, reload) {
  const text = h("textarea", {
    name: "text",
    rows: 4,
    required: true,
    placeholder: `${subject} holds an enterprise contract.`,
  });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const warnings = h("div");
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        if (!text.value.trim()) {
          error.textContent = "Type at least one line.";
          error.hidden = false;
          return;
        }
        const button = form.querySelector("button");
        button.disabled = true;
        try {
          const done = await post("/v1/memory/remember", { subject, text: text.value });
          notify(`Remembered ${plural(done.stored.length, "line")} about ${subject}.`);
          if (done.warnings.length) {
            // Shown after the reload, so the operator sees which lines belong in a rule.
            sessionStorage.setItem("dossier.warnings", JSON.stringify(done.warnings));
          }
          reload();
        } catch (failure) {
          error.textContent = messageOf(failure);
          error.hidden = false;
        } finally {
          button.disabled = false;
        }
      },
    },
    field("Lines to remember", text, "One fact per line; blank lines are skipped."),
    error,
    warnings,
    h("button", { type: "submit", class: "primary" }, "Remember"),
  );
  const kept = sessionStorage.getItem("dossier.warnings");
  if (kept) {
    sessionStorage.removeItem("dossier.warnings");
    warnings.append(
      h(
        "div",
        { class: "warning", role: "status" },
        h("p", {}, "Stored, but these lines would work better as rules:"),
        h("ul", {}, JSON.parse(kept).map((w) => h("li", {}, h("q", {}, w.line), " — ", w.message))),
      ),
    );
  }
  return section("Remember", form);
}

function forgetPanel(subject, reload) {
  const concept = h("input", { name: "concept", required: true, placeholder: "Ann Lindqvist", autocomplete: "off" });
  const preview = h("div", { class: "preview", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", hidden: true });

  async function showPreview(event) {
    event.preventDefault();
    error.hidden = true;
    preview.replaceChildren();
    const asked = concept.value.trim();
    if (!asked) {
      error.textContent = "Type what to forget: a name, a word, a phrase.";
      error.hidden = false;
      return;
    }
    try {
      const plan = await post("/v1/memory/forget", { subject, concept: asked, preview: true });
      fill(preview, ...previewOf(plan, asked));
    } catch (failure) {
      error.textContent = messageOf(failure);
      error.hidden = false;
    }
  }

  function previewOf(plan, asked) {
    const unsure = new Set(plan.matched_unsure.lines);
    const unsureRules = new Set(plan.matched_unsure.rules.map((rule) => rule.id));
    const count = plan.removed_lines.length + plan.removed_rules.length;
    const parts = [];
    if (!count) {
      parts.push(empty(`No line or rule holds “${asked}”: nothing would be removed.`));
    } else {
      parts.push(
        h("h3", {}, `Forgetting “${asked}” would remove ${counted(plan.removed_lines.length, plan.removed_rules.length)}`),
        h("p", { class: "muted" }, "Nothing has been removed yet."),
        h(
          "ul",
          { class: "removed", "aria-label": "Would be removed" },
          plan.removed_lines.map((line) =>
            h("li", {}, line, unsure.has(line) ? badge("unsure", "warn") : null),
          ),
          plan.removed_rules.map((rule) =>
            h("li", {}, badge("rule", "info"), " ", rule.text, unsureRules.has(rule.id) ? badge("unsure", "warn") : null),
          ),
        ),
      );
      if (unsure.size || unsureRules.size) {
        parts.push(
          h(
            "p",
            { class: "muted" },
            "Unsure: case cannot show whether these lines name it (a first word, a heading, capitals). " +
              "They are removed too.",
          ),
        );
      }
    }
    const related = plan.related.lines.length + plan.related.rules.length;
    if (related) {
      parts.push(
        h("h3", {}, `Kept, but may be about the same (${related})`),
        h(
          "ul",
          { class: "related", "aria-label": "Kept but related" },
          plan.related.lines.map((line) => h("li", {}, line)),
          plan.related.rules.map((rule) => h("li", {}, badge("rule", "info"), " ", rule.text)),
        ),
        h("p", { class: "muted" }, "Forget these separately if they are about the same thing."),
      );
    }
    if (count) {
      parts.push(
        h(
          "div",
          { class: "buttons" },
          h("button", { type: "button", onclick: () => preview.replaceChildren() }, "Cancel"),
          action(
            `Forget ${plural(count, "item")} for good`,
            async () => {
              const done = await post("/v1/memory/forget", { subject, concept: asked });
              const verified = done.verified_forgotten
                ? "Verified: nothing left holds it."
                : `Not verified: ${done.leaks && done.leaks.length ? `still held by ${done.leaks.join(" | ")}` : "see the subject's lines"}.`;
              notify(
                `Forgot “${asked}”: removed ${counted(done.removed_lines.length, done.removed_rules.length)}. ${verified}`,
                done.verified_forgotten ? "ok" : "error",
              );
              reload();
            },
            { class: "danger", id: "forget-confirm" },
          ),
        ),
      );
    }
    return parts;
  }

  return section(
    "Forget",
    h(
      "form",
      { class: "stack", onsubmit: showPreview },
      field("What to forget", concept, "Every line and rule holding all its words goes. You see them before anything is removed."),
      error,
      h("button", { type: "submit" }, "Preview what would go"),
    ),
    preview,
  );
}

// "2 lines", "1 rule", "2 lines and 1 rule": what a forget takes, naming only what it has.
function counted(lines, rules) {
  const parts = [];
  if (lines || !rules) parts.push(plural(lines, "line"));
  if (rules) parts.push(plural(rules, "rule"));
  return parts.join(" and ");
}

function linesPanel(memory) {
  const lines = memory.lines || [];
  const retired = memory.retired_lines || [];
  const list = h("ol", { class: "lines" }, lines.map((line) => h("li", {}, line)));
  // A long memory gets a filter: the lines holding what is typed stay, in their order.
  const filter = h("input", { type: "search", placeholder: "refund", autocomplete: "off" });
  const count = h("small", { class: "hint", "aria-live": "polite" });
  filter.addEventListener("input", () => {
    const needle = filter.value.trim().toLowerCase();
    let shown = 0;
    for (const item of list.children) {
      item.hidden = Boolean(needle) && !item.textContent.toLowerCase().includes(needle);
      if (!item.hidden) shown += 1;
    }
    count.textContent = needle ? `${shown} of ${lines.length} lines hold “${filter.value.trim()}”` : "";
  });
  return section(
    "Lines",
    lines.length > 12 ? h("div", { class: "line-filter" }, field("Find in lines", filter), count) : null,
    lines.length ? list : empty("No line: this subject holds only rules or aliases."),
    retired.length
      ? h(
          "details",
          {},
          h("summary", {}, `${plural(retired.length, "retired learned line")} (kept, never recalled)`),
          h(
            "ul",
            { class: "lines retired" },
            retired.map((line) => h("li", {}, line.text, " ", h("small", { class: "muted" }, `retired ${when(line.retired_at)}`))),
          ),
        )
      : null,
  );
}

function ruleKind(rule) {
  if (rule.when) return `when ${rule.when.path} ${rule.when.op} ${rule.when.value}`;
  if (rule.exclude) return `excludes ${rule.exclude.options.join(", ")}${rule.exclude.question ? ` in ${rule.exclude.question}` : ""}`;
  return "text";
}

function rulesPanel(subject, memory, reload) {
  const rules = memory.rules || [];
  return section(
    "Rules",
    rules.length
      ? table(
          [
            ["Rule", (rule) => rule.text],
            ["Acts", (rule) => h("span", {}, rule.pin ? badge("pinned", "info") : null, " ", ruleKind(rule))],
            [
              "",
              (rule) =>
                action(
                  "Delete",
                  async () => {
                    const sure = await confirmDialog({
                      title: "Delete this rule?",
                      body: [h("q", {}, rule.text)],
                      confirm: "Delete rule",
                    });
                    if (!sure) return;
                    await post("/v1/memory/rules/delete", { subject, ids: [rule.id] });
                    notify("Rule deleted.");
                    reload();
                  },
                  { class: "small danger-text", "aria-label": `Delete rule ${rule.id}` },
                ),
              "actions",
            ],
          ],
          rules,
        )
      : empty("No rule. Rules act in code: pinned text, exclusions and number conditions (POST /v1/memory/rules)."),
  );
}

function aliasesPanel(subject, memory, reload) {
  const aliases = memory.aliases || [];
  const input = h("input", { name: "alias", placeholder: "ACME Logistics", autocomplete: "off" });
  return section(
    "Aliases",
    h("p", { class: "muted" }, "Other names recall searches for."),
    aliases.length
      ? h(
          "ul",
          { class: "chips" },
          aliases.map((alias) =>
            h(
              "li",
              {},
              alias,
              action(
                "×",
                async () => {
                  await post("/v1/memory/aliases/delete", { subject, aliases: [alias] });
                  notify(`Alias “${alias}” removed.`);
                  reload();
                },
                { class: "chip-remove", "aria-label": `Remove alias ${alias}` },
              ),
            ),
          ),
        )
      : empty("No alias."),
    h(
      "form",
      {
        class: "inline-form",
        onsubmit: async (event) => {
          event.preventDefault();
          const alias = input.value.trim();
          if (!alias) return;
          try {
            await post("/v1/memory/aliases", { subject, aliases: [alias] });
            notify(`Alias “${alias}” added.`);
            reload();
          } catch (failure) {
            notify(messageOf(failure), "error");
          }
        },
      },
      field("Add an alias", input),
      h("button", { type: "submit" }, "Add"),
    ),
  );
}
