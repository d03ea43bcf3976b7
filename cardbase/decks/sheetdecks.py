"""Deck lists kept in spreadsheets (xlsx, xls, ods, csv): the collection reader's card rows,
with sections and the lines about the deck; and `read_deck_file`, a deck from a file of
either kind, text list or sheet.

A Wildhearts deck is a main deck, Familiars, Fields, a side deck and a Judge Deck; a sheet
that loses them is checked as one 40-odd card main deck and fails. So a sheet says a card's
section the ways players write it: a Section column (``Main``, ``Side``, ``Sideboard``,
``SB``, ``Familiars`` ...), where a blank cell keeps the section above (a merged cell reads as
blank below its first row), or rows holding only a section's name, as a text list has
headers. Cells above the header say whose deck it is and for what (``Player: Ada``, or
``Player`` beside ``Ada``).

Cards and counts are read by `cardbase.sheets.rows`, as the import reads them, so a deck
sheet means the same to every command.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

from cardbase.decks.lists import (
    ABOUT_WORDS,
    HEADER_LINES,
    MAIN,
    SECTION_WORDS,
    SHEET_SUFFIXES,
    DeckLine,
    DeckList,
    LineProblem,
    about_line,
    parse_deck_text,
    section_of,
)
from cardbase.errors import CardbaseError, SheetError
from cardbase.fileio.reading import stream_sheets
from cardbase.limits import MAX_DECK_FILE
from cardbase.sheets.cells import blank, cell, shorten, text
from cardbase.sheets.columns import fold
from cardbase.sheets.header import Columns, find_header
from cardbase.sheets.rows import rows_from_sheet, sheet_source

# Headers of the column that says a card's section, folded as `columns.fold` folds them.
SECTION_HEADERS = frozenset(
    fold(word) for word in ("section", "sections", "board", "zone", "deck section", "part")
)
MAX_DECK_ROWS = 10_000  # rows of a deck sheet: no deck is longer; a bigger sheet is not a deck


def read_deck_sheet(path: Path) -> DeckList:
    """The first sheet with a card column, as a deck list numbered by spreadsheet rows."""
    problem: CardbaseError | None = None
    for sheet in stream_sheets(path):
        source = sheet_source(path, sheet.name)
        rows = [*sheet.head, *islice(sheet.rest, MAX_DECK_ROWS)]
        if next(sheet.rest, None) is not None:
            raise SheetError(f"{source}: more than {MAX_DECK_ROWS:,} rows; a deck is shorter")
        try:
            columns = find_header(rows, source)
        except CardbaseError as exc:
            problem = problem or exc
            continue
        return _deck(rows, columns, source)
    raise problem or SheetError(f"{path}: no sheets")


def _deck(rows: list[list[Any]], columns: Columns, source: str) -> DeckList:
    header = columns.header_row
    at = next((i for i, h in enumerate(columns.headers) if fold(h) in SECTION_HEADERS), None)
    sections, heads, problems = _sections(rows, header, at, source)
    below = [[] if index in heads else row for index, row in enumerate(rows) if index > header]
    sheet = rows_from_sheet(below, columns, source)
    lines = []
    for row in sheet.rows:
        copies = row.nonfoil + row.foil
        section = sections.get(row.row - 1, MAIN)
        if copies > 0 and section:
            card = row.code or row.name
            lines.append(DeckLine(row.row, section, copies, card, card, card))
    problems += [LineProblem(0, "", problem) for problem in sheet.problems]
    about = _about(rows[:header])
    return DeckList(source, lines, problems, about.get("player"), about.get("format"))


def _sections(
    rows: list[list[Any]], header: int, at: int | None, source: str
) -> tuple[dict[int, str], set[int], list[LineProblem]]:
    """Each row's section by row index ("" for a row whose section is unknown), the indexes
    of rows that only name a section, and the problems with Section cells."""
    sections: dict[int, str] = {}
    heads: set[int] = set()
    problems: list[LineProblem] = []
    current = MAIN
    for index in range(header + 1, len(rows)):
        row = rows[index]
        filled = [value for value in row if not blank(value)]
        if len(filled) == 1 and isinstance(filled[0], str) and section_of(filled[0]):
            current = section_of(filled[0]) or MAIN
            heads.add(index)
            continue
        said = text(cell(row, at)) if at is not None else ""
        if said:
            found = section_of(said)
            if found is None:
                known = ", ".join(sorted(set(SECTION_WORDS.values())))
                message = f"{source}, row {index + 1}: section '{shorten(said)}' is not one of"
                problems.append(LineProblem(0, "", f"{message} {known}"))
                sections[index] = ""
                continue
            current = found
        sections[index] = current
    return sections, heads, problems


def _about(rows: list[list[Any]]) -> dict[str, str]:
    """What the cells above the header say about the deck: "Player: Ada", or "Player" | "Ada"."""
    about: dict[str, str] = {}
    for row in rows:
        filled = [text(value) for value in row if not blank(value)]
        if not filled:
            continue
        said = about_line(filled[0])
        key = ABOUT_WORDS.get(filled[0].rstrip(":").strip().lower())
        if said is None and key is not None and len(filled) > 1:
            said = key, filled[1]
        if said is not None:
            about.setdefault(*said)
    return about


def read_deck_file(path: Path) -> DeckList:
    """A deck from a text file or a spreadsheet; unreadable files raise `CardbaseError`.

    Only a regular file is read, at most `MAX_DECK_FILE` bytes of a text list.
    """
    from cardbase.fileio.bounded import read_bounded
    from cardbase.fileio.reading import decode

    if (path.suffix.lower() in SHEET_SUFFIXES and path.suffix.lower() != ".csv") or _is_sheet_csv(
        path
    ):
        return read_deck_sheet(path)
    text = decode(read_bounded(path, MAX_DECK_FILE, "deck list", noun="deck"), str(path))
    if not text.strip():
        raise CardbaseError(f"{path}: the deck list is empty")
    return parse_deck_text(text, path.name)


def _is_sheet_csv(path: Path) -> bool:
    """A .csv deck with a header row (Qty,Name), perhaps below "Player: Ada" lines, rather
    than plain deck lines: some line near the top splits into cells naming a card column."""
    import csv

    from cardbase.fileio.bounded import read_bounded
    from cardbase.sheets.header import map_header

    if path.suffix.lower() != ".csv":
        return False
    head = read_bounded(path, MAX_DECK_FILE, "deck list", head=4000, noun="deck")
    for line in head.decode("utf-8-sig", errors="replace").splitlines()[:HEADER_LINES]:
        for delimiter in ",;\t":
            cells = next(csv.reader([line], delimiter=delimiter), [])
            if len(cells) > 1 and {"name", "code"} & set(map_header(cells)[0]):
                return True
    return False
