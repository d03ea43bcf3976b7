"""A sheet's header row found and read: each column's role, and every other column named.

The header is the first of the top rows that names a card column. Each column then gets a
role from `cardbase.sheets.columns`, or is listed as ignored; none is dropped without a word.
A column no role claims whose header or values look like a count, finish or condition
("Foil Qyt", a column of "near mint") is an error naming it: left out, it would lose copies
or read them wrongly without anyone noticing. A "Foil" column is a count in one app and a
finish in another, so its values decide which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from cardbase.errors import CardbaseError
from cardbase.sheets.cells import blank
from cardbase.sheets.columns import (
    FINISH_WORDS,
    HEADERS,
    KNOWN,
    RANKS,
    SUSPECT_WORDS,
    fold,
)
from cardbase.sheets.dialects import Dialect, dialect_of
from cardbase.similar import HEADER_CUTOFF, WORD_CUTOFF, closest

HEADER_SEARCH_ROWS = 30
# How the summary names what a column was read as.
ROLE_NAMES = {
    "code": "card code or number", "name": "card name", "nonfoil": "copies",
    "foil": "foil copies", "finish": "finish", "series": "series", "condition": "condition",
    "language": "language", "location": "location", "tags": "tags", "note": "note",
    "trade": "copies for trade", "playset": "playsets of four",
    "kind": "owned, or a wish list's", "game": "game",
}  # fmt: skip
# Two columns may not claim these: which one would be the card, the count, or its condition?
UNIQUE_ROLES = ("code", "name", "nonfoil", "foil", "finish", "series", "condition", "language",
                "location", "trade", "playset", "kind", "game")  # fmt: skip
# Columns whose header says "foil" but not whether it counts copies or names a finish.
EITHER_FOIL = frozenset({fold("foil"), fold("holo")})
# Words a value of a finish column has that a column of anything else would not.
DISTINCT_FINISHES = frozenset(fold(word) for word in FINISH_WORDS) - {
    "x",
    "y",
    "f",
    "n",
    "true",
    "false",
    "yes",
    "no",
}
NOT_SUSPECT = ("price", "date", "value", "cost", "id")  # "Foil Price" is a price
# How near an unknown header over whole numbers must be to a count or finish word to be taken
# for its misspelling ('Cuont' is 80 from 'count'; 'Folio', 89 from 'foil', only over numbers).
MISSPELT_CUTOFF = 75.0
# The headers a misspelling is judged against besides those words ('Qunatity': 'quantity').
_COUNT_ROLES = (("count", "nonfoil"), ("foil count or finish", "foil"))


class NoHeader(CardbaseError):
    """A sheet with no header row: skipped in a workbook of several sheets."""


class Columns(NamedTuple):
    """Where each role's column is (0-based), the header row's index, and what was left."""

    header_row: int
    positions: dict[str, int]
    headers: list[str]
    ignored: tuple[str, ...] = ()
    dialect: Dialect | None = None  # the app whose words the values are in, where it matters
    # A "Foil" column blank in the top rows: each value says whether it counts or names.
    loose_foil: bool = False
    # A set's name beside its code (Cardmarket's Exp. Name): read where the code is blank.
    spare_series: int | None = None

    def has(self, role: str) -> bool:
        return role in self.positions

    def read(self) -> dict[str, str]:
        """Each column read, by its header, and what it was read as."""
        by_position = sorted((position, role) for role, position in self.positions.items())
        return {self.headers[position] or f"column {position + 1}": ROLE_NAMES[role]
                for position, role in by_position}  # fmt: skip


def role_of(header: Any) -> tuple[str, int] | None:
    """(role, rank) for a header, the rank saying how readily it gives way to another column
    of its role (`RANKS`); role '' is a known column that is ignored; None is a column nobody
    knows."""
    folded = fold(header)
    if not folded:
        return None
    found = KNOWN.get(folded)
    if found is None:
        near = closest(folded, list(KNOWN), HEADER_CUTOFF)
        if near is None:
            return None
        folded, found = near, KNOWN[near]
    return found[0], RANKS.get(folded, 0)


def map_header(row: Sequence[Any], source: str = "") -> tuple[dict[str, int], list[int]]:
    """Roles found in one row, and the positions of columns left out; with `source`, two
    columns claiming one card or count role at the same rank are an error."""
    positions: dict[str, int] = {}
    ranks: dict[str, int] = {}
    ignored: list[int] = []
    for position, value in enumerate(row):
        found = role_of(value) if isinstance(value, str) else None
        if found is None or not found[0]:
            ignored.append(position)
            continue
        role, rank = found
        if role in positions:
            if rank > ranks[role]:
                ignored.append(position)
                continue
            if rank == ranks[role] and role in UNIQUE_ROLES and source:
                first = str(row[positions[role]]).strip()
                raise CardbaseError(
                    f"{source}: columns '{first}' and '{str(value).strip()}' both look like the "
                    f"{ROLE_NAMES[role]} column; rename or remove one"
                )
            if rank == ranks[role]:
                ignored.append(position)
                continue
            ignored.append(positions[role])
        positions[role], ranks[role] = position, rank
    return positions, sorted(ignored)


def find_header(rows: Sequence[Sequence[Any]], source: str) -> Columns:
    """The first row, among the top few, that names a card column (name or code), read.

    Title rows, blank rows and notes above the table are skipped, as people put them there.
    """
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        positions, _ = map_header(row)
        if "name" in positions or "code" in positions:
            return _read_header(rows, index, source)
    raise NoHeader(
        f"{source}: no header row with a card name or code column in the first "
        f"{HEADER_SEARCH_ROWS} rows; name a column 'Name' or 'Code'"
    )


def _read_header(rows: Sequence[Sequence[Any]], index: int, source: str) -> Columns:
    row = rows[index]
    headers = [str(cell).strip() if cell is not None else "" for cell in row]
    below = rows[index + 1 : HEADER_SEARCH_ROWS + index + 1]
    positions, left = map_header(row, source)  # now that this is the header, insist
    foil = positions.get("foil")
    either = foil is not None and fold(headers[foil]) in EITHER_FOIL
    if foil is not None and either and _words(below, foil):
        if "finish" in positions:
            raise CardbaseError(
                f"{source}: columns '{headers[positions['finish']]}' and '{headers[foil]}' both "
                "name the finish; remove one"
            )
        positions["finish"] = positions.pop("foil")
    ignored = []
    width = max((len(r) for r in below), default=0)  # cells may go past the header row
    for position in [*left, *range(len(headers), width)]:
        header = headers[position] if position < len(headers) else ""
        values = [r[position] for r in below if position < len(r)]
        if role_of(header) is None:
            _check_unknown(header, values, source, position)
        if header:
            ignored.append(header)
        elif not all(blank(value) for value in values):
            ignored.append(f"column {position + 1}")  # values under no header: named too
    loose = either and "foil" in positions and _blank(below, positions["foil"])
    spare = next((p for p in left if (role_of(headers[p]) or ("",))[0] == "series"), None)
    return Columns(index, positions, headers, tuple(ignored), dialect_of(headers), loose, spare)


def _words(rows: Sequence[Sequence[Any]], position: int) -> bool:
    """Whether a column's values are finish words ("foil", "etched") rather than counts."""
    for row in rows:
        value = row[position] if position < len(row) else None
        if isinstance(value, str) and value.strip():
            try:
                float(value.strip().replace(",", "."))
            except ValueError:
                return True
    return False


