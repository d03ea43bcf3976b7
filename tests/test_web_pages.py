"""The web pages, through FastAPI's test client: every page and action calls the library
the command line calls, so each test compares the page with the library (or the CLI)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardbase.db import schema
from cardbase.db.location import Location
from cardbase.library import Library
from tests.conftest import MINI_CATALOGUE, Run
from tests.web_helpers import Pages, error_of, flash_of, said_by_cli, text_of, upload


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Location]:
    """Every page on both engines: the mini catalogue in a SQLite file or on PostgreSQL."""
    if request.param == "sqlite":
        path = tmp_path / "mini.db"
        schema.prepare(path, Library(path), catalogue=MINI_CATALOGUE)
        yield path
        return
    yield from request.getfixturevalue("pg_templates").copy(MINI_CATALOGUE)


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


def codes_in(page: str) -> list[str]:
    return re.findall(r'<td class="code">([^<]+)</td>', page)


def test_every_page_answers(pages: Pages) -> None:
    for path in ("/search", "/card/1C14", "/collection", "/deck", "/import", "/trades"):
        response = pages.get(path)
        assert response.status_code == 200, path
        assert "cardbase" in response.text
    assert pages.get("/", follow_redirects=False).headers["location"] == "/search"


def test_search_takes_the_query_language_and_the_plain_options(pages: Pages, run: Run) -> None:
    cli = run("search", "chug*", "--sphere", "nature", "-o", "csv").stdout.splitlines()[1:]
    page = pages.get("/search", params={"q": "chug*", "sphere": "nature"}).text
    assert codes_in(page) == [line.split(",")[0] for line in cli]
    same = pages.get("/search", params={"q": "chug* s:nature"}).text
    assert codes_in(same) == codes_in(page)


def test_a_bad_query_shows_the_terminal_caret(pages: Pages, run: Run) -> None:
    response = pages.get("/search", params={"q": "sphere:chaoss"})
    assert response.status_code == 400
    assert error_of(response.text) == said_by_cli(run("search", "sphere:chaoss").stderr)


def test_results_are_paged_and_sorted_by_clicking_a_column(pages: Pages, run: Run) -> None:
    every = [
        line.split(",")[0]
        for line in run("search", "--sort", "cost", "--desc", "-o", "csv").stdout.splitlines()[1:]
    ]
    first = pages.get("/search", params={"sort": "cost", "desc": "1", "size": "5"}).text
    second = pages.get(
        "/search", params={"sort": "cost", "desc": "1", "size": "5", "page": "2"}
    ).text
    assert codes_in(first) + codes_in(second) == every[:10]
    assert "Next" in text_of(first) and 'hx-get="/search/count?' in first  # counted apart
    count = pages.get(
        "/search/count", params={"sort": "cost", "desc": "1", "size": "5", "page": "2"}
    ).text
    assert text_of(count) == f"{len(every)} cards, page 2 of {-(-len(every) // 5)}"
    last = pages.get("/search", params={"size": "5", "page": str(-(-len(every) // 5))}).text
    assert "Next" not in text_of(last) and f"{len(every)} cards" in text_of(last)
    # The Cost header links to the ascending sort, keeping the rest of the search.
    link = re.search(r'<a href="([^"]+)">Cost ▼</a>', first).group(1)
    assert "sort=cost" in link and "desc" not in link and "size=5" in link


@pytest.mark.parametrize(
    ("cli", "form"),
    [
        ((), {}),
        (("--sort", "attack", "--desc"), {"sort": "attack", "desc": "1"}),
        (("the",), {"q": "the"}),  # ranked by the full-text index alone
        (("foe", "--type", "creature"), {"q": "foe", "type": "creature"}),
    ],
)
def test_a_deep_page_is_its_slice_of_the_whole_search(
    pages: Pages, run: Run, cli: tuple[str, ...], form: dict[str, str]
) -> None:
    """Every page, earlier ones skipped in SQL, is its slice of the command line's order,
    and counts and links say the same as on the first page."""
    lines = run("search", *cli, "-o", "csv").stdout.splitlines()[1:]
    every = [line.split(",")[0] for line in lines]
    last = len(every)  # a card a page: pages deep enough to skip some
    assert last >= 3
    seen = []
    for page in range(1, last + 2):
        params = {**form, "size": "1", "page": str(page)}
        shown = pages.get("/search", params=params).text
        seen += codes_in(shown)
        assert ("Next" in text_of(shown)) == (page < last), page
        count = text_of(pages.get("/search/count", params=params).text)
        assert count == f"{len(every)} cards, page {page} of {last}"
    assert seen == every


def test_the_url_holds_the_search_and_htmx_gets_only_the_results(pages: Pages) -> None:
    page = pages.get("/search", params={"q": "chug*", "type": "creature"}).text
    assert 'value="chug*"' in page and '<option value="creature" selected>' in page
    partial = pages.get(
        "/search", params={"q": "chug*"}, headers={"HX-Request": "true", "HX-Target": "results"}
    )
    assert partial.text.lstrip().startswith('<section id="results"')
    assert "<html" not in partial.text


def test_the_card_page_shows_fields_face_printings_and_copies(pages: Pages, run: Run) -> None:
    run("add", "1 C 14 x2", "1 C 14 foil lp")
    page = pages.get("/card/1C14").text
    text = text_of(page)
    assert "Chugawug Cook 1 C 14" in text
    assert (
        'class="face"' in page and "background: #2e7d32" not in page
    )  # the sphere colour is a CSS variable
    assert "--sphere: #2e7d32" in page
    assert "/card/2C101" in page  # the other printing
    assert re.search(r'id="owned-nonfoil">2<', page) and re.search(r'id="owned-foil">1<', page)
    assert "LP" in text  # the holding's condition
    assert "Chugawug Elder" in text_of(pages.get("/card/chugawug elder").text)  # by name too


def test_plus_and_minus_change_copies_per_finish_and_per_holding(pages: Pages, run: Run) -> None:
    added = pages.post("/card/1C14/copies", {"op": "add", "finish": "foil"})
    assert added.status_code == 200
    assert flash_of(added.text) == "Chugawug Cook (1 C 14) foil: 0 -> 1"
    run("add", "1 C 14 x2 lp", "--location", "Binder 1")
    holding = {"op": "remove", "finish": "nonfoil", "holding": "1", "condition": "LP", "language": "en",
               "location": "Binder 1", "tags": ""}  # fmt: skip
    pages.post("/card/1C14/copies", holding)
    copies = run("collection", "--copies", "-o", "csv").stdout
    assert "1 C 14,Chugawug Cook,nonfoil,LP,en,Binder 1,,1," in copies
    assert "1 C 14,Chugawug Cook,foil,NM,en,,,1," in copies


def test_removing_a_copy_you_do_not_have_is_the_cli_line(pages: Pages, run: Run) -> None:
    response = pages.post("/card/1C14/copies", {"op": "remove", "finish": "foil"})
    assert response.status_code == 400
    cli = said_by_cli(run("remove", "1 C 14 foil").stderr)
    assert error_of(response.text) == cli


def test_a_finish_held_in_several_kinds_is_removed_from_its_row(pages: Pages, run: Run) -> None:
    """Non-foil copies in two conditions have no one copy for the top "-" to take: the page
    leads to the rows instead of offering a button whose answer names command-line options."""
    run("add", "1 C 14 x2", "1 C 14 lp")
    page = pages.get("/card/1C14").text
    assert "Remove a non-foil copy" not in page and 'href="#held-copies"' in page
    assert 'id="held-copies"' in page
    asked = pages.post("/card/1C14/copies", {"op": "remove", "finish": "nonfoil"})
    assert asked.status_code == 400 and "--" not in error_of(asked.text)


def test_a_remedy_is_said_in_the_pages_words(pages: Pages, run: Run) -> None:
    """The same refusal as the command line's, its way forward in the page's terms."""
    cli = said_by_cli(run("search", "format:constructed").stderr)
    assert "cardbase deck check --format" in cli
    page = pages.get("/search", params={"q": "format:constructed"}).text
    shown = error_of(page)
    assert shown.split(". ")[0] == cli.split(". ")[0]
    assert "the Decks page checks a deck" in shown and "--" not in shown


def test_an_unknown_card_is_one_line_with_a_suggestion(pages: Pages, run: Run) -> None:
    response = pages.get("/card/Chugawug Cok")
    assert response.status_code == 404
    assert error_of(response.text) == said_by_cli(run("show", "Chugawug Cok").stderr)


def test_collection_page_totals_bars_filters_and_undo(pages: Pages, run: Run) -> None:
    run("add", "1 C 14 x2", "1 U 42 foil")
    page = pages.get("/collection").text
    assert "3 cards owned (2 non-foil, 1 foil), 2 distinct" in text_of(page)
    assert 'role="meter"' in page
    assert re.search(r'<span class="share">\d+%</span>', page)  # the bar's share in figures
    said = text_of(page)  # what Undo will revert, before it is pressed
    assert (
        "Undo the last change add '1 C 14 x2' '1 U 42 foil' (2 changes: Chugawug Cook (1 C 14), "
        "Undead Drummer (1 U 42))" in said
    )
    chaos = pages.get("/collection", params={"sphere": "chaos"}).text
    assert codes_in(chaos) == ["1 U 42"]
    undone = pages.post("/undo", {"back": "/collection"})
    assert flash_of(undone.text).startswith("Undid batch")
    assert "0 cards owned" in text_of(undone.text)
    assert "Undo the last change" not in undone.text and "Nothing to undo." in text_of(undone.text)
    assert flash_of(pages.post("/undo").text) == "Nothing to undo."


def test_the_collector_is_chosen_like_the_clis(db_path: Path, run: Run) -> None:
    run("collectors", "add", "Alice")
    run("add", "1 C 14", "--collector", "Alice")
    pages = Pages(db_path, collector="Alice")
    assert "1 card owned" in text_of(pages.get("/collection").text)
    me = pages.post("/collector", {"name": "me", "back": "/collection"})
    assert "0 cards owned" in text_of(me.text)
    assert "Alice" in text_of(pages.get("/collection", params={"collector": "alice"}).text)
    wrong = pages.post("/collector", {"name": "Alise"})
    assert wrong.status_code == 400 and "did you mean 'Alice'?" in error_of(wrong.text)


def test_copies_with_every_attribute_from_the_card_page(pages: Pages, run: Run) -> None:
    """The card page's form is `add` with its options, read by the same parsers: names
    people write ('Lightly Played', 'French') are stored as the command line stores them."""
    form = {"op": "add", "count": "3", "finish": "foil", "condition": "Lightly Played",
            "language": "French", "location": "Binder 1", "tags": "trade, signed",
            "note": "from the league"}  # fmt: skip
    added = pages.post("/card/1C14/copies", form)
    assert added.status_code == 200, error_of(added.text)
    assert (
        flash_of(added.text)
        == "Chugawug Cook (1 C 14) foil LP fr in Binder 1 #signed #trade: 0 -> 3"
    )
    copies = run("collection", "--copies", "-o", "csv").stdout
    assert '1 C 14,Chugawug Cook,foil,LP,fr,Binder 1,"signed, trade",3,from the league' in copies


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("count", "x", "copies must be a whole number from 1 to 9999, not 'x'"),
        ("count", "0", "copies must be a whole number from 1 to 9999, not '0'"),
        ("count", "²", "not '²'"),
        ("condition", "ok", "condition 'ok'"),
        ("language", "zz", "unknown language 'zz'"),
    ],
)
def test_a_bad_attribute_on_the_card_page_changes_nothing(
    pages: Pages, run: Run, field: str, value: str, said: str
) -> None:
    refused = pages.post("/card/1C14/copies", {"op": "add", field: value})
    assert refused.status_code == 400
    assert said in error_of(refused.text) and "\n" not in error_of(refused.text)
    assert "Chugawug Cook" not in run("collection").stdout


def test_every_page_has_a_json_twin_equal_to_the_command_lines(pages: Pages, run: Run) -> None:
    """`?format=json`, as datasette's pages take it: what the page shows, as the library
    returns it and `-o json` prints it, so a script and the page read the same data."""
    import json

    run("add", "1 C 14 x2", "1 U 15 foil")
    found = pages.get("/search", params={"q": "chug", "format": "json"})
    assert found.headers["content-type"] == "application/json"
    assert found.json()["cards"] == json.loads(run("search", "chug", "-o", "json").stdout)
    card = pages.get("/card/1C14", params={"format": "json"}).json()
    assert card["card"] == json.loads(run("show", "1 C 14", "-o", "json").stdout)
    assert card["copies"] == json.loads(
        run("collection", "--copies", 'code:"1 C 14"', "-o", "json").stdout
    )
    assert card["printings"] == ["2 C 101"]
    mine = pages.get("/collection", params={"format": "json"}).json()
    assert mine["stats"] == json.loads(run("stats", "-o", "json").stdout)
    assert mine["cards"] == json.loads(run("collection", "-o", "json").stdout)
    bad = pages.get("/search", params={"q": "cost>", "format": "json"})
    assert bad.status_code == 400 and bad.json()["error"] == said_by_cli(
        run("search", "cost>").stderr
    )


def test_the_deck_builders_and_import_pages_have_json_twins(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    """The Deck Builder's twin is `deck list -o json` and, for an opened deck, its list,
    `deck check -o json`, its stats and `deck history -o json`; the empty import page's
    says there is no plan yet and the modes a posted sheet takes."""
    import json

    listed = tmp_path / "deck.txt"
    listed.write_text("3 Chugawug Cook\n", encoding="utf-8")
    run("deck", "save", str(listed), "--name", "Kitchen")
    builder = pages.get("/deck.json").json()
    assert builder == {"decks": json.loads(run("deck", "list", "-o", "json").stdout),
                       "deck": None}  # fmt: skip
    opened = pages.get("/deck.json", params={"open": "kitchen"}).json()["deck"]
    assert opened["name"] == "Kitchen" and "3 1 C 14" in opened["text"]  # as the list saved it
    assert opened["check"] == json.loads(run("deck", "check", "Kitchen", "-o", "json").stdout)
    history = json.loads(run("deck", "history", "Kitchen", "-o", "json").stdout)
    assert opened["versions"] == list(reversed(history["versions"]))
    assert opened["stats"]["cards"] == 3
    assert pages.get("/import.json").json() == {"plan": None, "modes": ["add", "set", "replace"]}


@pytest.mark.parametrize("address", ["/search?q=chugawug", "/collection", "/card/1C14"])
def test_a_pages_dot_json_address_is_its_json_twin(pages: Pages, run: Run, address: str) -> None:
    """As datasette names them: `/search.json?q=chug` answers what `?format=json` does."""
    run("add", "1 C 14 x2")
    path, _, query = address.partition("?")
    twin = pages.get(address + ("&" if query else "?") + "format=json")
    assert twin.json().get("total", 1)  # something to compare
    suffixed = pages.get(f"{path}.json" + (f"?{query}" if query else ""))
    assert suffixed.status_code == 200 and suffixed.headers["content-type"] == "application/json"
    assert suffixed.json() == twin.json()


def test_a_boosted_forms_error_is_a_whole_page(pages: Pages) -> None:
    """A boosted form (hx-boost) swaps the whole page: its error comes in the page's frame,
    with the way back, never as one bare line in place of the page."""
    boosted = {"HX-Boosted": "true"}
    gone = pages.post("/deck/delete", {"name": "Nothing"}, htmx=True, headers=boosted)
    assert gone.status_code == 404 and "<nav" in gone.text and "Back" in text_of(gone.text)


@pytest.mark.parametrize(
    ("ask", "said", "leads_on"),
    [
        (lambda p: p.post("/card/1C14/copies", {"op": "add", "language": "zz", "tags": "box"}),
         "unknown language 'zz'", 'name="tags" placeholder="trade, binder" value="box"'),
        (lambda p: p.get("/deck?open=No Such Deck"), "No Such Deck", 'id="deck-text"'),
        (lambda p: upload(p, "/import/plan", "cards.xlsx", b"PK\x03\x04 junk"), "cards.xlsx",
         'action="/import/plan"'),
        (lambda p: upload(p, "/trades/match", "notes.xlsx", b"PK\x03\x04 junk"), "notes.xlsx",
         'action="/trades/match"'),
    ],
)  # fmt: skip
def test_a_refused_form_is_its_page_again_with_the_way_on(
    pages: Pages, ask: Callable[[Pages], Any], said: str, leads_on: str
) -> None:
    """Not a page of its own: the form that was refused, its values kept, the error above."""
    answer = ask(pages)
    assert answer.status_code in (400, 404)
    assert said in error_of(answer.text)
    assert leads_on in answer.text and 'aria-label="Pages"' in answer.text
