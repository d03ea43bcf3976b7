"""The Python API: `cardbase.Library`, on both engines (its documented examples are run by
tests/test_docs.py, from docs/python-api.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import cardbase
from cardbase import Library
from cardbase.collection.roster import add_collector
from cardbase.db.location import Location
from cardbase.errors import CardbaseError


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Location]:
    if request.param == "sqlite":
        yield tmp_path / "cards.db"
        return
    yield request.getfixturevalue("pg_sample")


def test_the_library_is_the_package_s_entry_point() -> None:
    assert cardbase.Library is Library
    assert "Library" in cardbase.__all__
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        cardbase.Nothing  # noqa: B018


def test_a_new_database_is_made_and_searched(location: Location) -> None:
    library = Library.open(location)
    cards = library.search("chugawug")
    assert "1 C 14" in {str(card.code) for card in cards}
    assert library.count("chugawug") == len(cards) > len(library.search("chugawug", limit=2))
    assert library.search("", limit=2, sphere="chaos") == library.search("s:chaos", limit=2)
    assert str(library.card("Chugawug Cook").code) == "1 C 14"


def test_copies_are_added_with_attributes_as_people_write_them(location: Location) -> None:
    library = Library.open(location)
    added = library.add(
        ["1 C 14 x2"], condition="near mint", language="French", location="Große Kiste",
        tags=["Straße"],
    )  # fmt: skip
    assert [change.delta for change in added] == [2]
    (copy,) = library.copies('in:"grosse kiste" tag:STRASSE')
    assert (copy.condition, copy.language, copy.location, copy.tags) == (
        "NM", "fr", "Große Kiste", "Straße",
    )  # fmt: skip
    assert library.count("is:owned") == 1


def test_a_bad_attribute_is_one_line_and_changes_nothing(location: Location) -> None:
    library = Library.open(location)
    with pytest.raises(CardbaseError) as refused:
        library.add(["1 C 14"], condition="shiny")
    assert "shiny" in str(refused.value) and "\n" not in str(refused.value)
    assert library.copies() == []


def test_a_location_is_taken_as_text_too(tmp_path: Path) -> None:
    """`Library("cards.db")`, as a script writes it: read as --db reads it."""
    Library.open(tmp_path / "cards.db").add(["1 C 14"])
    text = Library(str(tmp_path / "cards.db"))
    assert text.location == tmp_path / "cards.db"
    assert [str(copy.code) for copy in text.copies()] == ["1 C 14"]


def test_history_lists_what_undo_would_revert(location: Location) -> None:
    library = Library.open(location)
    library.add(["1 C 14"])
    library.add(["1 R 15 foil"])
    assert [b.source for b in library.history()] == ["add '1 R 15 foil'", "add '1 C 14'"]
    undone = library.undo()
    assert undone is not None
    [next_undo] = library.history(1, undoable=True)
    assert next_undo.id != undone.id and not next_undo.undone
    assert [b.undone for b in library.history()] == [True, False]


def test_undo_and_redo(location: Location) -> None:
    library = Library.open(location)
    library.add(["1 C 14"], foil=True)
    library.remove(["1 C 14 foil"])
    assert library.copies() == []
    assert library.undo() is not None
    assert [copy.finish for copy in library.copies()] == ["foil"]
    assert library.redo() is not None
    assert library.copies() == []
    assert library.redo() is None


def test_a_sheet_goes_out_and_comes_back(location: Location, tmp_path: Path) -> None:
    library = Library.open(location)
    library.add(["1 C 14 x3", "1 R 15 foil"], location="Binder 1")
    sheet = tmp_path / "collection.xlsx"
    assert library.export(sheet).cards == 2
    with pytest.raises(CardbaseError, match="--force"):
        library.export(sheet)
    other = Library.open(tmp_path / "other.db")
    report = other.import_sheet(sheet)
    assert not report.problems
    shown = {(str(c.code), c.finish, c.copies, c.location) for c in other.copies()}
    assert shown == {(str(c.code), c.finish, c.copies, c.location) for c in library.copies()}


def test_a_deck_is_checked_with_every_problem_explained(location: Location, tmp_path: Path) -> None:
    library = Library.open(location)
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Chugawug Cook\n")
    report = library.check_deck(deck)
    assert not report.valid
    messages = " ".join(problem.message for problem in report.problems)
    assert "40" in messages and "3" in messages


def test_collectors_see_their_own_copies(tmp_path: Path) -> None:
    path = tmp_path / "cards.db"
    library = Library.open(path)
    add_collector(library, "ann", False)
    Library.open(path, collector="ann").add(["1 C 14"])
    assert library.copies() == []
    assert len(Library.open(path, collector="ann").copies()) == 1
    with pytest.raises(CardbaseError, match="bob"):
        Library.open(path, collector="bob")


def test_a_library_says_where_it_is(tmp_path: Path) -> None:
    library = Library(tmp_path / "cards.db", collector="ann")
    assert repr(library) == f"Library({str(tmp_path / 'cards.db')!r}, collector='ann')"
    assert Library.open(str(tmp_path / "cards.db")).location == tmp_path / "cards.db"
    assert isinstance(Library.open(library.location).location, Path)


# The Python API's examples are docs/python-api.md's ```pycon blocks, which tests/test_docs.py
# runs as doctests from a fresh home, as a user would type them.


def test_the_helper_s_limits_are_the_library_s(tmp_path: Path) -> None:
    """The command line and the page take the Deck Builder Helper's bounds from one place."""
    from cardbase.decks.builder import MAX_HEROES, build_deck, spheres

    assert spheres() == ("Chaos", "Nature", "Machine", "Order")
    with Library.open(tmp_path / "cards.db").reading() as conn:
        for heroes in (-1, MAX_HEROES + 1):
            with pytest.raises(CardbaseError, match=f"choose 0 to {MAX_HEROES}"):
                build_deck(conn, "chaos", heroes)
        assert build_deck(conn, "chaos", MAX_HEROES).sphere == "Chaos"


