"""The search page as a gallery, its warnings and suggestions as links, and search as you
type without an error flashing while a query is unfinished (issue #29); through FastAPI's
test client, compared with the command line as the other page tests are."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import Run
from tests.test_web_pages import db_path, pages
from tests.web_helpers import Pages, error_of, said_by_cli, text_of

__all__ = ["db_path", "pages"]  # the page tests' fixtures: every page on both engines

RESULTS = {"HX-Request": "true", "HX-Target": "results"}
TYPING = {**RESULTS, "X-Cardbase-Typing": "1"}  # what app.js adds when the typing paused


def card_links(page: str) -> list[str]:
    """The card pages the results link to, in order: the table's names or the gallery's."""
    return re.findall(r'<a (?:class="face-name" )?href="(/card/[^"]+)"', _results(page))


def _results(page: str) -> str:
    return page[page.index('<section id="results"') :]


def links_named(page: str, text: str) -> list[str]:
    found = re.findall(r'<a [^>]*href="([^"]+)"[^>]*>([^<]*)</a>', _results(page))
    return [html.unescape(href) for href, shown in found if html.unescape(shown) == text]


def params_of(link: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}


def tiles(page: str) -> dict[str, str]:
    """Each gallery tile's card page and the text under its face (the copies owned)."""
    found = re.findall(
        r'<a class="face-name" href="([^"]+)">.*?<p class="owned">(.*?)</p>', page, re.S
    )
    return {href: text_of(owned) for href, owned in found}


def test_the_gallery_shows_the_tables_cards_as_faces_with_the_copies_owned(
    pages: Pages, run: Run
) -> None:
    run("add", "1 C 14 x2", "1 C 14 foil", "1 U 15")
    table = pages.get("/search", params={"q": "chug*"}).text
    gallery = pages.get("/search", params={"q": "chug*", "view": "gallery"}).text
    assert 'class="gallery"' in gallery and "<table" not in _results(gallery)
    assert card_links(gallery) == card_links(table) and len(card_links(table)) == 4
    assert gallery.count('<figure class="face"') == 4
    owned = tiles(gallery)
    assert owned["/card/1C14"] == "Owned: 2 non-foil, 1 foil"
    assert owned["/card/1U15"] == "Owned: 1 non-foil"
    assert "Not owned" in owned.values()
    assert text_of(_results(gallery)).startswith("4 cards")  # the count, as the table's


def test_the_view_switch_keeps_the_search_and_the_default_leaves_no_parameter(
    pages: Pages,
) -> None:
    asked = {"q": "chug*", "sort": "cost", "desc": "1", "size": "2", "page": "2"}
    table = pages.get("/search", params=asked).text
    [to_gallery] = links_named(table, "Gallery")
    assert params_of(to_gallery) == {**asked, "view": "gallery"}
    gallery = pages.get(to_gallery).text
    assert card_links(gallery) == card_links(table)  # the same page of the same sort
    [to_table] = links_named(gallery, "Table")
    assert params_of(to_table) == asked  # no view=table: the default is no parameter
    assert 'id="view-gallery" href' in gallery and 'aria-current="true">Gallery' in gallery
    # Paging on and the form's next search stay in the gallery.
    [previous] = links_named(gallery, "← Previous")
    assert params_of(previous)["view"] == "gallery"
    assert '<input type="hidden" name="view" value="gallery" form="search-form">' in gallery
    assert 'name="view"' not in table
    # No headers to click: the gallery offers the same sorts as links, the current one marked.
    [cost] = links_named(gallery, "Cost ▼")
    assert params_of(cost) == {"q": "chug*", "sort": "cost", "size": "2", "view": "gallery"}
    [by_name] = links_named(gallery, "Name")
    assert card_links(pages.get(by_name).text) == card_links(
        pages.get("/search", params={"q": "chug*", "sort": "name", "size": "2"}).text
    )


def test_htmx_gets_the_gallery_as_the_results_region(pages: Pages) -> None:
    partial = pages.get("/search", params={"q": "chug*", "view": "gallery"}, headers=RESULTS)
    assert partial.text.lstrip().startswith('<section id="results"')
    assert 'class="gallery"' in partial.text and "<html" not in partial.text
    assert 'form="search-form"' in partial.text  # the view rides along with the form


def test_the_view_does_not_change_the_json_twin(pages: Pages, run: Run) -> None:
    run("add", "1 C 14 x2")
    for query in ("chug*", "chugawg", "cost:4..2"):
        plain = pages.get("/search", params={"q": query, "format": "json"}).json()
        gallery = pages.get("/search.json", params={"q": query, "view": "gallery"}).json()
        assert gallery == plain
        assert plain["cards"] == json.loads(run("search", query, "-o", "json").stdout)
        assert bool(plain["warnings"]) == (query != "chug*")


def test_the_collection_has_the_gallery_too(pages: Pages, run: Run) -> None:
    run("add", "1 C 14 x3 foil")
    mine = pages.get("/collection", params={"view": "gallery"}).text
    assert tiles(mine) == {"/card/1C14": "Owned: 0 non-foil, 3 foil"}


