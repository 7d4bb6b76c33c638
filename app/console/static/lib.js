// What every view uses: the JSON API (called with the key kept in sessionStorage, gone when the
// tab closes) and small DOM helpers.

const KEY = "dossier.apiKey";

export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

export function getKey() {
  return sessionStorage.getItem(KEY);
}

export function setKey(key) {
  sessionStorage.setItem(KEY, key);
}

export function clearKey() {
  sessionStorage.removeItem(KEY);
}

// Called when the API answers 401: the console goes back to its sign-in form.
let onUnauthorized = () => {};
export function whenUnauthorized(callback) {
  onUnauthorized = callback;
}

function url(path, query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") params.set(name, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method, path, { json, form, raw, contentType, query, key } = {}) {
  const headers = { Authorization: `Bearer ${key || getKey() || ""}` };
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = form; // the browser sets the multipart boundary
  } else if (raw !== undefined) {
    headers["Content-Type"] = contentType;
    body = raw;
  }
  let response;
  try {
    response = await fetch(url(path, query), { method, headers, body });
  } catch (error) {
    throw new ApiError(0, "network", `The server could not be reached (${error.message}).`);
  }
  if (!response.ok) {
    let error = {};
    try {
      error = (await response.json()).error || {};
    } catch {
      // not JSON: a proxy's page, say
    }
    const message = error.message || `${response.status} ${response.statusText}`;
    if (response.status === 401 && !key) onUnauthorized(message);
    throw new ApiError(response.status, error.code || "http_error", message, error.field);
  }
  return response;
}

export async function api(method, path, options) {
  const response = await send(method, path, options);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export async function apiBlob(path, options) {
  const response = await send("GET", path, options);
  return response.blob();
}

export const get = (path, query, options) => api("GET", path, { ...options, query });
export const post = (path, json) => api("POST", path, { json });
export const put = (path, json) => api("PUT", path, { json });
export const patch = (path, json) => api("PATCH", path, { json });
export const del = (path) => api("DELETE", path);

// DOM helpers. Text always goes in as text nodes, never as HTML: what the API returns (lines,
// facts, titles) cannot inject markup.

export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name in element && typeof value !== "string") element[name] = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replace an element's content, with the same rules as h() for children (arrays, nulls).
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let ids = 0;
export function uid(prefix) {
  ids += 1;
  return `${prefix}-${ids}`;
}

// A labelled form control: the label names the control for screen readers and clicks.
export function field(label, control, hint) {
  control.id = control.id || uid("f");
  const hintId = hint ? uid("hint") : null;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return h(
    "div",
    { class: "field" },
    h("label", { for: control.id }, label),
    control,
    hint ? h("small", { id: hintId, class: "hint" }, hint) : null,
  );
}

// A form that opens a page by an id the user types, checked before it navigates.
export function openByIdForm({ label, name, placeholder, pattern, invalid, route, note }) {
  const input = h("input", {
    name,
    required: true,
    pattern: pattern.source,
    placeholder,
    autocomplete: "off",
    spellcheck: "false",
  });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  return h(
    "form",
    {
      class: "inline-form",
      onsubmit: (event) => {
        event.preventDefault();
        const id = input.value.trim();
        if (!pattern.test(id)) {
          error.textContent = invalid;
          error.hidden = false;
          return;
        }
        route(id);
      },
    },
    field(label, input),
    h("button", { type: "submit", class: "primary" }, "Open"),
    error,
    note ? h("p", { class: "hint form-note" }, note) : null,
  );
}

export function empty(text, action) {
  return h("div", { class: "empty" }, h("p", {}, text), action || null);
}

export function errorBox(error) {
  return h("p", { class: "error", role: "alert" }, messageOf(error));
}

export function messageOf(error) {
  return error && error.message ? error.message : String(error);
}

export function loading(text = "Loading…") {
  return h("p", { class: "loading", role: "status" }, text);
}

export function badge(text, kind) {
  return h("span", { class: `badge badge-${kind || text}` }, text);
}

// A table: columns are [heading, row => cell content, class?].
export function table(columns, rows, caption) {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, columns.map(([title, , cls]) => h("th", { scope: "col", class: cls }, title)))),
      h(
        "tbody",
        {},
        rows.map((row) => h("tr", {}, columns.map(([, cell, cls]) => h("td", { class: cls }, cell(row))))),
      ),
    ),
  );
}

export function section(title, ...children) {
  const id = uid("s");
  return h("section", { class: "panel", "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

export function when(value) {
  if (value === null || value === undefined) return "—";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function money(value) {
  return Number(value).toLocaleString(undefined, { maximumFractionDigits: 6 });
}

export function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many || `${one}s`}`;
}

// Ask a question in a modal dialog; resolves with the value of the button chosen, or "" when it
// was dismissed (Escape). choices: [{value, label, kind}], the safe one first.
export function choose({ title, body, choices }) {
  const dialog = document.getElementById("dialog");
  document.getElementById("dialog-title").textContent = title;
  fill(
    document.getElementById("dialog-body"),
    [].concat(body).map((part) => (part instanceof Node ? part : h("p", {}, part))),
  );
  const buttons = choices.map(({ value, label, kind }) =>
    h("button", { value, class: kind || "", type: "submit" }, label),
  );
  document.getElementById("dialog-buttons").replaceChildren(...buttons);
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        resolve(dialog.returnValue);
        // Read what was ticked in it first (the resolve above runs the caller on), then empty it.
        setTimeout(() => document.getElementById("dialog-body").replaceChildren(), 0);
      },
      { once: true },
    );
    dialog.showModal();
    buttons[0].focus();
  });
}

// Ask before something that cannot be undone. Resolves true when confirmed.
export async function confirmDialog({ title, body, confirm, danger = true }) {
  const answer = await choose({
    title,
    body,
    choices: [
      { value: "cancel", label: "Cancel" },
      { value: "ok", label: confirm, kind: danger ? "danger" : "primary" },
    ],
  });
  return answer === "ok";
}

// The one place for messages about the whole page (saved, removed, or what went wrong).
export function notify(text, kind = "ok") {
  const notice = document.getElementById("notice");
  notify.at = Date.now();
  fill(
    notice,
    h("p", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status" }, text),
  );
  clearTimeout(notify.timer);
  if (kind === "ok") notify.timer = setTimeout(() => notice.replaceChildren(), 6000);
}

export function notifyError(error) {
  notify(messageOf(error), "error");
}

// A button that runs an async action once at a time and reports its failure.
export function action(label, run, attrs = {}) {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run(button);
    } catch (error) {
      notifyError(error);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

// Ask for one line of text (a new name) in the modal dialog. Resolves with what was typed, or
// null when cancelled. Enter confirms, as in any one-field form.
export async function promptDialog({ title, label, value = "", confirm, hint }) {
  const input = h("input", { name: "value", value, autocomplete: "off", spellcheck: "false" });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    document.getElementById("dialog").close("ok");
  });
  const asked = choose({
    title,
    body: [field(label, input, hint)],
    choices: [
      { value: "cancel", label: "Cancel" },
      { value: "ok", label: confirm, kind: "primary" },
    ],
  });
  input.focus();
  input.select();
  return (await asked) === "ok" ? input.value : null;
}