def _blank(rows: Sequence[Sequence[Any]], position: int) -> bool:
    return all(position >= len(row) or blank(row[position]) for row in rows)


def _check_unknown(header: str, values: list[Any], source: str, position: int) -> None:
    """Refuse a column nobody knows that looks like a count, finish or condition."""
    folded = fold(header)
    what = None
    if folded and not any(word in folded for word in NOT_SUSPECT):
        what = next((kind for kind, words in SUSPECT_WORDS.items()
                     if any(word in folded for word in words)), None)  # fmt: skip
    words = {fold(value) for value in values if isinstance(value, str) and value.strip()}
    if what is None and folded and _counts(values):
        what = _misspelt(folded)  # 'Cuont' over numbers: a count column, mistyped
    if what is None and words and all(_is_finish(word) for word in words):
        what = "finish"
    if what is None and words and _conditions(words):
        what = "condition"
    if what is None:
        return
    choices = [word for role, known in HEADERS.items() for word in known if role != "code"]
    guess = closest(header, choices, WORD_CUTOFF) if header else None
    hint = f" (did you mean '{guess.title()}'?)" if guess else ""
    named = f"column '{header}'" if header else f"column {position + 1} (no header)"
    raise CardbaseError(
        f"{source}: {named} looks like a {what} column, but cardbase does not know "
        f"it{hint}; rename it to a header cardbase reads, or remove the column"
    )


def _misspelt(folded: str) -> str | None:
    """The kind of column a header is a misspelling of (`cuont`: a count), judged against the
    words that mark count and finish columns; None when it is near none of them."""
    kinds = {word: kind for kind, words in SUSPECT_WORDS.items() for word in words}
    kinds |= {fold(header): kind for kind, role in _COUNT_ROLES for header in HEADERS[role]}
    near = closest(folded, [word for word in kinds if len(word) >= 4], MISSPELT_CUTOFF)
    return kinds[near] if near else None


def _counts(values: list[Any]) -> bool:
    """Whether a column holds whole numbers and blanks only, at least one number."""
    numbers = [value for value in values if not blank(value)]
    return bool(numbers) and all(
        isinstance(value, int | float) or (isinstance(value, str) and value.strip().isdigit())
        for value in numbers
    )


def _is_finish(word: str) -> bool:
    return word in DISTINCT_FINISHES or word.endswith("foil")


def _conditions(words: set[str]) -> bool:
    from cardbase.collection.attributes import CONDITION_SYNONYMS

    return all(word in CONDITION_SYNONYMS for word in words) and any(len(w) > 3 for w in words)
