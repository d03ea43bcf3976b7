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
// A button that a swap has just put in place is taken in by htmx only when the swap settles
// (at the next turn of the event loop: base.html sets no settle delay); a click before that
// submits its form plainly, and htmx would send the form without the button's name and
// value (the deck's "One less" would only check the deck).
document.addEventListener("htmx:configRequest", (event) => {
  const submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
  if (!submitter || !submitter.name || event.detail.parameters[submitter.name] !== undefined) return;
  event.detail.parameters[submitter.name] = submitter.value;
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

// The focus stays where the person was when a swap replaces what had it: htmx itself keeps
// an element with an id; this finds the control again by its name (the deck's "One less
// Pixie Dewdancer"), else goes to the control its data-focus-after names (the + beside a −
// that went away with the last copy), else to the row that took a removed row's place, else
// to the swapped region, never back to the top of the page.
let focusBefore = null;
document.addEventListener("htmx:beforeSwap", () => {
  const active = document.activeElement;
  if (!active || active === document.body) { focusBefore = null; return; }
  const row = active.closest("tr[data-keys]");
  const rows = row ? Array.from(document.querySelectorAll(`tr[data-keys="${row.dataset.keys}"]`)) : [];
  const region = active.closest("section[id], [data-focus-region]");
  focusBefore = {
    id: active.id, label: active.getAttribute("aria-label"), after: active.dataset.focusAfter,
    rowKeys: row && row.dataset.keys, rowIndex: rows.indexOf(row), region: region && region.id,
  };
});
document.addEventListener("htmx:afterSettle", () => {
  const before = focusBefore;
  focusBefore = null;
  if (!before) return;
  // htmx puts the focus back on the element with the same id, but an id such as less-1 is a
  // line's: after a removal it is the next card's button, which a second Enter would take.
  const active = document.activeElement;
  const relabelled = (element) => element && before.id && before.label && element.id === before.id &&
    element.getAttribute("aria-label") !== before.label;  // no id: nothing htmx would restore
  if (active && active !== document.body && !relabelled(active)) return;
  const byLabel = before.label &&
    document.querySelector(`${before.region ? `#${CSS.escape(before.region)} ` : ""}[aria-label="${CSS.escape(before.label)}"]`);
  let rowNow = null;
  if (before.rowKeys) {
    const rows = document.querySelectorAll(`tr[data-keys="${before.rowKeys}"]`);
    rowNow = rows[Math.min(before.rowIndex, rows.length - 1)] || null;
  }
  const sameId = before.id && document.getElementById(before.id);
  const target = (sameId && !relabelled(sameId) ? sameId : null) || byLabel ||
    (before.after && document.getElementById(before.after)) || rowNow ||
    (before.region && document.getElementById(before.region));
  if (!target) return;
  if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus();
});

// ---- Search as you type (issue #29, the search gallery's work) ----
// A search sent because the typing paused, not by Enter or the button, says so: the server
// answers a query that is only unfinished so far (`cost>`, a quote not yet closed) with 204,
// and htmx (base.html's config) leaves the last results in place instead of an error.
// Every search and count also names this tab (an id per page load), so that a new search
// stops the server's work on the tab's older ones (cardbase/web/superseded.py).
const TAB = Math.random().toString(36).slice(2, 14);
document.addEventListener("htmx:configRequest", (event) => {
  const cause = event.detail.triggeringEvent;
  if (event.detail.verb !== "get") return;
  event.detail.headers["X-Cardbase-Tab"] = TAB;
  if (cause && cause.type === "input") {
    event.detail.headers["X-Cardbase-Typing"] = "1";
  }
});