@pytest.mark.parametrize(
    ("asked", "suggested", "fixed"),
    [
        ({"q": "chug* cost:5..2"}, "cost:2..5", {"q": "chug* cost:2..5"}),
        ({"q": "r:r..c"}, "rarity:c..r", {"q": "r:c..r"}),
        ({"cost": "5..2"}, "cost:2..5", {"cost": "2..5"}),  # a filter box: its value
    ],
)
def test_an_empty_range_warns_in_the_page_with_the_corrected_search_as_a_link(
    pages: Pages, run: Run, asked: dict[str, str], suggested: str, fixed: dict[str, str]
) -> None:
    response = pages.get("/search", params=asked)
    assert response.status_code == 200
    warning = re.search(r'<p class="warning"[^>]*>(.*?)</p>', response.text, re.S).group(1)
    args = [word for k, v in asked.items() for word in ([v] if k == "q" else [f"--{k}", v])]
    cli = run("search", *args)
    words = said_by_cli(cli.stderr.splitlines()[0]).removeprefix("warning: ")
    assert text_of(warning) == words.replace("; did you mean", ". Did you mean").replace(
        f"{suggested}?", f"{suggested} ?"
    )  # the CLI's words, the suggestion a link
    assert "--" not in text_of(warning)
    [link] = links_named(response.text, suggested)
    assert params_of(link) == fixed
    after = pages.get(link)
    assert 'class="warning"' not in after.text and after.status_code == 200
    twin = pages.get("/search", params={**asked, "format": "json"}).json()
    assert twin["warnings"] == [
        {"message": words.split("; did you mean")[0],
         "suggestions": [{"shown": suggested, "search": fixed}]}
    ]  # fmt: skip


def test_a_warning_without_a_correction_is_said_too(pages: Pages, run: Run) -> None:
    page = pages.get("/search", params={"q": "series:7"}).text
    cli = said_by_cli(run("search", "series:7").stderr.splitlines()[0])
    cli = cli.removeprefix("warning: ")
    assert cli in text_of(page) and "No cards match." not in text_of(page)
    found = pages.get("/search", params={"q": "1C132", "format": "json"}).json()
    assert [card["code"] for card in found["cards"]] == ["1 U 132"]  # as the CLI searches it
    assert "searching for 1 U 132" in found["warnings"][0]["message"]


def test_words_that_match_nothing_link_to_the_closest_names(pages: Pages, run: Run) -> None:
    page = pages.get("/search", params={"q": "chugawg"}).text
    cli = run("search", "chugawg").stderr
    assert "Did you mean: Chugawug Cook (1 C 14, 2 C 101), Chugawug Elder" in cli
    assert "Did you mean Chugawug Cook , Chugawug Elder ?" in text_of(page)
    [link] = links_named(page, "Chugawug Cook")
    assert params_of(link) == {"q": '!"Chugawug Cook"'}
    assert card_links(pages.get(link).text) == ["/card/1C14", "/card/2C101"]  # both printings


def test_a_refused_query_offers_its_correction_as_a_link(pages: Pages, run: Run) -> None:
    response = pages.get("/search", params={"q": "sphere:chaoss t:trick", "view": "gallery"})
    assert response.status_code == 400
    assert error_of(response.text) == said_by_cli(run("search", "sphere:chaoss t:trick").stderr)
    [link] = links_named(response.text, "sphere:chaos t:trick")
    assert params_of(link) == {"q": "sphere:chaos t:trick", "view": "gallery"}
    assert pages.get(link).status_code == 200
    twin = pages.get("/search", params={"q": "sphere:chaoss", "format": "json"}).json()
    assert twin["suggestion"] == {"shown": "sphere:chaos", "search": {"q": "sphere:chaos"}}
    assert "suggestion" not in pages.get("/search.json", params={"q": "colour:x"}).json()


@pytest.mark.parametrize("unfinished", ["cost>", 'name:"chug', "s:nature (", "chug or", "is:ow"])
@pytest.mark.parametrize("path", ["/search", "/collection"])
def test_an_unfinished_query_being_typed_leaves_the_results_as_they_were(
    pages: Pages, run: Run, path: str, unfinished: str
) -> None:
    """204: htmx (base.html's config) swaps nothing, so the last results stay; Enter, the
    button or a page without JavaScript still get the error, as the command line does."""
    typed = pages.get(path, params={"q": unfinished}, headers=TYPING)
    assert typed.status_code == 204 and typed.text == ""
    submitted = pages.get(path, params={"q": unfinished}, headers=RESULTS)
    assert submitted.status_code == 400
    assert error_of(submitted.text) == said_by_cli(run("search", unfinished).stderr)
    plain = pages.get(path, params={"q": unfinished})
    assert plain.status_code == 400 and "<nav" in plain.text and error_of(plain.text)


@pytest.mark.parametrize("wrong", ["colour:purple", "sphere:chaoss", "cost>x", "(cost>)"])
def test_a_wrong_query_says_so_when_the_typing_pauses(pages: Pages, wrong: str) -> None:
    typed = pages.get("/search", params={"q": wrong}, headers=TYPING)
    assert typed.status_code == 400 and error_of(typed.text)


def test_a_finished_query_being_typed_answers_its_results(pages: Pages) -> None:
    typed = pages.get("/search", params={"q": "cost>2", "view": "gallery"}, headers=TYPING)
    assert typed.status_code == 200 and 'class="gallery"' in typed.text
