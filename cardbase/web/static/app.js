// cardbase pages: keyboard use of the Deck Builder, deck copies for save and download,
// confirmations. Everything works without this file; it only makes keys and clicks shorter.
"use strict";

document.addEventListener("keydown", (event) => {
  const target = event.target;
  const typing = target.matches("input, textarea, select");
  if (event.key === "/" && !typing) {
    const box = document.querySelector("#deck-q, #q");
    if (box) { event.preventDefault(); box.focus(); box.select(); }
    return;
  }
  const row = target.closest ? target.closest("tr[data-keys]") : null;
  if (!row || typing) return;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    const rows = Array.from(document.querySelectorAll(`tr[data-keys="${row.dataset.keys}"]`));
    const next = rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)];
    if (next) { event.preventDefault(); next.focus(); }
    return;
  }
  if (target !== row) return;  // on a button or a link, Enter does what it says
  const key = event.key === "Enter" ? "+" : event.key;
  const button = row.querySelector(`button[data-key="${key}"]`);
  if (button) { event.preventDefault(); button.click(); }
});

// Save and download send the deck list as it is in the box now.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches("[data-deck-copy]")) return;
  const text = document.getElementById("deck-text");
  const deckForm = document.getElementById("deck-form");
  if (text) form.elements.deck.value = text.value;
  if (deckForm && form.elements.format) form.elements.format.value = deckForm.elements.format.value;
  for (const input of form.querySelectorAll("[data-copy-of]")) {
    const source = document.getElementById(input.dataset.copyOf);
    if (source && (!input.value || input.type === "hidden")) input.value = source.value;
  }
}, true);

document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("[data-confirm]") : null;
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
}, true);

// The error page's Back link: where the browser came from, when it came from somewhere
// (the link itself goes to the search page). A script file, not a javascript: link, which
// the Content-Security-Policy forbids.
document.addEventListener("click", (event) => {
  const link = event.target.closest ? event.target.closest("a[data-back]") : null;
  if (link && window.history.length > 1) { event.preventDefault(); window.history.back(); }
});

// A search's address holds what was asked, not every empty box of the form: the fields left
// blank are not sent (the server reads a missing field as blank, so nothing else changes).
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.verb !== "get") return;
  const parameters = event.detail.parameters;
  for (const [name, value] of Array.from(parameters.entries ? parameters.entries() : Object.entries(parameters))) {
    if (value === "") parameters.delete ? parameters.delete(name) : delete parameters[name];
  }
});
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.method !== "get" || event.defaultPrevented) return;
  for (const field of form.elements) {
    if (field.name && field.value === "" && !field.disabled) {
      field.disabled = true;  // left out of the address; enabled again right after
      setTimeout(() => { field.disabled = false; });
    }
  }
});

// One live region, #status (base.html): after a swap it says the lines the new content marks
// with data-status (the count of cards found, the deck's verdict, an error, a message), once
// each. The tables around them are not live: a screen reader would read every row again at
// each keystroke. A page loaded whole is read from its top, so its lines are not repeated.
const announced = new WeakSet();
function markAnnounced() {
  for (const line of document.querySelectorAll("[data-status]")) announced.add(line);
}
document.addEventListener("DOMContentLoaded", markAnnounced);
document.addEventListener("htmx:afterSettle", () => {
  const status = document.getElementById("status");
  if (!status) return;
  const fresh = Array.from(document.querySelectorAll("[data-status]")).filter((line) => !announced.has(line));
  markAnnounced();
  const text = fresh.map((line) => line.textContent.replace(/\s+/g, " ").trim()).filter(Boolean).join(". ");
  if (!text) return;
  status.textContent = "";  // the same words again (the same count) are said again
  setTimeout(() => { status.textContent = text; }, 50);
});

