"""Which copies a sheet's row holds: its condition, language, location, tags and note.

A row of a collection sheet names a card and counts copies; these columns say which copies
(`cardbase.sheets.columns.ATTRIBUTE_ROLES`). Their values are parsed as `add` parses its
options (`cardbase.collection.attributes`), so "Near Mint", "nm" and "NM" are one condition.
A blank cell, or no such column, means the collector's default condition and language, no
location and no tags. A sheet repeats a few values over thousands of rows, so each distinct
cell is parsed once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardbase.collection.attributes import (
    NO_LOCATION,
    parse_condition,
    parse_language,
    parse_location,
    parse_note,
    parse_tags,
    with_tags,
)
from cardbase.collection.changes import Selector
from cardbase.collection.plan import Defaults
from cardbase.errors import CardbaseError
from cardbase.sheets.cells import blank, cell, text
from cardbase.sheets.columns import fold
from cardbase.sheets.dialects import COMMON_CONDITIONS
from cardbase.sheets.header import Columns

TRADE_TAG = "trade"  # the tag a trade count's copies get (Moxfield's Tradelist Count)
PARSERS: dict[str, Callable[[str], str]] = {
    "condition": parse_condition,
    "language": parse_language,
    "location": parse_location,
    "tags": lambda value: parse_tags([value]),
}


def note_text(value: Any) -> str:
    """A note as written, line breaks kept; only the ends trimmed (`parse_note`)."""
    return parse_note(value if isinstance(value, str) else text(value))


class AttributeReader:
    """One sheet's attribute columns, each distinct cell parsed once."""

    def __init__(self, columns: Columns, defaults: Defaults) -> None:
        at = columns.positions
        self.positions = {role: at[role] for role in PARSERS if role in at}
        self.note = at.get("note")
        self.labels = {role: columns.headers[at[role]] or role for role in self.positions}
        self.condition, self.language = defaults.condition, defaults.language
        self.plain = Selector(self.condition, self.language, NO_LOCATION, "")
        self.any = bool(self.positions)  # False: every row holds plain copies
        self._parsed: dict[str, dict[Any, str]] = {role: {} for role in self.positions}
        self._selectors: dict[tuple[str, str, str, str], Selector] = {}
        self._notes: dict[str, str] = {}
        self._traded: dict[Selector, Selector] = {}
        dialect = columns.dialect
        self.words: dict[str, dict[str, str]] = {  # the app's own words, tried first
            "condition": {**COMMON_CONDITIONS, **(dialect.conditions if dialect else {})},
            "language": dialect.languages if dialect else {},
        }

    def selector(self, row: list[Any], special: str = "") -> Selector:
        """Which copies `row` holds; `special` is a tag its finish adds ("etched")."""
        if not self.any and not special:
            return self.plain
        condition = self._value(row, "condition") or self.condition
        language = self._value(row, "language") or self.language
        location = self._value(row, "location")
        tags = self._value(row, "tags")
        if special:
            tags = with_tags(tags, special)
        key = (condition, language, location, tags)
        found = self._selectors.get(key)
        if found is None:  # one object for the many rows with the same copies
            found = self._selectors[key] = Selector(*key)
        return found

    def traded(self, selector: Selector) -> Selector:
        """The same copies tagged for trade: a trade count's copies are held as these."""
        found = self._traded.get(selector)
        if found is None:
            tags = with_tags(selector.tags or "", TRADE_TAG)
            found = self._traded[selector] = selector._replace(tags=tags)
        return found

    def row_note(self, row: list[Any]) -> str | None:
        """The row's note; None when the sheet has no note column."""
        if self.note is None:
            return None
        note = note_text(cell(row, self.note))
        return self._notes.setdefault(note, note)  # "trade" on 30,000 rows is one string

    def _value(self, row: list[Any], role: str) -> str:
        position = self.positions.get(role)
        if position is None:
            return ""
        raw = cell(row, position)
        parsed = self._parsed[role]
        found = parsed.get(raw)
        if found is None:
            try:
                found = "" if blank(raw) else self._parse(role, text(raw))
            except CardbaseError as exc:
                raise CardbaseError(f"{self.labels[role]} column: {exc}") from None
            parsed[raw] = found
        return found

    def _parse(self, role: str, value: str) -> str:
        own = self.words.get(role)
        found = own.get(fold(value)) if own else None
        return found or PARSERS[role](value)
