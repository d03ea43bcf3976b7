"""An event's floor in a real Chromium at a phone's size (390x844): a player types their
code, reads their table and standing, sends the result; the organiser signs in with the
PIN, confirms it with one click and publishes the lists; no page scrolls sideways. And the
event page printed by Chromium: a page for each list on the tables' wall, no player code."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.test_web_e2e import E2E_PIN, _browser_or_skip, server

pytestmark = [pytest.mark.slow, pytest.mark.e2e]
__all__ = ["server"]
EVENT = "Floor Cup"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def floor(server: tuple[str, Path]) -> tuple[str, dict[str, str], list[dict]]:  # type: ignore[type-arg]
    import json

    base, path = server
    run = Run(path)
    run("event", "create", EVENT, "--format", "free-realms", "--seed", "3")
    for player in ("Ana", "Bo", "Cy", "Di-Longer Name Than Most Phones Show"):
        run("event", "register", EVENT, player)
    run("event", "pair", EVENT)
    shown = json.loads(run("event", "show", EVENT, "-o", "json").stdout)
    codes = {p["player"]: p["code"] for p in shown["players"]}
    return base, codes, shown["rounds"]


@pytest.fixture
def phone(floor, server) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=_browser_or_skip(),
                                         args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
        context = browser.new_context(viewport=PHONE, base_url=floor[0])
        context.set_default_timeout(15_000)
        yield context.new_page()
        browser.close()


def _fits(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways on a phone: {width}px"


def test_a_round_reported_from_phones_and_confirmed(phone, floor) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    _, codes, rounds = floor
    table = rounds[0]
    page = phone
    page.goto(f"/events/{EVENT}/me")
    _fits(page)
    page.fill("#code", codes[table["first"]].lower())
    page.get_by_role("button", name="Show my table").click()
    expect(page.locator(".my-table")).to_contain_text(f"Table {table['table']}: you play")
    _fits(page)
    page.select_option("#result", "2-1")
    page.get_by_role("button", name="Send the result").click()
    expect(page.locator(".flash")).to_contain_text("Sent 2-1")
    _fits(page)
    page.get_by_role("button", name="Forget my code on this device").click()
    page.fill("#code", codes[table["second"]])
    page.get_by_role("button", name="Show my table").click()
    page.select_option("#result", "1-2")
    page.get_by_role("button", name="Send the result").click()
    expect(page.locator(".flash")).to_contain_text("Sent 1-2")
    page.goto(f"/events/{EVENT}/organiser")
    _fits(page)
    page.fill("#pin", E2E_PIN)
    page.get_by_role("button", name="Sign in").click()
    _fits(page)
    page.get_by_role("button", name="Confirm 2-1 (both agree)").click()
    expect(page.locator(".flash")).to_contain_text(f"Table {table['table']} confirmed")
    page.get_by_role("button", name="Publish lists").click()
    expect(page.get_by_role("button", name="Hide lists")).to_be_visible()
    page.goto(f"/events/{EVENT}")
    _fits(page)
    expect(page.locator("#lists-title")).to_be_visible()


def test_the_event_page_prints_a_page_a_list(phone, floor, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    if shutil.which("pdftotext") is None:
        pytest.skip("needs pdftotext (poppler-utils)")
    _, codes, rounds = floor
    page = phone
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/events/{EVENT}")
    pdf = tmp_path / "wall.pdf"
    page.pdf(path=str(pdf), format="A4")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    pages = [p for p in text.split("\f") if p.strip()]
    heading = re.compile(r"by table|by name|Standings|Deck lists")
    titles = [next(line.strip() for line in p.splitlines() if heading.search(line)) for p in pages]
    assert titles[:3] == ["Round 1 by table", "Round 1 by name", "Standings"], titles
    assert "Skip to content" not in text and "Collection" not in text  # no navigation
    assert not any(code in text for code in codes.values())
    first = rounds[0]
    assert re.search(rf"1\s+{first['first']}\s+{first['second']}", pages[0])
