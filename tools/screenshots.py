"""Redraw the docs' screenshots (docs/screenshots/*.png) from the real pages, in Chromium.

    python tools/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Builds a database of its own in a temporary folder (the real catalogue; a small collection
from examples/, a saved deck, a second collector to trade with), starts `cardbase serve` on
it, and photographs each page with Playwright driving Debian's Chromium (as
tests/test_web_e2e.py does; a downloaded browser is never used): desktop pages at 1280x900,
phone pages at 390x844. Needs the web and test extras (`pip install -e '.[test]'`) and
`apt-get install chromium`. Run it again whenever a page changes, and commit the pictures.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
DECK = "Kitchen Brigade"


def environment(home: Path) -> dict[str, str]:
    """A user of this checkout's cardbase with nothing of their own: no CARDBASE_* setting."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDBASE_")}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        NO_COLOR="1",
    )
    return env


def cardbase(db: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardbase", "--db", str(db), *args],
        cwd=EXAMPLES, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"cardbase {' '.join(args)}: {done.stderr.strip()}")


def build_database(db: Path, env: dict[str, str]) -> None:
    """The real catalogue, a collection from examples/ with a few extra copies to trade, a
    saved deck, and Bo, a second collector with cards the first lacks."""
    cardbase(db, env, "import", "my-list.csv")
    cardbase(db, env, "import", "Collection.xlsx")
    cardbase(
        db, env, "add", "Chugawug Sentry x4", "Chugawug Spearman x3", "Lazy Guard x5",
        "Royal Archer x2", "Chef-in-Training x3 foil", "--location", "Binder 2",
    )  # fmt: skip
    cardbase(db, env, "deck", "save", "my-deck.txt", "--name", DECK)
    cardbase(db, env, "collectors", "add", "Bo")
    cardbase(
        db, env, "add", "Brody Sparfist x2", "Rain of Arrows x6", "Royal Mage x5",
        "Courier Eagle Companion x4", "Chugawug Brewmaster x4 foil", "--collector", "Bo",
    )  # fmt: skip


@contextmanager
def served(db: Path, env: dict[str, str]) -> Iterator[str]:
    """`cardbase serve` on a free port; its address; stopped with Ctrl-C at the end."""
    child = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "--db", str(db), "serve"],
        cwd=EXAMPLES, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    first = child.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+/)", first)
    if not found:
        child.kill()
        raise SystemExit(f"cardbase serve did not start: {first}{child.communicate()[1]}")
    try:
        yield found.group(1)
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()


def photograph(base: str, out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import expect, sync_playwright

    made: list[Path] = []

    def shot(page, name: str, full: bool = True) -> None:
        page.wait_for_load_state("networkidle")
        path = out / name
        page.screenshot(path=str(path), full_page=full)
        made.append(path)

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium)
        context = browser.new_context(viewport=DESKTOP, base_url=base)
        context.set_default_timeout(15_000)
        page = context.new_page()

        page.goto("/search?q=chugawug")
        expect(page.locator("#results")).to_contain_text("cards")
        shot(page, "search.png")
        page.goto("/search?q=chugawug&view=gallery")
        shot(page, "search-gallery.png")
        page.goto("/card/1C143")
        shot(page, "card.png")
        page.goto("/collection")
        expect(page.locator(".totals")).to_contain_text("cards owned")
        shot(page, "collection.png")
        page.goto("/deck?open=" + DECK.replace(" ", "+"))
        expect(page.locator("body")).to_contain_text("Brody Sparfist")
        shot(page, "deck-builder.png")
        page.goto("/import")
        sheet = out.parent / ".typo.csv"
        try:
            sheet.write_text("Card Name,Qty\nSoaring Eagle,2\nChugawug Cok,1\n")
            page.set_input_files("input[type=file]", str(sheet))
            page.get_by_role("button", name="Show the plan").click()
            expect(page.locator(".problems")).to_contain_text("Chugawug Cok")
        finally:
            sheet.unlink(missing_ok=True)
        shot(page, "import.png")
        page.goto("/trades?complete_series=1")
        page.get_by_role("link", name="Trades I can do with Bo").click()
        expect(page.locator(".match")).to_contain_text("Proposal")
        shot(page, "trade-lobby.png", full=False)  # its Wanted list runs to 250 rows

        page.set_viewport_size(PHONE)
        page.goto("/card/1C143")
        shot(page, "card-phone.png")
        page.goto("/deck?open=" + DECK.replace(" ", "+"))
        expect(page.locator("body")).to_contain_text("Brody Sparfist")
        shot(page, "deck-builder-phone.png", full=False)
        browser.close()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    found = os.environ.get("CARDBASE_CHROMIUM") or shutil.which("chromium")
    parser.add_argument("--chromium", default=found or "/usr/bin/chromium")
    options = parser.parse_args()
    if not Path(options.chromium).exists():
        raise SystemExit(f"no Chromium at {options.chromium}: apt-get install chromium")
    options.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cardbase-shots-") as folder:
        home = Path(folder)
        env = environment(home)
        db = home / "screenshots.db"
        build_database(db, env)
        with served(db, env) as base:
            made = photograph(base, options.out, options.chromium)
    for path in made:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    print(f"{len(made)} screenshots in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
