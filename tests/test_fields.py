"""The field registry drives every list of card fields, and plain options stay one term each."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

from cardbase import fields
from cardbase.catalog.cards import fetch_cards
from cardbase.cli.render import CARD_HEADERS
from cardbase.errors import CardbaseError
from cardbase.query import nodes as q
from cardbase.query.search import build_query, search
from tests.helpers import Run

OPTION_VALUES = {  # a value for each plain option that finds something in the mini catalogue
    "code": "1 U 15",
    "series": "1",
    "rarity": "u",
    "name": "chug",
    "type": "creature",
    "sphere": "nature",
    "trait": "chugawug",
    "cost": "2..4",
    "attack": ">=3",
    "defense": "3",
    "gems": "2..",
    "gem": "g",
    "text": "stun",
    "game": "free-realms",
    "condition": ">=lp",
    "language": "French",
    "location": "binder 1",
    "tag": "trade",
}


def test_every_plain_option_has_a_value_here() -> None:
    assert set(OPTION_VALUES) == {field.name for field in fields.OPTION_FIELDS}


@pytest.mark.parametrize(("option", "value"), OPTION_VALUES.items())
def test_each_plain_option_is_its_field_term(
    db_path, conn: sqlite3.Connection, option: str, value: str
) -> None:
    field = fields.FIELD_BY_NAME[option]
    if field.kind in fields.HOLDING_KINDS:  # copies for the copy terms to find
        from cardbase.collection.changes import Mode, Selector
        from cardbase.collection.items import change_items
        from cardbase.library import Library

        selector = Selector("NM", "fr", "Binder 1", "trade")
        change_items(Library(db_path), ["1 U 15"], Mode.ADD, selector=selector)
    quoted = f'"{value}"' if " " in value else value
    term = f"{option}{value}" if value.startswith((">", "<")) else f"{option}:{quoted}"
    by_option = [card.id for card in search(conn, build_query("", {option: value}))]
    by_term = [card.id for card in search(conn, build_query(term))]
    assert by_option == by_term
    assert by_option, f"--{field.name} {value} finds nothing, so the comparison is empty"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("trait", '"a b" or t:trick'),
        ("name", "chug or s:chaos"),
        ("text", "stun) or (is:hero"),
        ("name", "-chugawug"),
    ],
)
def test_an_option_value_cannot_add_a_clause(option: str, value: str) -> None:
    """`--trait '"a b" or t:trick'` searches traits for those words; it adds no `or`."""
    root = build_query("", {option: value}).root
    assert isinstance(root, q.TextMatch)
    assert root.describe().startswith(f"{option}:")


def test_an_option_value_that_adds_a_clause_finds_what_it_says(conn: sqlite3.Connection) -> None:
    tricks = search(conn, build_query("t:trick"))
    assert tricks
    assert search(conn, build_query("", {"trait": '"a b" or t:trick'})) == []


def test_a_bad_option_value_names_the_option_and_the_value() -> None:
    with pytest.raises(CardbaseError, match=r"^--cost 2\.\.x: expected a number, not 'x'"):
        build_query("", {"cost": "2..x"})


def test_json_keys_are_the_card_object(conn: sqlite3.Connection) -> None:
    card = fetch_cards(conn, limit=1)[0]
    assert tuple(card.to_dict()) == fields.JSON_KEYS


def test_csv_output_has_the_json_keys_as_its_header(db_path) -> None:
    """The JSON keys, the names in other languages spread over the catalogue's columns."""
    result = Run(db_path)("search", "chugawug", "-o", "csv")
    header = next(csv.reader(io.StringIO(result.stdout)))
    expected = [
        column
        for key in fields.JSON_KEYS
        for column in (fields.NAME_COLUMNS if key == "names" else (key,))
    ]
    assert header == expected


def test_table_headers_come_from_the_registry() -> None:
    assert tuple(field.table for field in fields.TABLE_FIELDS) == CARD_HEADERS
    assert "Atk/Def" in CARD_HEADERS


@pytest.mark.parametrize("catalogue", ["free-realms", "sample", "wildhearts"])
def test_the_catalogue_file_has_the_registry_columns(catalogue: str) -> None:
    from cardbase.catalog.choice import built_in

    with built_in(catalogue).open(encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert set(header) <= {*fields.CATALOGUE_COLUMNS, *fields.NAME_COLUMNS}
    assert set(fields.REQUIRED_COLUMNS) <= set(header)


def test_every_plain_option_is_on_search_collection_and_missing(db_path) -> None:
    """missing lists cards you have no copy of, so it takes no copy options."""
    run = Run(db_path)
    for command in ("search", "collection", "missing"):
        helped = run(command, "--help").stdout
        for field in fields.OPTION_FIELDS:
            if command == "missing" and field.kind in fields.HOLDING_KINDS:
                assert f"--{field.name}" not in helped, field.name
                continue
            assert f"--{field.name}" in helped, (command, field.name)


def test_missing_takes_the_filters(db_path) -> None:
    run = Run(db_path)
    assert run("add", "1 U 15").exit_code == 0
    shown = json.loads(run("missing", "--name", "chugawug elder", "-o", "json").stdout)
    assert shown == []
    foil = json.loads(run("missing", "--name", "chugawug elder", "--foil", "-o", "json").stdout)
    assert [card["code"] for card in foil] == ["1 U 15"]


def test_rarity_order_is_spelled_once() -> None:
    assert fields.RARITY_LETTERS[: len(fields.RANKED_RARITIES)] == fields.RANKED_RARITIES
    assert set(fields.RARITY_LETTERS) == set(fields.RARITY_NAMES)
