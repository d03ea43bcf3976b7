"""Accessibility of `cardbase serve`'s pages (issue #29): axe-core, in a real Chromium, finds
no violation on any page or state, at a desktop's width and a phone's.

axe-core comes from npm: `npm ci --prefix tests/a11y` installs the version its lock file pins
(`.ci/run` does). Without it, or without Chromium, these tests skip saying so, unless
CARDBASE_REQUIRE_BROWSER=1 (as `.ci/run` sets), which makes either missing a failure.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run
from tests.test_web_e2e import E2E_PIN, LEGAL, _browser_or_skip, server

pytestmark = [pytest.mark.slow, pytest.mark.e2e]
AXE = ROOT / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
# WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices (landmarks, headings, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
__all__ = ["server"]  # the e2e tests' `cardbase serve`, a fixture here too


def _axe_or_skip() -> Path:
    if not AXE.exists():
        missing = f"axe-core is not installed at {AXE}: npm ci --prefix tests/a11y"
        if os.environ.get("CARDBASE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CARDBASE_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    return AXE


@pytest.fixture(scope="module")
def site(server: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> str:
    """The e2e server's database, with a legal saved deck, an illegal one, and Bo's trade
    lists, so that every part of every page shows."""
    base, path = server
    run = Run(path)
    folder = tmp_path_factory.mktemp("decks")
    legal = folder / "legal.txt"
    legal.write_text("".join(f"3 {name}\n" for name in LEGAL))
    bad = folder / "bad.txt"
    bad.write_text("4 Pixie Dewdancer\n")
    run("deck", "save", str(legal), "--name", "Bog Stew")
    run("deck", "save", str(bad), "--name", "Pixie Pile")
    run("add", "1 C 14 x2", "--collector", "Bo", "--tags", "trade")
    run("event", "create", "Spring Cup", "--format", "free-realms", "--seed", "7")
    for player in ("Ana", "Bo", "Cy", "Di", "Ed"):
        run("event", "register", "Spring Cup", player)
    run("event", "pair", "Spring Cup")
    run("event", "report", "Spring Cup", "Ana", "2-1")
    _event_reports(path)
    return base


CODES: dict[str, str] = {}  # the players' codes, for the states that type one


def _event_reports(path: Path) -> None:
    """Spring Cup's other table reported by one of its players: a report waiting for the
    organiser, and a player's page with what they sent."""
    from cardbase.library import Library

    library = Library(path)
    state = library.event("Spring Cup")
    CODES.update({p.name: p.code for p in state.players})
    waiting = next(s for s in state.round_seats() if s.second and not s.reported)
    CODES["reporter"] = CODES[waiting.first]
    library.player_report("Spring Cup", CODES["reporter"], "2-0")


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(
            executable_path=_browser_or_skip(),
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        yield chromium
        chromium.close()


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser, site: str) -> Iterator[object]:
    # bypass_csp: the pages' Content-Security-Policy rightly refuses the injected axe script.
    context = browser.new_context(viewport=VIEWPORTS[request.param], base_url=site, bypass_csp=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def _settled(page) -> None:
    """No request in flight and htmx's swaps settled (the count line loads after a page)."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"
    )


def _deck_invalid(page, _tmp: Path) -> None:
    page.goto("/deck")
    page.fill("#deck-text", "4 Pixie Dewdancer\n1 Not A Card\n")
    page.locator("#verdict").filter(has_text="invalid").wait_for()


def _deck_helper(page, _tmp: Path) -> None:
    page.goto("/deck")
    page.select_option(".helper select[name=sphere]", "order")
    page.get_by_role("button", name="Deck Builder Helper").click()
    page.locator("#deck-report .note").first.wait_for()


def _deck_search_typed(page, _tmp: Path) -> None:
    page.goto("/deck?open=Bog%20Stew")
    page.fill("#deck-q", "clock*")
    page.locator("#deck-results .count").filter(has_text="2 cards").wait_for()


def _deck_saved_flash(page, _tmp: Path) -> None:
    page.goto("/deck?open=Pixie%20Pile")
    page.fill("#deck-name", "Pixie Pile")
    page.locator("#deck-save").click()
    replace = page.get_by_role("button", name="Replace 'Pixie Pile'")
    replace.wait_for()  # the deck is there already: the page asks first
    replace.click()
    page.locator(".flash").filter(has_text="Saved 'Pixie Pile'").wait_for()


def _deck_save_error(page, _tmp: Path) -> None:
    page.goto("/deck")
    page.fill("#deck-name", "Nothing")
    page.locator("#deck-save").click()
    page.locator(".error").filter(has_text="empty").wait_for()


def _deck_marked(partial: bool) -> Callable[[object, Path], None]:
    """Mark as built on the illegal deck (whose cards the collector lacks): the shortfall,
    or with "only what is free" what was taken, in the flash line."""

    def visit(page, _tmp: Path) -> None:
        page.goto("/deck?open=Pixie%20Pile")
        form = page.locator("form[action='/deck/sleeve']").filter(
            has=page.get_by_role("button", name="Mark as built: Pixie Pile")
        )
        if partial:
            form.get_by_label("only what is free").check()
        form.get_by_role("button", name="Mark as built: Pixie Pile").click()
        page.locator(".flash").filter(has_text="Pixie Pile").wait_for()

    return visit


def _deck_restored(page, tmp_path: Path) -> None:
    """A second version of the illegal deck (saved again), then its first restored from the
    History list."""
    _deck_saved_flash(page, tmp_path)
    page.goto("/deck?open=Pixie%20Pile")
    page.get_by_role("button", name="Restore version 1").click()
    page.locator(".flash").filter(has_text="Restored 'Pixie Pile' version 1").wait_for()


def _import_applied(page, tmp_path: Path) -> None:
    _import_plan(page, tmp_path)
    page.check("input[name=skip_bad]")
    page.get_by_role("button", name="Apply the import").click()
    page.get_by_role("button", name="Undo this import").wait_for()


def _trade_file(page, tmp_path: Path) -> None:
    sheet = tmp_path / "their-trades.csv"
    sheet.write_text("list,code,name,finish,copies\nOffered,1 U 42,Undead Drummer,nonfoil,1\n")
    page.goto("/trades")
    page.set_input_files("form.upload input[type=file]", str(sheet))
    page.get_by_role("button", name="Match").click()
    page.locator("#match-title, .error").first.wait_for()


# A trade the e2e database allows again and again: one of my Drummers for one of Bo's Cooks.
TRADE = ("/trades/make?with=Bo&give_card=1+U+42+nonfoil&give_copies=1"
         "&get_card=1+C+14+nonfoil&get_copies={}")  # fmt: skip


def _trade_made(page, _tmp: Path) -> None:
    page.goto(TRADE.format(1))
    page.get_by_role("button", name="Make this trade").click()
    page.locator(".flash").filter(has_text="Traded with Bo").wait_for()
    page.get_by_role("button", name="Undo the trade").wait_for()


def _import_plan(page, tmp_path: Path) -> None:
    sheet = tmp_path / "Collection.csv"
    sheet.write_text("Card Name,Qty\nTemple Bell,2\nChugawug Cok,1\n")
    page.goto("/import")
    page.set_input_files("input[type=file]", str(sheet))
    page.get_by_role("button", name="Show the plan").click()
    page.locator(".plan").wait_for()


def _event_me(code: str) -> Callable[[object, Path], None]:
    def visit(page, _tmp: Path) -> None:
        page.goto("/events/Spring%20Cup/me")
        page.fill("#code", code)
        page.get_by_role("button", name="Show my table").click()
        page.locator("h2, .error").first.wait_for()

    return visit


def _event_organiser(page, _tmp: Path) -> None:
    page.goto("/events/Spring%20Cup/organiser")
    page.fill("#pin", E2E_PIN)
    page.get_by_role("button", name="Sign in").click()
    page.locator("#pending-title").wait_for()


def _event_published(page, tmp: Path) -> None:
    _event_organiser(page, tmp)
    button = page.get_by_role("button", name="Publish lists")
    if button.count():
        button.click()
        page.get_by_role("button", name="Hide lists").wait_for()
    page.goto("/events/Spring%20Cup")
    page.locator("#lists-title").wait_for()


def _typed_search(text: str, start: str = "/search") -> Callable[[object, Path], None]:
    def visit(page, _tmp: Path) -> None:
        page.goto(start)
        page.fill("#q", text)
        page.wait_for_function(f"location.search.includes({text[:4]!r})")

    return visit


# Each state: a path to open, or a function that opens it (given the page and a tmp_path).
STATES: dict[str, object] = {
    "search": "/search",
    "search-results-sorted": "/search?q=chug*&sort=cost&desc=1&size=10",
    "search-typed": _typed_search("chug*"),
    "search-query-error": "/search?q=sphere:chaoss",
    "search-no-match": "/search?q=zzzzzz",
    "search-filters-open": "/search?sphere=nature&owned=1",
    "search-gallery": "/search?view=gallery",  # every sphere's frame, Heroes, owned copies
    "search-gallery-typed": _typed_search("chug*", "/search?view=gallery"),
    "search-warning": "/search?q=chug*%20cost:5..2",
    "search-warning-names": "/search?q=chugawg",
    "collection-gallery": "/collection?view=gallery",
    "card-nature-owned": "/card/1C14",
    "card-chaos": "/card/1U42",
    "card-machine": "/card/1E82",
    "card-order": "/card/1U132",
    "card-order-trick": "/card/1R141",
    "card-hero": "/card/1R161",
    "card-hero-type": "/card/1E162",
    "collection": "/collection",
    "collection-query": "/collection?q=chug*",
    "deck-empty": "/deck",
    "deck-legal": "/deck?open=Bog%20Stew",
    "deck-saved-invalid": "/deck?open=Pixie%20Pile",
    "deck-typed-invalid": _deck_invalid,
    "deck-helper": _deck_helper,
    "deck-search-typed": _deck_search_typed,
    "deck-saved-flash": _deck_saved_flash,
    "deck-save-error": _deck_save_error,
    "deck-built-short": _deck_marked(partial=False),
    "deck-built-partial": _deck_marked(partial=True),
    "deck-restored": _deck_restored,
    "import": "/import",
    "import-plan": _import_plan,
    "import-applied": _import_applied,
    "trades": "/trades",
    "trades-with-bo": "/trades?with=Bo&complete_series=1",
    "trades-file": _trade_file,
    "trade-preview": TRADE.format(1),
    "trade-refused": TRADE.format(99),
    "trade-made": _trade_made,
    "collection-of-bo": "/collection?collector=Bo",
    "search-page-2": "/search?size=10&page=2",
    "events": "/events",
    "event-round": "/events/Spring%20Cup",
    "event-me-ask": "/events/Spring%20Cup/me",
    "event-me-wrong-code": _event_me("AAAAAA"),
    "event-me": lambda page, tmp: _event_me(CODES["reporter"])(page, tmp),
    "event-me-confirmed": lambda page, tmp: _event_me(CODES["Ana"])(page, tmp),
    "event-organiser-pin": "/events/Spring%20Cup/organiser",
    "event-organiser": _event_organiser,
    "event-published": _event_published,
    "not-found": "/no-such-page",
    "card-not-found": "/card/9Z999",
    "error-bad-form": "/search?size=abc&page=-1",
}


LIVE = "[aria-live], [role=status], [role=log], [role=alert], output"


def _violations(page) -> list[dict]:
    page.add_script_tag(path=str(_axe_or_skip()))
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    return result["violations"]


def _describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} <{v['helpUrl']}>")
        for node in v["nodes"][:8]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"    {' '.join(map(str, node['target']))}: {summary}")
    return "\n".join(lines)


@pytest.mark.parametrize("state", list(STATES))
def test_no_axe_violations(page, state: str, tmp_path: Path) -> None:
    """and no attribute htmx cannot read (it says so on the console, and ignores the rest)."""
    unread: list[str] = []
    page.on("console", lambda m: unread.append(m.text) if "htmx:syntax" in m.text else None)
    visit = STATES[state]
    if isinstance(visit, str):
        page.goto(visit)
    else:
        visit(page, tmp_path)  # type: ignore[operator]
    _settled(page)
    violations = _violations(page)
    assert not violations, f"{state}, {page.viewport_size}: {page.url}\n" + _describe(violations)
    live = page.eval_on_selector_all(LIVE, "els => els.map(e => e.id || e.outerHTML.slice(0, 80))")
    assert live == ["status"], f"{state}: live regions besides the status line: {live}"
    assert not unread, f"{state}: htmx could not read an attribute: {unread}"


def test_only_the_status_line_is_live(page, site: str) -> None:
    """A screen reader hears what changed, once: the search's count line and the deck's
    verdict, not every row of the tables that are replaced as a person types."""
    for path in ("/search?q=chug*", "/collection", "/deck?open=Bog%20Stew"):
        page.goto(path)
        _settled(page)
        live = page.eval_on_selector_all(
            "[aria-live], [role=status], [role=log], [role=alert]",
            "els => els.map(e => e.id || e.className || e.tagName)",
        )
        assert len(live) <= 1, f"{path}: more than one live region: {live}"
        assert not page.locator("table [aria-live], [aria-live] table").count(), path


def test_the_status_line_says_what_changed(page, site: str) -> None:
    """Typing a search, the status line says the new count (and an error, when the query
    has one); in the Deck Builder, the deck's verdict."""
    from playwright.sync_api import expect

    status = page.locator("#status")
    page.goto("/search")
    page.fill("#q", "chug*")
    expect(status).to_have_text("4 cards")
    page.fill("#q", "sphere:chaoss")
    expect(status).to_contain_text("Did you mean chaos?")
    page.goto("/deck")
    page.fill("#deck-text", "4 Pixie Dewdancer\n")
    expect(status).to_contain_text("invalid: 4 cards")
    gems = page.get_by_role("img", name="Gem colours: green 4, yellow 4")
    expect(gems).to_be_visible()  # Pixie Dewdancer's gems, in words


def _contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two computed colours, `rgb(r, g, b)`."""

    def luminance(colour: str) -> float:
        parts = [int(x) / 255 for x in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted([luminance(one), luminance(other)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_focus_ring_stands_out(page, site: str) -> None:
    """The keyboard's focus ring is 3:1 against what is around it (WCAG 1.4.11), on the
    page and on the dark header; axe does not check it."""
    page.goto("/search")
    for selector, around in (("#q", "body"), ("header.top a.brand", "header.top")):
        page.focus(selector)
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # focused from the keyboard: :focus-visible
        ring = page.eval_on_selector(selector, "e => getComputedStyle(e).outlineColor")
        back = page.eval_on_selector(around, "e => getComputedStyle(e).backgroundColor")
        if back == "rgba(0, 0, 0, 0)":
            back = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert _contrast(ring, back) >= 3, (selector, ring, back)


def test_focus_stays_after_removing_the_last_copy(page, site: str) -> None:
    """The minus button goes away with the last copy; the focus moves to the + beside it, not to
    the top of the page."""
    from playwright.sync_api import expect

    page.goto("/card/1C91")
    add = page.locator("#add-foil")
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#owned-foil")).to_have_text("1")
    page.locator("#remove-foil").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#owned-foil")).to_have_text("0")
    expect(page.locator("#remove-foil")).to_have_count(0)
    expect(add).to_be_focused()


def test_focus_stays_in_the_deck_after_one_less(page, site: str) -> None:
    """One less of a card: the focus stays on its minus while copies are left, and goes to the
    next card's row (or the deck list) when the last is gone."""
    from playwright.sync_api import expect

    page.goto("/deck")
    page.fill("#deck-text", "2 Pixie Dewdancer\n1 Chugawug Elder\n")
    less = page.get_by_role("button", name="One less Pixie Dewdancer")
    less.wait_for()
    less.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#deck-text")).to_have_value("1 Pixie Dewdancer\n1 Chugawug Elder\n")
    expect(less).to_be_focused()
    page.keyboard.press("Enter")
    expect(less).to_have_count(0)
    page.wait_for_function("document.activeElement.closest('#deck-report') !== null")
    expect(page.locator("tr[data-keys=deck]", has_text="Chugawug Elder")).to_be_focused()
