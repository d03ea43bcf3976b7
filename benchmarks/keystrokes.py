"""Search as you type, in Chromium: from the last key of a query to its results on screen.

A person types a query into the search page's box key by key, with the gaps of a quick
typist (90-180 ms, never long enough for the page's debounce to fire mid-word). The clock
starts at the last key's input event and stops at the first animation frame after the
results for the whole query are swapped in (the frame after that is drawn), both read in
the page (performance.now), so Playwright's own round trips are not in the figure. The
debounce, the request, the server, the swap and the layout are all in it. The count line,
fetched after the results, is timed the same way beside it.

Needs the web and test extras (Playwright) and the system's Chromium (/usr/bin/chromium, or
CARDBASE_CHROMIUM); without them the row says so.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path

from harness import Context, Row, has
from web import _p95, _server

CHROMIUM = os.environ.get("CARDBASE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
TYPED = ("dragon", "storm", "chug*", "t:creature s:chaos", "wizard", "gem:rr", "forest")
GAPS_MS = (90, 180)

# Installed before the last key: resolves with the ms from that key's input event to the
# frame after the results (and, later, the count) for the box's final text are in the page.
WATCH = """(final) => { window.cardbaseTyped = new Promise((done) => {
  const box = document.querySelector('#q');
  let keyAt = null, shownAt = null;
  box.addEventListener('input', (e) => { keyAt = e.timeStamp; }, {once: true});
  const asked = (e) => {
    const url = e.detail.xhr && e.detail.xhr.responseURL;
    return url && new URL(url).searchParams.get('q') === final;
  };
  const later = (then) => requestAnimationFrame(() => requestAnimationFrame(then));
  document.body.addEventListener('htmx:afterSettle', function settled(e) {
    if (!asked(e)) return;
    const path = new URL(e.detail.xhr.responseURL).pathname;
    if (shownAt === null && !path.endsWith('/count')) {
      later(() => {
        shownAt = performance.now() - keyAt;
        if (!document.querySelector('#count[hx-get]')) { done([shownAt, shownAt]); }
      });
    } else if (path.endsWith('/count')) {
      later(() => {
        document.body.removeEventListener('htmx:afterSettle', settled);
        done([shownAt, performance.now() - keyAt]);
      });
    }
  });
}); }"""


# The watch, given up after WAIT_MS: a search whose results never come must fail the
# row, not hang the run.
WAIT_MS = 20_000
WAITED = f"""() => Promise.race([window.cardbaseTyped,
  new Promise((done) => setTimeout(() => done("timeout"), {WAIT_MS}))])"""


def _type_once(page: object, text: str, gaps: random.Random) -> tuple[float, float] | None:
    """Ms from the last key to its results and to its count line; None if they never came."""
    page.goto("/search")  # type: ignore[attr-defined]
    box = page.locator("#q")  # type: ignore[attr-defined]
    box.click()
    for key in text[:-1]:
        page.keyboard.type(key)  # type: ignore[attr-defined]
        page.wait_for_timeout(gaps.randint(*GAPS_MS))  # type: ignore[attr-defined]
    page.evaluate(WATCH, text)  # type: ignore[attr-defined]
    page.keyboard.type(text[-1])  # type: ignore[attr-defined]
    found = page.evaluate(WAITED)  # type: ignore[attr-defined]
    if found == "timeout":
        return None
    shown, counted = found
    return float(shown), float(counted)


def bench_keystrokes(ctx: Context) -> Iterator[Row]:
    if not (has("fastapi") and has("playwright")):
        yield Row("search as you type", "skipped", 0.0, "pip install -e '.[web,test]'")
        return
    if not Path(CHROMIUM).exists():
        yield Row("search as you type", "skipped", 0.0, f"no Chromium at {CHROMIUM}")
        return
    from playwright.sync_api import sync_playwright

    child, url = _server(ctx.database("large"))
    gaps = random.Random(29)
    shown: list[float] = []
    counted: list[float] = []
    lost: list[str] = []  # typings whose results or count never came
    answers: list[str] = []  # what the server said to the last typing, for a lost one
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=url)
            tab = page.new_page()
            tab.set_default_timeout(30_000)
            tab.on("response", lambda r: answers.append(f"{r.status} {r.url.split('/', 3)[3]}"))
            for text in TYPED:  # warm: the first of each opens the database's pages
                _type_once(tab, text, gaps)
            for _ in range(max(2, ctx.reps)):
                for text in TYPED:
                    answers.clear()
                    found = _type_once(tab, text, gaps)
                    if found is None:
                        lost.append(f"{text!r} ({'; '.join(answers[-4:])})")
                        continue
                    shown.append(found[0])
                    counted.append(found[1])
            browser.close()
    finally:
        child.terminate()
        child.wait(timeout=30)
    detail = (
        f"{len(shown)} queries typed, keys {GAPS_MS[0]}-{GAPS_MS[1]} ms apart, {ctx.size} cards"
    )
    if lost:
        detail += f"; {len(lost)} never showed results or count in {WAIT_MS} ms: {lost[0]}"
    if not shown:
        yield Row("search as you type", "failed", 0.0, detail)
        return
    yield Row("search as you type", "last key to results, median", statistics.median(shown) / 1000,
              detail)  # fmt: skip
    yield Row("search as you type", "last key to results, p95", _p95(shown) / 1000,
              "debounce included", target="<= 150 ms")  # fmt: skip
    yield Row("search as you type", "last key to the count line, p95", _p95(counted) / 1000,
              "fetched after the results")  # fmt: skip
