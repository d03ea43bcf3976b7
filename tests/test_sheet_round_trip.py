"""Export writes which copies each row is; import reads them back: the round trip keeps every
holding's condition, language, location, tags and note."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, Run, new_database
from tests.test_sheet_holdings import add_collector, holdings


def collected(run: Run) -> None:
    """Four sets of copies of two cards, and one plain card."""
    run("add", "1 U 15 x2", "1 U 15 foil", "1 E 162")
    run("add", "1 U 15", "--condition", "lp", "--language", "French")
    run("add", "1 C 1 x3", "--location", "Binder 1", "--tag", "trade", "--tag", "Signed",
        "--note", "=from Bob, 2019")  # fmt: skip


def csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


def test_export_writes_a_row_for_each_set_of_copies(run: Run, tmp_path: Path) -> None:
    collected(run)
    path = tmp_path / "out.csv"
    result = run("export", str(path))
    assert result.exit_code == 0, result.output
    assert "3 cards written in 4 rows" in result.stdout
    rows = [
        {key: row[key] for key in ("Code", "Nonfoil", "Foil", "Condition", "Language",
                                   "Location", "Tags", "Note")}
        for row in csv_rows(path)
    ]  # fmt: skip
    assert rows == [
        {"Code": "1 C 1", "Nonfoil": "3", "Foil": "0", "Condition": "NM", "Language": "en",
         "Location": "Binder 1", "Tags": "Signed, trade", "Note": "'=from Bob, 2019"},
        {"Code": "1 U 15", "Nonfoil": "2", "Foil": "1", "Condition": "NM", "Language": "en",
         "Location": "", "Tags": "", "Note": ""},
        {"Code": "1 U 15", "Nonfoil": "1", "Foil": "0", "Condition": "LP", "Language": "fr",
         "Location": "", "Tags": "", "Note": ""},
        {"Code": "1 E 162", "Nonfoil": "1", "Foil": "0", "Condition": "NM", "Language": "en",
         "Location": "", "Tags": "", "Note": ""},
    ]  # fmt: skip


def test_catalogue_export_leaves_cards_not_held_blank_and_totals_right(
    run: Run, tmp_path: Path
) -> None:
    collected(run)
    path = tmp_path / "cat.xlsx"
    assert "22 cards written in 23 rows" in run("export", str(path), "--catalogue").stdout
    book = load_workbook(path)
    sheet = book["Catalogue"]
    header = [cell.value for cell in sheet[1]]
    assert header[-2:] == ["Text", "Lore"]
    rows = [dict(zip(header, row, strict=True)) for row in sheet.iter_rows(2, values_only=True)]
    assert len(rows) == 23
    bog = next(row for row in rows if row["Code"] == "1 R 20")
    assert (bog["Nonfoil"], bog["Foil"], bog["Condition"], bog["Tags"]) == (0, 0, None, None)
    elder = [(r["Nonfoil"], r["Foil"], r["Condition"]) for r in rows if r["Code"] == "1 U 15"]
    assert elder == [(2, 1, "NM"), (1, 0, "LP")]
    totals = {r[0]: r[1] for r in book["Totals"].iter_rows(min_row=2, values_only=True)}
    assert totals == {
        "Cards listed": 22,
        "Copies owned": 8,
        "Non-foil copies": 7,
        "Foil copies": 1,
        "Distinct cards owned": 3,
    }


def test_another_collectors_export(run: Run, tmp_path: Path) -> None:
    collected(run)
    add_collector(run.db_path, "Bob")
    run("add", "1 C 41 x2", "--condition", "HP", "--collector", "Bob")
    path = tmp_path / "bob.csv"
    assert run("export", str(path), "--collector", "Bob").exit_code == 0
    assert [(r["Code"], r["Nonfoil"], r["Condition"]) for r in csv_rows(path)] == [
        ("1 C 41", "2", "HP")
    ]


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_round_trip_keeps_every_attribute(run: Run, tmp_path: Path, suffix: str) -> None:
    collected(run)
    path = tmp_path / f"collection{suffix}"
    assert run("export", str(path)).exit_code == 0
    fresh = tmp_path / "fresh.db"
    new_database(fresh, MINI_CATALOGUE)
    back = Run(fresh)
    result = back("import", str(path), "--mode", "replace")
    assert result.exit_code == 0, result.output
    assert holdings(fresh) == holdings(run.db_path)
    again = run("import", str(path), "--mode", "replace", "-o", "json")
    assert json.loads(again.stdout)["changes"] == []
    add_collector(fresh, "Bob")
    assert back("import", str(path), "--collector", "Bob").exit_code == 0
    assert holdings(fresh, "Bob") == holdings(run.db_path)


# -- property: any holdings survive export and import ---------------------------------------

CODES = ("1 C 1", "1 U 15", "1 E 162", "2 C 101")
LANGUAGES = ("en", "fr", "de", "ja", "zh-Hans", "pt-BR", "no")
# Text a person types as a location, tag or note: letters, digits, punctuation, symbols and
# spaces of any script; none of the characters a label refuses. Not text that starts with an
# apostrophe before =, +, - or @: reading a cell takes that apostrophe off, as the one
# `writing.safe_text` adds (for every text column, not only these).
TEXT = st.characters(whitelist_categories=("L", "N", "P", "S", "Zs"), blacklist_characters="\xa0")
LABEL = st.text(TEXT, max_size=12).filter(
    lambda text: not text.lstrip().startswith("'") and '"' not in text
)
NOTE = st.text(st.one_of(TEXT, st.just("\n")), max_size=20).map(str.strip)
NOTE = NOTE.filter(lambda text: not text.startswith("'"))


def _label(text: str) -> str:
    """A location as cardbase stores it (NFC, spaces folded), as the copies made from it are."""
    from cardbase.collection.attributes import parse_location

    return parse_location(text)


def _tags(values: list[str]) -> str:
    from cardbase.collection.attributes import parse_tags

    return parse_tags(values)


copies = st.tuples(
    st.sampled_from(CODES),
    st.booleans(),
    st.sampled_from(("M", "NM", "LP", "MP", "HP", "DMG")),
    st.sampled_from(LANGUAGES),
    LABEL.map(_label),
    st.lists(LABEL.filter(lambda tag: "," not in tag), max_size=3).map(_tags),
    NOTE,
    st.integers(1, 9_999),
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "mini.db"
    new_database(path, MINI_CATALOGUE)
    return path


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(copies, min_size=1, max_size=8), st.sampled_from((".csv", ".xlsx")))
def test_any_holdings_survive_the_round_trip(
    template: Path, tmp_path: Path, held: list, suffix: str
) -> None:
    from cardbase.catalog.cards import card_refs_by_id
    from cardbase.codes import parse_code
    from cardbase.collection.changes import Mode, Request, Selector
    from cardbase.collection.store import change_collection
    from cardbase.sheets.exporter import export_cards
    from cardbase.sheets.importer import import_collection
    from tests.helpers import copy_database

    source, target = tmp_path / "source.db", tmp_path / "target.db"
    for path in (source, target):
        if not path.exists():
            copy_database(template, path)
    conn = Library(source).connect()
    ids = {code: conn.execute(
        "SELECT id FROM card WHERE series = ? AND rarity = ? AND number = ?",
        tuple(parse_code(code)),
    ).fetchone()[0] for code in CODES}  # fmt: skip
    cards = card_refs_by_id(conn, ids.values())
    requests = [
        Request(cards[ids[code]], "foil" if foil else "nonfoil", count,
                Selector(condition, language, location, tags), note)
        for code, foil, condition, language, location, tags, note, count in held
    ]  # fmt: skip
    change_collection(Library(source), requests, Mode.REPLACE, "test")
    sheet = tmp_path / f"out{suffix}"
    export_cards(conn, sheet, "collection", force=True)
    conn.close()
    import_collection(Library(target), sheet, None, Mode.REPLACE)
    assert holdings(target) == holdings(source)
    assert import_collection(Library(source), sheet, None, Mode.REPLACE).changes == []
