"""The field types: each reads back what it writes, and the registry's stored fields are what
the schema, `Card`, its row reader and the detail view are made of."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase import fields
from cardbase.catalog.cards import CODE_PARTS, Card, card_from_row, detail_lines, fetch_cards
from cardbase.db import models, tables
from cardbase.fieldtypes import (
    MAX_GEMS,
    MAX_STAT,
    TRAIT_SEPARATOR,
    Flag,
    Gems,
    Number,
    RowError,
    Traits,
    Words,
)

_WORD = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8)


def _through_a_sheet(field_type, stored):
    """A stored value as a card holds it, then as JSON, a sheet's cell, and read back."""
    attribute = eval(field_type.load.format("stored"), {"stored": stored})
    cell = field_type.cell(field_type.json(attribute))
    return field_type.parse("" if cell is None else str(cell), "column")


@given(st.none() | st.integers(0, MAX_STAT))
def test_a_number_reads_back(number) -> None:
    assert _through_a_sheet(Number(), number) == number


@given(st.booleans())
def test_a_flag_reads_back(flag) -> None:
    assert _through_a_sheet(Flag(), flag) is flag


@given(st.lists(st.lists(_WORD, min_size=1, max_size=3).map(" ".join), max_size=4))
def test_traits_read_back(traits) -> None:
    stored = TRAIT_SEPARATOR.join(traits)
    assert _through_a_sheet(Traits(), stored) == stored


@given(st.text("RGBY", max_size=MAX_GEMS))
def test_gems_read_back(gems) -> None:
    assert _through_a_sheet(Gems(), gems) == gems


@pytest.mark.parametrize(
    ("field_type", "text", "message"),
    [
        (Number(), "2.5", "cost '2.5' is not a whole number"),
        (Number(), str(MAX_STAT + 1), f"cost {MAX_STAT + 1} is out of range (0 to {MAX_STAT})"),
        (Flag(), "maybe", "cost 'maybe' is not yes or no"),
        (Gems(), "RX", "gems 'RX' has X; gems are R, G, B, Y"),
        (Gems(), "RRRRR", f"gems 'RRRRR' has 5 gems; a card has at most {MAX_GEMS}"),
        (Words(empty=False), "  ", "the cost is empty"),
    ],
)
def test_a_bad_cell_says_what_is_wrong(field_type, text, message) -> None:
    with pytest.raises(RowError) as raised:
        field_type.parse(text, "cost")
    assert str(raised.value) == message


def test_the_card_table_is_the_registry_stored_fields() -> None:
    stored = [field.key for field in fields.STORED_FIELDS]
    assert [c for c in tables.CARD_COLUMNS if c not in ("id", "name_key")] == [
        "game",
        *(key for key in stored if key != "game"),
    ]
    nullable = {c.name for c in models.CARD.columns if c.nullable}
    assert nullable == {f.key for f in fields.STORED_FIELDS if f.type and f.type.nullable}


def test_card_holds_every_stored_field_but_the_code_parts() -> None:
    held = {attribute.name for attribute in dataclasses.fields(Card)}
    stored = {field.key for field in fields.STORED_FIELDS}
    assert held - {"id", "code", "nonfoil", "foil", "values"} == stored - set(CODE_PARTS)


def test_a_card_reads_the_same_whatever_order_its_table_has(conn: sqlite3.Connection) -> None:
    """Reads name the columns: a table whose later columns came by upgrades (so sit last)
    reads as a new one does."""
    before = fetch_cards(conn)
    columns = ", ".join(reversed(tables.CARD_COLUMNS))
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute(f"CREATE TABLE card_reversed AS SELECT {columns} FROM card")
    conn.execute("DROP TABLE card")
    conn.execute("ALTER TABLE card_reversed RENAME TO card")
    assert fetch_cards(conn) == before


def test_the_detail_view_shows_each_detail_field_under_its_header(conn) -> None:
    card = next(card for card in fetch_cards(conn) if card.traits and card.cost is not None)
    card = dataclasses.replace(card, artist="Sam  Potts", lore="")
    labels = [label for label, _ in detail_lines(card)]
    assert "Artist" in labels and "Lore" not in labels  # a field without a value is left out
    shown = dict(detail_lines(card))
    assert shown["Traits"] == TRAIT_SEPARATOR.join(card.traits)
    assert shown["Gems"] == (f"{card.gems} ({len(card.gems)})" if card.gems else "none")


def test_card_from_row_reads_each_column_into_its_attribute() -> None:
    row = {
        "id": 7, "game": "free-realms", "series": 1, "rarity": "U", "number": 5,
        "name": "Chugawug Cook", "name_key": "chugawugcook", "type": "Creature",
        "hero": 1, "sphere": "Chaos", "traits": "Chugawug, Cook", "cost": 2,
        "attack": None, "defense": 4, "gems": None, "text": None, "lore": "l",
        "artist": "A", "names": "Koch",
    }  # fmt: skip
    card = card_from_row((*(row[column] for column in tables.CARD_COLUMNS), 3, 1))
    assert (card.id, str(card.code), card.hero, card.traits) == (
        7,
        "1 U 5",
        True,
        ("Chugawug", "Cook"),
    )
    assert (card.attack, card.gems, card.text, card.nonfoil, card.foil) == (None, "", "", 3, 1)
    assert card_from_row(tuple(row[column] for column in tables.CARD_COLUMNS)).owned == 0
