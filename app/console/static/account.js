// Settings > Delete account: the danger zone. Asking deletes nothing at once: the account is
// suspended (reads, forget and deletes still work) and erased, with a proof, when the grace
// period ends; until then the request can be withdrawn here.

import { action, del, field, h, messageOf, notify, post, section, when } from "./lib.js";

function pendingPanel(deletion, ctx) {
  return [
    h(
      "dl",
      { class: "facts", id: "deletion-status" },
      h("dt", {}, "Requested"),
      h("dd", {}, when(deletion.requested_at)),
      h("dt", {}, "Erased after"),
      h("dd", { id: "deletion-erase-after" }, h("strong", {}, when(deletion.erase_after))),
    ),
    h(
      "p",
      {},
      "Until then this account is suspended: you can still read, forget and delete, and " +
        "nothing else is written. When the time comes, everything the account holds is " +
        "erased and its API keys stop working. Withdraw the request to keep the account.",
    ),
    action(
      "Withdraw deletion request",
      async () => {
        await del("/v1/account/deletion");
        notify("Deletion request withdrawn: the account is kept.");
        ctx.reload();
      },
      { class: "primary", id: "deletion-withdraw" },
    ),
  ];
}

function requestForm(account, ctx) {
  const typed = h("input", {
    name: "confirm",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: account.name,
  });
  const submit = h("button", { type: "submit", class: "danger", disabled: true }, "Delete account");
  const error = h("p", { class: "error", role: "alert", hidden: true });
  typed.addEventListener("input", () => {
    submit.disabled = typed.value.trim() !== account.name && typed.value.trim() !== account.tenant_id;
  });
  return h(
    "form",
    {
      class: "stack",
      id: "deletion-form",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        submit.disabled = true;
        try {
          const deletion = await post("/v1/account/deletion", { confirm: typed.value.trim() });
          notify(`Deletion requested: the account will be erased after ${when(deletion.erase_after)}.`);
          ctx.reload();
        } catch (failure) {
          error.textContent = messageOf(failure);
          error.hidden = false;
          submit.disabled = false;
        }
      },
    },
    h(
      "p",
      {},
      "Deleting the account suspends it at once and erases everything it holds (subjects, " +
        "end-users and their facts, collections, batches) when the grace period ends, with a " +
        "proof of what went. Export your data first if you need it.",
    ),
    field(
      `Type ${account.name} to confirm`,
      typed,
      "The account's name, or its tenant id, exactly as shown above.",
    ),
    error,
    submit,
  );
}

export function deletionPanel(account, ctx) {
  const panel = section(
    "Delete account",
    account.deletion ? pendingPanel(account.deletion, ctx) : requestForm(account, ctx),
  );
  panel.classList.add("danger-zone");
  return panel;
}
