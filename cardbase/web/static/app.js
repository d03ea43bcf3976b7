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

// On a phone the collection's stats start folded, so its first cards are on the first screen
// (they stay open without this file, and on a wide screen).
for (const details of document.querySelectorAll("details[data-open-wide]")) {
  if (window.matchMedia("(max-width: 760px)").matches) details.open = false;
}

// Deck Builder: a question's Cancel clears it and gives the focus back to Save; a question
// that arrives takes the focus on its first answer (data-autofocus); a control that a swap
// removed (the last copy's −, Replace once saved) hands the focus on, never to the page.
document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("[data-dismiss]") : null;
  if (!button) return;
  event.preventDefault();
  const region = document.getElementById(button.dataset.dismiss);
  if (region) region.replaceChildren();
  const save = document.getElementById("deck-save");
  if (save) save.focus();
});
document.addEventListener("keydown", (event) => {  // Enter in Name saves, not checks
  if (event.key !== "Enter" || event.target.id !== "deck-name") return;
  const save = document.getElementById("deck-save");
  if (save) { event.preventDefault(); save.click(); }
});
document.addEventListener("htmx:afterSettle", (event) => {
  const asked = event.detail.target && event.detail.target.querySelector
    ? event.detail.target.querySelector("[data-autofocus]") : null;
  if (asked) { asked.focus(); return; }
  const fallback = { "deck-said": "deck-save", "deck-report": "deck-text" }[(event.detail.target || {}).id];
  if (!fallback || (document.activeElement && document.activeElement !== document.body)) return;
  const next = document.getElementById(fallback);
  if (next) next.focus({ preventScroll: true });
});

// A part that names where its errors go (data-errors-in: the deck's report, into the line
// under Save) keeps its place when a change fails: the error is said there, so the next
// change still finds the part to swap. The next answer that succeeds clears that error.
document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  const name = target && target.dataset ? target.dataset.errorsIn : "";
  const place = name ? document.getElementById(name) : null;
  if (!place) return;
  if (event.detail.xhr.status >= 400) {
    event.detail.target = place;
    event.detail.swapOverride = "innerHTML";
  } else if (place.querySelector(".error")) {
    place.replaceChildren();
  }
});
