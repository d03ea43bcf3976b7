"""One row's card and copies from a sheet's columns: its code, series, counts and finish.

Apps say the same things differently: a finish as "foil", "Foil", "Yes" (MTGO's Premium), "X"
(Cardmarket), "1" (deckstats) or "Double Rainbow Foil" (Dragon Shield); a card as a set code
beside a card number, or MTGO's "116/350"; copies for trade as a count beside the owned one.
`RowReader` reads each of those as it meant, and each distinct cell's meaning once: a sheet
repeats a few values over thousands of rows.
"""

from __future__ import annotations

import re
from typing import Any

from cardbase.codes import looks_like_code
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL
from cardbase.games import GAMES, game_of_prefix
from cardbase.sheets.cells import blank, cell, count, series_of, shorten, text
from cardbase.sheets.columns import FINISH_VALUES, SPECIAL_FOILS
from cardbase.sheets.header import Columns
from cardbase.text import plural

PLAYSET = 4  # copies in one of Cardmarket's playset articles
# A number "of" a set's size, as MTGO writes it: 116/350 is card 116.
_NUMBER_OF = re.compile(r"\s*([0-9]+)\s*/\s*[0-9]+\s*")


class RowReader:
    """One sheet's columns by role, with positions and header labels looked up once."""

    def __init__(self, columns: Columns) -> None:
        at = columns.positions
        self.code, self.name = at.get("code"), at.get("name")
        self.nonfoil, self.foil = at.get("nonfoil"), at.get("foil")
        self.finish, self.set = at.get("finish"), at.get("series")
        self.trade, self.playset = at.get("trade"), at.get("playset")
        self.game = at.get("game")
        self.spare = columns.spare_series
        self.labels = {role: columns.headers[position] or role for role, position in at.items()}
        self.quantities = self.nonfoil is not None or self.foil is not None
        self._series: dict[Any, int | None] = {}  # "Series 16" is on thousands of rows
        self._codes: dict[Any, str] = {}  # what a set column holds when it holds a whole code
        self._finishes: dict[Any, tuple[str, str]] = {}
        self.loose = columns.loose_foil

    def code_of(self, row: list[Any]) -> str:
        """The row's code or card number, with its game's prefix where a Game column says
        it (``wildhearts:1 C 41``, as `NameResolver.in_game` reads it)."""
        code = self._code_of(row)
        game = text(cell(row, self.game)) if self.game is not None else ""
        if not game or not code or code.isdigit() or ":" in code:
            return code
        if game_of_prefix(game) is None:
            raise CardbaseError(f"{self.labels['game']} '{shorten(game)}' is not a game "
                                f"cardbase has; its games are {', '.join(GAMES)}")  # fmt: skip
        return f"{game}:{code}"

    def _code_of(self, row: list[Any]) -> str:
        """MTGO's 116/350 is 116; a whole code may stand in the set column when the number
        column is blank."""
        code = text(cell(row, self.code))
        if "/" in code:
            number = _NUMBER_OF.fullmatch(code)
            return number[1] if number else code
        if not code and self.set is not None:
            raw = cell(row, self.set)
            found = self._codes.get(raw)
            if found is None:
                value = text(raw)
                found = self._codes[raw] = value if looks_like_code(value) else ""
            return found
        return code

    def counts(self, row: list[Any]) -> tuple[int, int, str, int]:
        """(non-foil, foil) copies a row holds, the tag a special foil keeps ("etched"), and
        how many of the copies are for trade (never more than the row holds)."""
        if not self.quantities:
            copies = 1  # a plain list of cards: one copy a row
        elif self.nonfoil is None:
            copies = 0
        else:
            copies = count(cell(row, self.nonfoil), self.labels["nonfoil"])
        if self.foil is None:
            foil = 0
        elif not self.loose:
            foil = count(cell(row, self.foil), self.labels["foil"])
        else:
            foil = self._foil(cell(row, self.foil))
            if foil < 0:  # a finish word, not a count: -1 foil, -2 not
                copies, foil = (0, copies) if foil == -1 else (copies, 0)
        if self.playset is not None and self._flag(row, self.playset, "playset"):
            copies, foil = copies * PLAYSET, foil * PLAYSET
        special = ""
        if self.finish is not None:
            finish, special = self._finish(cell(row, self.finish), "finish")
            if finish == FOIL:
                copies, foil = 0, copies + foil
        if self.trade is None:
            return copies, foil, special, 0
        trade = count(cell(row, self.trade), self.labels["trade"])
        if trade > copies + foil:  # it was capped without a word
            raise CardbaseError(
                f"{self.labels['trade']} {trade} is more than the row's "
                f"{plural(copies + foil, 'copy', 'copies')}; a row trades only copies it holds"
            )
        return copies, foil, special, trade

    def _foil(self, value: Any) -> int:
        """A loose "Foil" column's cell: a count, or a finish word as -1 (foil) or -2 (not)."""
        if value.__class__ is not str or not value.strip():
            return count(value, self.labels["foil"])
        try:
            return count(value, self.labels["foil"])
        except CardbaseError:
            finish, _ = self._finish(value, "foil")
            return -1 if finish == FOIL else -2

    def series(self, row: list[Any]) -> int | None:
        if self.set is None:
            return None
        value = cell(row, self.set)
        if value not in self._series:
            self._series[value] = series_of(value) or None
        found = self._series[value]
        if found is None and self.spare is not None and blank(value):
            return self._series.setdefault(cell(row, self.spare), series_of(cell(row, self.spare)))
        return found

    def _finish(self, value: Any, role: str) -> tuple[str, str]:
        """(finish, tag) for a finish cell: special foils are foil, tagged with their name."""
        found = self._finishes.get(value)
        if found is None:
            found = self._finishes[value] = finish_of(text(value), self.labels[role])
        return found

    def _flag(self, row: list[Any], position: int, role: str) -> bool:
        value = text(cell(row, position)).lower()
        meaning = FINISH_VALUES.get(value)
        if meaning is None:
            raise CardbaseError(f"{self.labels[role]} '{shorten(value)}' is not X or blank")
        return meaning == FOIL


def finish_of(value: str, label: str) -> tuple[str, str]:
    """What a finish column's cell means: ('foil' or 'nonfoil', a special foil's tag)."""
    word = value.lower()
    if word in SPECIAL_FOILS:
        return FOIL, SPECIAL_FOILS[word]
    if word in FINISH_VALUES:
        return FINISH_VALUES[word], ""
    if "foil" in word:  # "Step and Compleat Foil": a foil all the same, its name kept
        return FOIL, " ".join(word.split())
    raise CardbaseError(
        f"{label} '{shorten(value)}' is not a finish cardbase knows: use foil, normal, or a "
        f"special foil such as etched (blank is {NONFOIL})"
    )