def test_a_deck_is_saved_measured_exported_and_refused_a_sheet(tmp_path: Path) -> None:
    from cardbase.errors import InvalidDeckError

    library = Library.open(tmp_path / "cards.db")
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n37 Pixie Dewdancer\n")
    saved, fmt = library.save_deck(deck, "Bog Stew")
    assert (saved.name, saved.cards, fmt.key) == ("Bog Stew", 40, "free-realms")
    assert library.deck_stats("Bog Stew").cards == library.deck_stats(deck).cards == 40
    assert library.export_deck("Bog Stew", tmp_path / "out.txt").name == "Bog Stew"
    assert "Chugawug Cook" in (tmp_path / "out.txt").read_text()
    sheet = tmp_path / "sheet.xlsx"
    with pytest.raises(InvalidDeckError, match="not a valid"):  # 37 copies of one card
        library.registration_sheet("Bog Stew", sheet)
    assert not sheet.exists()
    report = library.registration_sheet("Bog Stew", sheet, player="Ada", force=True)
    assert not report.valid and sheet.exists()


def test_a_name_clash_says_its_way_forward_in_each_faces_words(tmp_path: Path) -> None:
    """The command line names --force; the page asks, beside its Replace button."""
    from cardbase.decks.saved import DeckExistsError

    library = Library.open(tmp_path / "cards.db")
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n")
    library.save_deck(deck, "Bog Stew")
    with pytest.raises(DeckExistsError) as clash:
        library.save_deck(deck, "bog  STEW")
    assert clash.value.existing == "Bog Stew"
    assert str(clash.value).endswith("; add --force to replace it")
    web = clash.value.said("web")
    assert "--force" not in web and web.startswith("a deck named 'bog STEW' exists (the deck")
    assert web.endswith("Replace it?")
    assert library.save_deck(deck, "Bog Stew", replace=True)[0].name == "Bog Stew"


def test_the_helper_builds_from_the_collection(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "cards.db")
    built = library.build_deck("nature")
    assert built.result.shortage  # nothing owned: nothing to build from
    assert built.report is None and built.saved_as is None
