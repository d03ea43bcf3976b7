"""What one cell of a collection sheet says: text tidied, a count, a series, a totals row.

People's sheets hold numbers as text (" 3 "), floats where they typed whole numbers (3.0),
cells protected from formulas with an apostrophe, and 1 MB of pasted text; every reader of a
sheet's rows (import, deck lists in a sheet, trade lists) reads cells through these.
"""

from __future__ import annotations

import re
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.fileio.reading import unsafe_text
from cardbase.limits import MAX_CELL, MAX_COUNT
from cardbase.sheets.columns import fold

SHOWN_TEXT = 60  # characters of a cell quoted in a message
TOTAL_WORDS = frozenset({"total", "totals", "sum", "grandtotal", "subtotal"})
# "1,000" or "1.000": a thousand where the mark groups digits, one where it is a decimal point.
GROUPED = re.compile(r"\d{1,3}(?:[.,]\d{3})+")


def cell(row: list[Any], position: int | None) -> Any:
    """A cell's value; text longer than a spreadsheet cell holds is the row's problem."""
    if position is None or position >= len(row):
        return ""
    value = row[position]
    if value.__class__ is str and len(value) > MAX_CELL:
        raise CardbaseError(
            f"column {position + 1} has {len(value):,} characters, more than a spreadsheet "
            f"cell holds ({MAX_CELL:,})"
        )
    return unsafe_text(value) if value.__class__ is str and value[:1] == "'" else value


def text(value: Any) -> str:
    """A cell as one line of text: spaces collapsed, 3.0 as '3'."""
    if value.__class__ is str and "  " not in value and value.strip() == value:
        return value  # the usual cell: nothing to tidy
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def count(value: Any, column: str) -> int:
    """A count from a cell: 3, 3.0, "3" and " 3 " are three; blank is none.

    At most `MAX_COUNT`, the cap `add` has too: 1e30 copies is a typo, and would not fit in
    the database.
    """
    if value.__class__ is float and 0 <= value <= MAX_COUNT and value.is_integer():
        return int(value)  # the usual cell, as calamine reads numbers
    if value is None or value == "" or (isinstance(value, str) and not value.strip()):
        return 0
    if isinstance(value, bool):
        return int(value)
    number: float
    if isinstance(value, int | float):
        number = value
    else:
        if GROUPED.fullmatch(str(value).strip()):
            raise CardbaseError(
                f"{column} '{shorten(text(value))}' has a separator that may group thousands "
                "or mark decimals; write the count without it"
            )
        try:
            number = float(str(value).strip().replace(",", "."))
        except ValueError:
            raise CardbaseError(f"{column} '{shorten(str(value))}' is not a number") from None
    if number < 0 or not float(number).is_integer():
        raise CardbaseError(f"{column} '{shorten(text(value))}' must be a whole number, 0 or more")
    if number > MAX_COUNT:
        raise CardbaseError(
            f"{column} '{shorten(text(value))}' is more than {MAX_COUNT:,} copies; check the cell"
        )
    return int(number)


def shorten(value: str) -> str:
    """A cell's text as a message quotes it: a 1 MB cell must not become a 1 MB error."""
    return value if len(value) <= SHOWN_TEXT else value[: SHOWN_TEXT - 1] + "\u2026"


def blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _series_by_set_name() -> dict[str, int]:
    from cardbase.games import GAMES

    return {fold(name): series for game in GAMES.values()
            for series, name in game.set_names.items()}  # fmt: skip


SERIES_BY_SET_NAME = _series_by_set_name()


def series_of(value: Any) -> int | None:
    """A series from a Set column: 2, "2", "Series 2", or a printed set's name ("Shattered
    Past", any case); another name gives none (not an error: apps write their own)."""
    digits = "".join(ch for ch in text(value) if ch.isdigit())
    if digits:
        return int(digits) if len(digits) <= 3 else None
    return SERIES_BY_SET_NAME.get(fold(text(value)))


def is_total(value: Any) -> bool:
    """A totals row ("Total", "Grand total", "SUM") that people put under their lists."""
    return (
        isinstance(value, str) and value[:1].isalpha() and len(value) <= 16
        and fold(value) in TOTAL_WORDS
    )  # fmt: skip
