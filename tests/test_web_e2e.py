"""`cardbase serve` in a real Chromium (Debian's, driven by Playwright through its path; a
downloaded browser cannot work here): a person's afternoon, click by click.

Skipped when no Chromium is installed, unless CARDBASE_REQUIRE_BROWSER=1 (as `.ci/run`
sets), which makes a missing browser a failure. CARDBASE_SCREENSHOTS=DIR keeps the pages'
screenshots there (those of the docs pages and the README are made so: docs/screenshots).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase.library import Library
from tests.conftest import MINI_CATALOGUE, ROOT, Run, subprocess_env

pytestmark = [pytest.mark.slow, pytest.mark.e2e]
CHROMIUM = os.environ.get("CARDBASE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
LEGAL = ["Pixie Dewdancer", "Chugawug Elder", "Mistfen Bog", "Sudden Growth", "Robgoblin Scrapper",
         "Undead Drummer", "Robgoblin Sneak", "Smoldering Scrapheap", "Dirty Trick", "Clockwork Sentry",
         "Clockwork Dragonfly", "Steam Forge", "Overclock", "Ninja Blade Adept"]  # fmt: skip


def _browser_or_skip() -> str:
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"no Chromium at {CHROMIUM}: apt-get install chromium"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "Playwright is not installed: pip install '.[test]'"
    if missing and os.environ.get("CARDBASE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CARDBASE_REQUIRE_BROWSER=1 but {missing}")
    if missing:
        pytest.skip(missing)
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
    return CHROMIUM


E2E_PIN = "4817"  # the organiser's, for the event pages


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`cardbase serve` on a fresh database, as a user starts it; Ctrl-C stops it cleanly."""
    _browser_or_skip()
    from cardbase.db import schema

    path = tmp_path_factory.mktemp("e2e") / "e2e.db"
    schema.prepare(path, Library(path), MINI_CATALOGUE)
    run = Run(path)
    run("collectors", "add", "Bo")
    run("add", "1 C 14 x5", "1 R 20 x4", "--collector", "Bo")
    run("add", "1 U 42 x5")
    child = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "--db", str(path), "serve", "--pin", E2E_PIN],
        cwd=ROOT, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    first = child.stdout.readline()
    found = re.search(r"at (http://127\.0\.0\.1:\d+/)", first)
    assert found, first + child.stderr.read() if child.stderr else first
    yield found.group(1), path
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err


@pytest.fixture(scope="module")
def page(server: tuple[str, Path]) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=_browser_or_skip())
        context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server[0])
        context.set_default_timeout(15_000)
        yield context.new_page()
        browser.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("CARDBASE_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


def test_search_with_a_filter_open_a_card_and_add_a_copy(page, shots: Path) -> None:
    from playwright.sync_api import expect

    page.goto("/search")
    page.fill("#q", "chug*")
    page.click("summary")
    page.select_option("select[name=sphere]", "nature")
    expect(page.locator("#results")).to_contain_text("4 cards")  # three Chugawugs and their bog
    expect(page).to_have_url(re.compile(r"q=chug.*sphere=nature"))
    assert re.search(r"[?&][a-z]+=(&|$)", page.url) is None, page.url  # no empty fields
    page.fill("input[name=cost]", "1..9")  # a filter box applies as it is typed, not on Tab
    expect(page).to_have_url(re.compile(r"cost=1\.\.9"))
    page.fill("input[name=cost]", "")
    expect(page).not_to_have_url(re.compile("cost="))
    page.screenshot(path=str(shots / "search.png"), full_page=True)
    page.fill("#q", "sphere:chaoss")
    expect(page.locator("#results .error")).to_contain_text(
        "Did you mean chaos?\n  sphere:chaoss\n         ^^^^^^"
    )
    page.fill("#q", "chug*")
    page.get_by_role("link", name="Chugawug Elder").click()
    expect(page.locator("h1")).to_contain_text("Chugawug Elder")
    history = page.evaluate("history.length")
    page.get_by_role("button", name="Add a non-foil copy").click()
    expect(page.locator(".flash")).to_have_text("Chugawug Elder (1 U 15) non-foil: 0 -> 1")
    expect(page.locator("#owned-nonfoil")).to_have_text("1")
    expect(page.locator("#add-nonfoil")).to_be_focused()  # press + again from the keyboard
    page.keyboard.press("Enter")
    expect(page.locator("#owned-nonfoil")).to_have_text("2")
    assert page.evaluate("history.length") == history  # no Back step per copy
    page.screenshot(path=str(shots / "card.png"), full_page=True)


def test_next_shows_the_top_of_the_next_page(page) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 500})
    page.goto("/search?size=10")
    page.get_by_role("link", name="Next →").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0
    page.get_by_role("link", name="Next →").click()
    expect(page.locator("#count")).to_contain_text("page 2 of")
    page.wait_for_function("window.scrollY <= document.querySelector('#results').offsetTop")
    assert "size=10" in page.url and "page=2" in page.url


