"""The event pages: every event, one event's pairings by table and by name and its
standings, each with its JSON twin, what `event list` and `event show` give; deck lists
stay off the pages."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")

from cardbase.library import Library
from tests.web_helpers import Pages, text_of


@pytest.fixture
def pages(db_path: Path, tmp_path: Path) -> Pages:
    from tests.test_events import LEGAL

    library = Library(db_path)
    library.create_event("Spring Open", "free-realms", seed=7)
    deck = tmp_path / "ann.txt"
    deck.write_text(LEGAL)
    library.register("Spring Open", "Ann", deck)
    for player in ("Bo", "Cy"):
        library.register("Spring Open", player)
    library.pair("Spring Open")
    library.report("Spring Open", "2-1", table=1)
    return Pages(db_path)


def test_the_events_list_and_its_twin(pages: Pages, db_path: Path) -> None:
    page = pages.get("/events")
    assert page.status_code == 200 and 'href="/events/Spring%20Open"' in page.text
    twin = pages.get("/events.json").json()
    assert [(e["name"], e["players"], e["rounds_paired"]) for e in twin] == [("Spring Open", 3, 1)]


def test_an_events_pairings_and_standings(pages: Pages, db_path: Path) -> None:
    page = pages.get("/events/spring open")
    assert page.status_code == 200
    words = text_of(page.text)
    state = Library(db_path).event("Spring Open")
    table = state.seats[0]
    assert f"1 {table.first} {table.second} 2-1" in words
    assert "Round 1 by name" in words and "Standings" in words
    twin = pages.get("/events/spring open.json").json()
    assert twin["event"]["seed"] == 7 and len(twin["rounds"]) == 2
    assert all("deck" not in player for player in twin["players"])  # lists stay hidden
    assert "Pixie Dewdancer" not in page.text


def test_an_unknown_event_is_said_in_the_page(pages: Pages) -> None:
    page = pages.get("/events/Nope")
    assert page.status_code in (400, 404)
    assert "no event named 'Nope'; events: Spring Open" in text_of(page.text)
