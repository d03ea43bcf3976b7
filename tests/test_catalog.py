"""Reading catalogue files and importing them: good rows, bad rows, counts, all or nothing."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from cardbase.catalog import load as catalog
from cardbase.catalog.load import checked_rows, parse_catalogue, read_catalogue, store_rows
from cardbase.catalog.update import import_catalogue
from cardbase.db.bulkload import is_bulk
from cardbase.db.sqlite import connect, transaction
from cardbase.errors import CatalogueError
from cardbase.library import Library
from tests.helpers import Run

HEADER = "code,name,type,hero,sphere,traits,cost,attack,defense,gems,text,lore\n"


def parse(body: str, header: str = HEADER) -> catalog.CatalogueFile:
    return parse_catalogue(io.StringIO(header + body, newline=""), "test.csv")


def test_good_rows_become_cards() -> None:
    parsed = parse(
        "1 c 14,Chugawug  Cook,creature,,nature,Chugawug; Unique,2,3,4,g g,Crush.,Lore\n"
    )
    assert parsed.problems == []
    (card,) = parsed.cards
    assert str(card.code) == "1 C 14"
    assert card.name == "Chugawug Cook"
    assert (card.type, card.sphere, card.traits, card.gems) == (
        "Creature",
        "Nature",
        ("Chugawug", "Unique"),
        "GG",
    )


def test_hero_from_type_word_and_item_synonym() -> None:
    parsed = parse(
        "1 R 161,Tavi,Hero,,,Card Duelist,5,7,6,RGBY,,\n"
        "1 C 20,Stew Pot,Item,,Nature,Artifact,,,,G,,\n"
    )
    assert parsed.problems == []
    hero, item = parsed.cards
    assert (hero.type, hero.hero, hero.sphere) == ("Creature", True, None)
    assert item.type == "Resource"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("1 X 14,Cook,Creature,,Nature,,2,3,4,G,,", "row 2: 1 X 14: rarity 'X' is not one of"),
        (
            "1 C 14,Cook,Creeture,,Nature,,2,3,4,G,,",
            "type 'Creeture' is not one of Creature, Resource, Trick; did you mean Creature?",
        ),
        (
            "1 C 14,Cook,Creature,,Chaoss,,2,3,4,G,,",
            "sphere 'Chaoss' is not one of Chaos, Nature, Machine, Order; did you mean Chaos?",
        ),
        ("1 C 14,Cook,Creature,,Nature,,two,3,4,G,,", "cost 'two' is not a whole number"),
        ("1 C 14,Cook,Creature,,Nature,,2,3.5,4,G,,", "attack '3.5' is not a whole number"),
        ("1 C 14,Cook,Creature,,Nature,,2,,4,G,,", "needs attack and defense"),
        ("1 C 14,Pot,Resource,,Nature,,,1,1,G,,", "has no attack or defense"),
        ("1 C 14,Cook,Creature,,Nature,,2,3,4,GX,,", "gems 'GX' has X"),
        ("1 C 14,Cook,Creature,,Nature,,2,3,4,GGGGG,,", "at most 4"),
        ("1 C 14,Cook,Creature,,,,2,3,4,G,,", "the sphere is empty"),
        ("1 C 14,Cook,Creature,yes,Nature,,2,3,4,G,,", "Heroes have no sphere"),
        ("1 C 14,Cook,Creature,maybe,,,2,3,4,G,,", "hero 'maybe' is not yes or no"),
        ("1 C 14,,Creature,,Nature,,2,3,4,G,,", "the name is empty"),
        ("1 C 14,Cook,Creature,,Nature,,-1,3,4,G,,", "out of range"),
    ],
)
def test_bad_rows_are_reported_with_row_numbers(row: str, message: str) -> None:
    parsed = parse(row + "\n")
    assert parsed.cards == []
    (problem,) = parsed.problems
    assert problem.startswith("test.csv, row 2: ")
    assert message in problem


def test_duplicate_code_in_file_names_both_rows() -> None:
    parsed = parse(
        "1 U 14,Cook,Creature,,Nature,,2,3,4,G,,\n\n1 U 14,Other,Creature,,Nature,,2,3,4,G,,\n"
    )
    assert parsed.problems == ["test.csv, row 4: code 1 U 14 repeats row 2"]


def test_a_card_is_series_rarity_and_number() -> None:
    """In the real numbering the P cards are numbered on their own: 1 U 14 and 1 P 14 are
    two cards, not one code twice."""
    parsed = parse(
        "1 U 14,Cook,Creature,,Nature,,2,3,4,G,,\n1 P 14,Other,Creature,,Nature,,2,3,4,G,,\n"
    )
    assert parsed.problems == []
    assert [str(card.code) for card in parsed.cards] == ["1 U 14", "1 P 14"]


def test_header_problems() -> None:
    with pytest.raises(CatalogueError, match="empty file"):
        parse("", header="")
    with pytest.raises(CatalogueError, match="has no code column"):
        parse("x\n", header="name,type\n")
    with pytest.raises(CatalogueError, match="appears twice"):
        parse("x\n", header="code,name,type,Name\n")


def test_unknown_columns_are_ignored_and_listed() -> None:
    parsed = parse(
        "1 C 14,Cook,Creature,,Nature,,2,3,4,G,,,Jo\n", header=HEADER.strip() + ",price\n"
    )
    assert parsed.ignored_columns == ["price"]
    assert len(parsed.cards) == 1


def test_import_counts_added_updated_unchanged(db_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "more.csv"
    source.write_text(
        HEADER
        + "1 C 14,Chugawug Cook,Creature,,Nature,Chugawug,2,3,5,GG,New text.,\n"  # changed
        + "1 C 1,Pixie Dewdancer,Creature,,Nature,Pixie,1,2,2,GY,[Y]: Stun my foe.,"
        + "Pixies count the dew at dawn.\n"
        + "3 C 1,Brand New,Trick,,Order,,1,,,Y,,\n",
        encoding="utf-8",
    )
    counts, problems, _ignored = import_catalogue(Library(db_path), source)
    assert (counts.added, counts.updated, counts.unchanged) == (1, 1, 1)
    assert problems == []
    counts = import_catalogue(Library(db_path), source).counts
    assert (counts.added, counts.updated, counts.unchanged) == (0, 0, 3)


def test_import_with_a_bad_row_writes_nothing(db_path: Path, tmp_path: Path, checksum) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(
        HEADER + "3 C 1,Brand New,Trick,,Order,,1,,,Y,,\n3 Q 2,Bad,Trick,,Order,,1,,,Y,,\n"
    )
    before = checksum(db_path)
    with pytest.raises(CatalogueError, match="1 bad row"):
        import_catalogue(Library(db_path), source)
    assert checksum(db_path) == before
    counts, problems, _ignored = import_catalogue(Library(db_path), source, skip_bad=True)
    assert (counts.added, counts.skipped) == (1, 1)
    assert "row 3" in problems[0]


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="cannot read"):
        catalog.read_catalogue(tmp_path / "missing.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes(HEADER.encode() + "1 C 1,Caf\xe9,Trick,,Order,,1,,,Y,,\n".encode("latin-1"))
    with pytest.raises(CatalogueError, match="not UTF-8"):
        catalog.read_catalogue(latin)


def test_columns_that_are_no_catalogue_column_are_named(db_path: Path, tmp_path: Path) -> None:
    """Nothing is dropped silently: a column the catalogue does not keep is said."""
    source = tmp_path / "extra.csv"
    source.write_text(
        "code,name,type,sphere,cost,Price,Notes\n3 C 1,Brand New,Trick,Order,1,0.10,mine\n"
    )
    report = import_catalogue(Library(db_path), source)
    assert report.ignored_columns == ["Price", "Notes"]
    result = Run(db_path)("catalog", "import", str(source))
    assert result.exit_code == 0, result.output
    assert (
        "ignored column(s) Price, Notes: not catalogue columns (see docs/catalogue.md)"
        in result.stderr
    )


def _many_rows(count: int, name: str = "Dune Walker") -> str:
    return "".join(
        f"4 C {n},{name} {n},Trick,,Order,,1,,,Y,Draw a card.,\n" for n in (range(1, count + 1))
    )


def _schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as connection:
        return sorted(connection.execute("SELECT type, name, sql FROM sqlite_master"))


def test_a_bulk_import_leaves_the_schema_as_it_was_and_the_index_in_sync(
    db_path: Path, tmp_path: Path
) -> None:
    """A load of most of the table sets the triggers and indexes aside: at commit they are
    back word for word, and every new card is found through the rebuilt full-text index."""
    source = tmp_path / "many.csv"
    source.write_text(HEADER + _many_rows(300), encoding="utf-8")
    before = _schema(db_path)
    assert is_bulk(300, 322)
    assert import_catalogue(Library(db_path), source).counts.added == 300
    assert _schema(db_path) == before
    doctor = Run(db_path)("doctor")
    assert doctor.exit_code == 0, doctor.output
    assert "full-text index: in sync" in doctor.stdout
    found = Run(db_path)("search", "walker", "-o", "csv")
    assert found.stdout.count("Dune Walker") == 300


def test_a_bulk_load_that_fails_rolls_back_its_schema_changes_too(
    db_path: Path, tmp_path: Path, checksum
) -> None:
    """All or nothing holds for the bulk path: a statement failing after the triggers were
    dropped leaves rows, triggers and indexes as they were."""
    source = tmp_path / "many.csv"
    source.write_text(HEADER + _many_rows(300) + "4 C 301,Boom,Trick,,Order,,1,,,Y,,\n")
    rows = checked_rows(read_catalogue(source), str(source), skip_bad=False)
    before, schema_before = checksum(db_path), _schema(db_path)
    conn = connect(db_path)
    conn.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON main.card WHEN new.name = 'Boom' "
        "BEGIN SELECT RAISE(ABORT, 'boom'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="boom"), transaction(conn):
        store_rows(conn, rows)
    conn.close()
    assert (checksum(db_path), _schema(db_path)) == (before, schema_before)
    assert "in sync" in Run(db_path)("doctor").stdout


def test_a_small_import_into_a_big_table_goes_through_the_triggers() -> None:
    assert not is_bulk(3, 100_000)
    assert not is_bulk(0, 0)
    assert is_bulk(254, 254)
