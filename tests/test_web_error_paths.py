"""Every error a person can meet on `cardbase serve`'s pages, met as they meet it, in a real
Chromium (issue #29): by typing, clicking and uploading, with and without htmx.

Each error must appear inside the page it came from, in web words (no command-line flag, no
`cardbase` command, no server path, no traceback), with the page's navigation and heading
still there and the control that leads on (the box to correct, the upload to try again).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_web_e2e import LEGAL, _browser_or_skip, server

pytestmark = [pytest.mark.slow, pytest.mark.e2e]
__all__ = ["server"]  # the e2e tests' `cardbase serve`, a fixture here too
PAGES = ["Search", "Collection", "Deck Builder", "Import", "Trade Lobby"]
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z]|\bcardbase [a-z]|/tmp/|Traceback|\bstderr\b")


@dataclass(frozen=True)
class ErrorPath:
    """What a person does, the words the page must then say, and what leads on from there."""

    act: Callable[[object, Path], None]
    says: str
    leads_on: str  # a selector: the control to correct or try again with
    where: str = ".error"


def _typed(address: str, box: str, text: str) -> Callable[[object, Path], None]:
    def act(page, _tmp: Path) -> None:
        page.goto(address)
        page.fill(box, text)
        page.press(box, "Enter")

    return act


def _opened(address: str) -> Callable[[object, Path], None]:
    return lambda page, _tmp: page.goto(address)


def _uploaded(
    address: str, name: str, content: bytes, button: str
) -> Callable[[object, Path], None]:
    def act(page, tmp_path: Path) -> None:
        sheet = tmp_path / name
        sheet.write_bytes(content)
        page.goto(address)
        page.set_input_files("form.upload input[type=file]", str(sheet))
        page.get_by_role("button", name=button).click()

    return act


def _card_copies(field: str, value: str) -> Callable[[object, Path], None]:
    def act(page, _tmp: Path) -> None:
        page.goto("/card/1C14")
        form = page.locator("form", has=page.locator("#add-copies"))
        if field == "condition":  # a select offers only good values: a tampered option
            form.locator("select[name=condition]").evaluate(
                "s => { s.options[0].value = 'ok'; s.selectedIndex = 0; }"
            )
        else:
            form.locator(f"input[name={field}]").fill(value)
        page.locator("#add-copies").click()

    return act


def _deck_asked(fields: dict[str, str], button: str) -> Callable[[object, Path], None]:
    def act(page, _tmp: Path) -> None:
        page.goto("/deck")
        page.fill("#deck-text", "".join(f"3 {name}\n" for name in LEGAL))
        for name, value in fields.items():
            page.fill(f"[name={name}]", value)
        page.get_by_role("button", name=button, exact=True).click()

    return act


def _deck_saved_empty(page, _tmp: Path) -> None:
    page.goto("/deck")
    page.fill("#deck-name", "Nothing")
    page.locator("#deck-save").click()


def _deck_typed(page, _tmp: Path) -> None:
    page.goto("/deck")
    page.fill("#deck-text", "3 Chugawug Cok\n")


def _replace_unconfirmed(page, tmp_path: Path) -> None:
    sheet = tmp_path / "Collection.csv"
    sheet.write_text("Card Name,Qty\nChugawug Cook,2\n")
    page.goto("/import")
    page.set_input_files("form.upload input[type=file]", str(sheet))
    page.select_option("select[name=mode]", "replace")
    page.get_by_role("button", name="Show the plan").click()
    apply = page.get_by_role("button", name="Apply the import")
    apply.evaluate("b => b.form.noValidate = true")  # past the browser's own check
    apply.click()


JUNK = b"\x00\x01PK\x03\x04 not a workbook" * 20
PATHS: dict[str, ErrorPath] = {
    "search-query": ErrorPath(_typed("/search", "#q", "sphere:chaoss"), "chaos", "#q"),
    "search-query-typed-paused": ErrorPath(_typed("/search", "#q", "cost>>2"), "cost", "#q"),
    "collection-query": ErrorPath(_typed("/collection", "#q", "colour:purple"), "purple", "#q"),
    "card-unknown": ErrorPath(_opened("/card/9Z999"), "9Z999", "a[href='/search']"),
    "card-language": ErrorPath(
        _card_copies("language", "zz"), "unknown language 'zz'", "#add-copies"
    ),
    "card-condition": ErrorPath(_card_copies("condition", "ok"), "condition 'ok'", "#add-copies"),
    "deck-unknown-card": ErrorPath(_deck_typed, "Chugawug Cok", "#deck-text", ".problems"),
    "deck-save-empty": ErrorPath(_deck_saved_empty, "empty", "#deck-name"),
    "deck-unknown-saved": ErrorPath(
        _opened("/deck?open=No%20Such%20Deck"),
        "No Such Deck'. The Deck Builder lists",
        "#deck-text",
    ),
    "deck-odds-query": ErrorPath(
        _deck_asked({"odds_q": "cost>"}, "Odds"), "expected a value", "[name=odds_q]"
    ),
    "deck-odds-too-many": ErrorPath(
        _deck_asked({"odds_q": '!"Mistfen Bog"', "at_least": "4"}, "Odds"),
        "but the deck has 3",
        "[name=odds_q]",
    ),
    "import-junk": ErrorPath(
        _uploaded("/import", "cards.xlsx", JUNK, "Show the plan"),
        "cards.xlsx",
        "form.upload input[type=file]",
    ),
    "import-no-card-column": ErrorPath(
        _uploaded("/import", "cards.csv", b"colour,size\nred,2\n", "Show the plan"),
        "cards.csv",
        "form.upload input[type=file]",
    ),
    "import-replace-unconfirmed": ErrorPath(_replace_unconfirmed, "replace", "input[name=replace]"),
    "trades-junk": ErrorPath(
        _uploaded("/trades", "notes.csv", b"hello there\n", "Match"),
        "notes.csv",
        "form.upload input[type=file]",
    ),
    "trade-too-many": ErrorPath(
        _opened(
            "/trades/make?with=Bo&give_card=1+U+42+nonfoil&give_copies=1"
            "&get_card=1+C+14+nonfoil&get_copies=99"
        ),
        "Bo",
        "input[name=get_copies]",
    ),
    "no-page": ErrorPath(_opened("/no-such-page"), "no page at this address", "a[href='/search']"),
}


@pytest.fixture(scope="module")
def browser(server: tuple[str, Path]) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=_browser_or_skip())
        yield chromium
        chromium.close()


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser, server: tuple[str, Path]) -> Iterator[object]:
    size = {"desktop": (1280, 900), "phone": (390, 844)}[request.param]
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, base_url=server[0]
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("name", list(PATHS))
def test_an_error_is_said_in_its_page_with_the_way_on(page, name: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path = PATHS[name]
    path.act(page, tmp_path)
    said = page.locator(path.where).first
    expect(said).to_be_visible()
    if path.says:
        expect(said).to_contain_text(path.says)
    words = said.inner_text()
    assert not CLI_WORDS.search(words), f"{name}: command-line words in the page: {words!r}"
    nav = page.get_by_role("navigation", name="Pages")
    for title in PAGES:
        expect(nav.get_by_role("link", name=title, exact=True)).to_be_attached()
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator(path.leads_on).first).to_be_attached()
    status = page.locator("#status")
    expect(status).to_have_count(1)
