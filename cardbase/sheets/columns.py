"""Which column of a messy spreadsheet means what: synonyms as data, and header detection.

People's sheets say "Card Name", "Qty", "Foil Qty", "Collector Number" or "Printing"; Moxfield,
Deckbox, ManaBox and Dragon Shield exports say it their own way. Each role below lists the
headers known to mean it; matching folds case, spaces and punctuation, and falls back to a
close fuzzy match for typos ("Quantiy"). Adding a synonym is adding a word here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from cardbase.errors import CardbaseError
from cardbase.similar import HEADER_CUTOFF, closest

SYNONYMS: dict[str, tuple[str, ...]] = {
    "code": ("code", "collector number", "collector no", "collector code", "card #", "card no",
             "card number", "no.", "#", "set number", "cn"),
    "name": ("name", "card", "card name", "title", "card title"),
    "nonfoil": ("qty", "quantity", "count", "owned", "regular", "non-foil", "nonfoil", "normal",
                "non foil", "have", "copies", "amount", "normal qty", "regular qty",
                "nonfoil qty", "non-foil qty"),
    "foil": ("foil", "foil qty", "foil count", "foils", "holo", "foil quantity", "holo qty"),
    "finish": ("finish", "printing", "foil?", "is foil", "foiling", "treatment"),
    "series": ("series", "set", "edition"),
    "condition": ("condition", "cond", "card condition"),
    "language": ("language", "lang", "card language"),
    "location": ("location", "folder", "binder", "storage", "stored in"),
    "tags": ("tags", "tag", "labels", "label"),
    "note": ("note", "notes", "comment", "comments"),
}  # fmt: skip
# The roles that say which copies a row holds rather than which card (attributes.py parses
# their values): a sheet without them lists Near Mint English copies, or the configured default.
ATTRIBUTE_ROLES = ("condition", "language", "location", "tags", "note")
# Values of a finish column, folded to lower case.
FINISH_VALUES: dict[str, str] = {
    "foil": "foil", "yes": "foil", "true": "foil", "x": "foil", "1": "foil", "holo": "foil",
    "y": "foil", "f": "foil", "foiled": "foil",
    "normal": "nonfoil", "no": "nonfoil", "false": "nonfoil", "0": "nonfoil", "": "nonfoil",
    "n": "nonfoil", "nonfoil": "nonfoil", "non-foil": "nonfoil", "regular": "nonfoil",
}  # fmt: skip
# Special foils that apps write in a finish column: foil, with the app's word kept as a tag
# (the value's tag here), so nothing is lost.
SPECIAL_FOILS: dict[str, str] = {
    "etched": "etched", "etched foil": "etched", "foil etched": "etched",
    "rainbow foil": "rainbow foil", "rainbow": "rainbow foil", "galaxy foil": "galaxy foil",
    "surge foil": "surge foil", "textured foil": "textured foil", "gilded foil": "gilded foil",
    "halo foil": "halo foil", "confetti foil": "confetti foil", "cold foil": "cold foil",
    "oil slick": "oil slick", "neon ink": "neon ink", "reverse holo": "reverse holo",
    "reverse holofoil": "reverse holo",
}  # fmt: skip
HEADER_SEARCH_ROWS = 30


def fold(text: Any) -> str:
    """A header folded for comparison: lower case, only letters, digits and # and ?."""
    return "".join(ch for ch in str(text).casefold() if ch.isalnum() or ch in "#?")


_FOLDED: dict[str, str] = {fold(word): role for role, words in SYNONYMS.items() for word in words}


class Columns(NamedTuple):
    """Where each role's column is (0-based), and the header row's index."""

    header_row: int
    positions: dict[str, int]
    headers: list[str]

    def has(self, role: str) -> bool:
        return role in self.positions


def role_of(header: Any) -> str | None:
    folded = fold(header)
    if not folded:
        return None
    if folded in _FOLDED:
        return _FOLDED[folded]
    found = closest(folded, list(_FOLDED), HEADER_CUTOFF)
    return _FOLDED[found] if found else None


# Two columns may not claim these: which one would be the card, the count, or its condition?
UNIQUE_ROLES = ("code", "name", "nonfoil", "foil", "finish", "condition", "language", "location")


def map_header(row: Sequence[Any], source: str = "") -> dict[str, int]:
    """Roles found in one row; a second column for a card or count role is an error."""
    positions: dict[str, int] = {}
    for position, cell in enumerate(row):
        role = role_of(cell) if isinstance(cell, str) else None
        if role is None:
            continue
        if role in positions:
            if role in UNIQUE_ROLES and source:
                first = str(row[positions[role]]).strip()
                raise CardbaseError(
                    f"{source}: columns '{first}' and '{str(cell).strip()}' both look like the "
                    f"{role} column; rename or remove one"
                )
            continue
        positions[role] = position
    return positions


def find_header(rows: Sequence[Sequence[Any]], source: str) -> Columns:
    """The first row, among the top few, that names a card column (name or code).

    Title rows, blank rows and notes above the table are skipped, as people put them there.
    """
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        positions = map_header(row)
        if "name" in positions or "code" in positions:
            positions = map_header(row, source)  # now that this is the header, insist
            return Columns(index, positions, [str(cell).strip() for cell in row])
    raise CardbaseError(
        f"{source}: no header row with a card name or code column in the first "
        f"{HEADER_SEARCH_ROWS} rows; name a column 'Name' or 'Code'"
    )