def test_gallery_and_back_keep_the_query_and_the_url(page, shots: Path) -> None:
    """The Table/Gallery switch swaps the results and keeps the search; typing goes on in the
    gallery; an unfinished query being typed leaves the cards in place, Enter says why."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/search")
    page.fill("#q", "chug*")
    expect(page.locator("#count")).to_have_text("4 cards")
    page.get_by_role("link", name="Gallery").click()
    tiles = page.locator("ul.gallery li.tile")
    expect(tiles).to_have_count(4)
    expect(page).to_have_url(re.compile(r"q=chug.*view=gallery"))
    expect(page.locator("#q")).to_have_value("chug*")
    page.screenshot(path=str(shots / "search-gallery.png"), full_page=True)
    page.fill("#q", "chug* s:nature")  # typing on stays in the gallery
    expect(page).to_have_url(re.compile(r"s%3Anature.*view=gallery"))
    expect(tiles).to_have_count(4)
    page.fill("#q", "chug* s:nature cost>")  # unfinished: no error flashes, the cards stay
    page.wait_for_timeout(1_000)
    expect(page.locator("#results .error")).to_have_count(0)
    expect(tiles).to_have_count(4)
    page.press("#q", "Enter")  # asked for: the error, in the page
    expect(page.locator("#results .error")).to_contain_text("expected a value after 'cost>'")
    page.fill("#q", "chug*")
    expect(tiles).to_have_count(4)
    page.get_by_role("link", name="Table").click()
    expect(page.locator("table.cards tbody tr")).to_have_count(4)
    expect(page.locator("#q")).to_have_value("chug*")
    assert "q=chug" in page.url and "view=" not in page.url, page.url
    # No copy of a search page is kept in sessionStorage (each one cost search as you type
    # a serialised page): Back asks the server for the gallery, its address holding it all.
    assert page.evaluate("sessionStorage.getItem('htmx-history-cache')") is None
    page.go_back()  # the gallery was a page of its own in the history
    expect(tiles).to_have_count(4)
    expect(page.locator("#q")).to_have_value("chug*")
    tiles.first.click()  # a tile opens its card
    expect(page.locator("h1")).to_contain_text("Chugawug")


def _deck(page) -> str:
    return page.input_value("#deck-text")


def test_build_a_deck_to_legality_save_reload_and_find_it(page, shots: Path) -> None:
    from playwright.sync_api import expect

    page.goto("/deck")
    verdict = page.locator("#verdict")
    row = page.locator("tr[data-keys=results]", has_text="Pixie Dewdancer")
    for _ in range(4):  # one too many, by click
        row.get_by_role("button").click()
    expect(verdict).to_contain_text("✘ invalid: 4 cards")
    problems = page.locator(".problems")
    expect(problems).to_contain_text("too-many-copies: Pixie Dewdancer x4")
    expect(problems).to_contain_text("the minimum is 40 (add 36)")
    page.get_by_role("button", name="One less Pixie Dewdancer").click()
    expect(problems).not_to_contain_text("too-many-copies")
    for name in LEGAL[1:]:  # the rest by keyboard: a row focused, + three times
        line = page.locator("tr[data-keys=results]", has_text=name).first
        for _ in range(3):
            before = _deck(page)
            line.focus()
            page.keyboard.press("+")
            page.wait_for_function(
                "b => document.querySelector('#deck-text').value !== b", arg=before
            )
    expect(verdict).to_contain_text("✔ valid: 42 cards, Free Realms Constructed")
    expect(page.locator(".problems")).to_have_count(0)
    expect(page.locator(".curve svg")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")  # the sticky bar at its place, over no card
    page.screenshot(path=str(shots / "deck-builder.png"), full_page=True)
    page.fill("#deck-name", "Bog Stew")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Saved 'Bog Stew': 42 cards")
    page.press("#deck-name", "Enter")  # again, from the Name field: the name is taken
    expect(page.locator(".question")).to_contain_text("A deck named 'Bog Stew' exists. Replace it?")
    expect(page.get_by_role("button", name="Replace 'Bog Stew'")).to_be_focused()
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator(".question")).to_have_count(0)
    expect(page.get_by_role("button", name="Save", exact=True)).to_be_focused()
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_role("button", name="Replace 'Bog Stew'").click()
    expect(page.locator(".flash")).to_contain_text("Saved 'Bog Stew': 42 cards")
    expect(page.locator("h1")).to_have_text("Deck Builder")  # the page, not a bare line
    page.reload()
    page.get_by_role("link", name="Bog Stew").click()
    expect(page.locator("#deck-text")).to_have_value(re.compile(r"3 Pixie Dewdancer"))
    expect(verdict).to_contain_text("✔ valid: 42 cards")


def test_a_deck_in_progress_is_there_again_after_a_card_page_and_back(page) -> None:
    """Search pages keep no copy in htmx's history (their address holds the search); the
    Deck Builder's unsaved deck does, so Back from a card's page finds it as it was."""
    from playwright.sync_api import expect

    page.goto("/deck")
    row = page.locator("tr[data-keys=results]", has_text="Pixie Dewdancer")
    for _ in range(2):
        row.get_by_role("button").click()
        expect(page.locator("#deck-toast")).to_contain_text("Pixie Dewdancer:")
    expect(page.locator("#verdict")).to_contain_text("2 cards")
    page.locator("#deck-report").get_by_role("link", name="Pixie Dewdancer").click()
    expect(page.locator("h1")).to_contain_text("Pixie Dewdancer")
    page.go_back()
    expect(page.locator("#deck-text")).to_have_value(re.compile(r"2 Pixie Dewdancer"))
    expect(page.locator("#verdict")).to_contain_text("2 cards")


def test_typing_after_add_still_checks_and_each_add_is_told(page) -> None:
    """The trigger on the deck list survives the box being swapped by an Add; each Add says
    what it did in the bar, and the focus stays on the button clicked."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/deck")
    add = page.get_by_role("button", name="Add Pixie Dewdancer to the deck")
    add.click()
    toast = page.locator("#deck-toast .toast")
    expect(toast).to_have_text("Added Pixie Dewdancer: 1 in the deck")
    expect(add).to_be_focused()
    add.click()
    expect(toast).to_have_text("Added Pixie Dewdancer: 2 in the deck")
    expect(page.locator("#deck-summary")).to_contain_text("2 cards, invalid in")
    page.locator("#deck-text").press("End")
    page.locator("#deck-text").type("\n3 Chugawug Elder")
    expect(page.locator("#verdict")).to_contain_text("✘ invalid: 5 cards")
    expect(page.locator("#deck-summary")).to_contain_text("5 cards")
    expect(page.locator("#deck-text")).to_be_focused()
    page.get_by_role("button", name="One more Chugawug Elder").click()
    expect(page.locator("#verdict")).to_contain_text("6 cards")
    expect(page.get_by_role("button", name="One more Chugawug Elder")).to_be_focused()
    expect(page.locator("tr.group th")).to_have_text(["Creature 6"])
    kept = _deck(page)
    page.eval_on_selector(  # a paste past the limit: said under Save, not instead of the report
        "#deck-text",
        "box => { box.value = 'x'.repeat(1000001); box.dispatchEvent(new Event('input', "
        "{bubbles: true})) }",
    )
    expect(page.locator("#deck-said .error")).to_contain_text("over 1,000,000 bytes")
    expect(page.locator("#deck-report")).to_have_count(1)
    page.fill("#deck-text", kept)
    expect(page.locator("#verdict")).to_contain_text("6 cards")
    expect(page.locator("#deck-said .error")).to_have_count(0)


def test_the_builder_on_a_phone(page, shots: Path) -> None:
    """390x844: each card's Add in sight beside it, and the count, verdict and toast in sight
    after a tap, with the deck a link away."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/deck")
    add = page.get_by_role("button", name="Add Pixie Dewdancer to the deck")
    add.scroll_into_view_if_needed()
    expect(add).to_be_in_viewport()
    box = add.bounding_box()
    assert box and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    add.click()
    expect(page.locator("#deck-toast .toast")).to_be_in_viewport()
    expect(page.locator("#deck-summary")).to_be_in_viewport()
    expect(page.locator("#deck-summary")).to_contain_text("1 card, invalid")
    page.screenshot(path=str(shots / "deck-builder-phone.png"))
    page.get_by_role("link", name="Deck ↓").click()
    expect(page.locator("#deck-text")).to_be_in_viewport()
    page.set_viewport_size({"width": 1280, "height": 900})


def test_import_a_sheet_with_a_typo_and_see_the_suggestion(
    page, shots: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    sheet = tmp_path / "Collection.csv"
    sheet.write_text("Card Name,Qty\nTemple Bell,2\nChugawug Cok,1\n")  # a card no other test adds
    page.goto("/import")
    page.set_input_files("input[type=file]", str(sheet))
    page.get_by_role("button", name="Show the plan").click()
    expect(page.locator(".problems")).to_contain_text(
        "Collection.csv, row 3: no card named 'Chugawug Cok'. Did you mean Chugawug Cook"
    )
    page.screenshot(path=str(shots / "import.png"), full_page=True)
    page.check("input[name=skip_bad]")
    page.get_by_role("button", name="Apply the import").click()
    expect(page.locator(".plan")).to_contain_text("1 card was added, 0 changed")
    page.get_by_role("button", name="Undo this import").click()
    expect(page.locator(".flash")).to_contain_text("Undid batch")


def test_collection_and_trade_lobby_pages(page, shots: Path) -> None:
    from playwright.sync_api import expect

    page.goto("/collection")
    expect(page.locator(".totals")).to_contain_text("cards owned")
    page.screenshot(path=str(shots / "collection.png"), full_page=True)
    page.goto("/trades?complete_series=1")
    page.get_by_role("link", name="Trades I can do with Bo").click()
    expect(page.locator(".match")).to_contain_text("Proposal")
    page.screenshot(path=str(shots / "trade-lobby.png"), full_page=True)
    _make_the_trade(page)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto("/card/1U15")
    page.screenshot(path=str(shots / "card-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, "the card page scrolls sideways on a phone"


def _make_the_trade(page) -> None:
    """From the match's proposal: check a changed count, make the trade, undo it."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="Make this trade").click()
    expect(page.locator(".trade-preview h2")).to_contain_text("This trade would give")
    first = page.locator("input[name=get_copies]").first
    first.fill("99")
    page.get_by_role("button", name="Check the trade").click()
    expect(page.locator("p.error")).to_contain_text("Bo cannot give 99")
    expect(page.get_by_role("navigation", name="Pages")).to_be_visible()
    page.locator("input[name=get_copies]").first.fill("1")
    page.get_by_role("button", name="Check the trade").click()
    page.get_by_role("button", name="Make this trade").click()
    expect(page.locator(".flash")).to_contain_text("Traded with Bo")
    expect(page.locator("#status")).to_contain_text("Traded with Bo")
    page.get_by_role("button", name="Undo the trade").click()
    expect(page.locator(".flash")).to_contain_text("Undid batch")
