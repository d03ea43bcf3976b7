"""Deck lists as people write them, in text files or spreadsheets.

One entry a line (``3 Chugawug Cook``, ``3x Chugawug Cook``, ``Chugawug Cook x3``,
``3 1 C 14``, a bare name for one copy), ``#`` and ``//`` comments, blank lines, and section
headers such as ``Main:``, ``Side:``, ``Judge:``, ``Familiars:``, ``Fields:``. Every entry
keeps its line number, so every message can point at the line to fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from cardbase.catalog.entries import EntryError, parse_entry
from cardbase.errors import CardbaseError
from cardbase.limits import MAX_DECK_FILE

MAIN = "main"
# Section headers people write, folded to lower case, and the section each means.
SECTION_WORDS: dict[str, str] = {
    "main": MAIN,
    "main deck": MAIN,
    "maindeck": MAIN,
    "deck": MAIN,
    "mainboard": MAIN,
    "side": "side",
    "side deck": "side",
    "sideboard": "side",
    "sidedeck": "side",
    "judge": "judge",
    "judge deck": "judge",
    "familiar": "familiars",
    "familiars": "familiars",
    "field": "fields",
    "fields": "fields",
}
SHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv")


class DeckLine(NamedTuple):
    line: int
    section: str
    copies: int
    card: str  # name or code as written
    whole: str  # the line without its count guess, for names that start with a number
    text: str


class LineProblem(NamedTuple):
    line: int
    text: str
    message: str


class DeckList(NamedTuple):
    source: str
    lines: list[DeckLine]
    problems: list[LineProblem]


def section_of(text: str) -> str | None:
    """The section a header line opens ("Side:", "// Sideboard", "Familiars (2)"), or None."""
    word = text.strip().lstrip("/#").strip().rstrip(":").strip().lower()
    if "(" in word:
        word = word[: word.index("(")].strip()
    return SECTION_WORDS.get(word)


def parse_deck_text(text: str, source: str) -> DeckList:
    lines: list[DeckLine] = []
    problems: list[LineProblem] = []
    section = MAIN
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        header = section_of(line)
        if header and (line.endswith(":") or line.startswith(("//", "#"))):
            section = header
            continue
        if line.startswith(("#", "//")):
            continue
        if line.endswith(":"):
            problems.append(
                LineProblem(
                    number,
                    line,
                    f"unknown section '{line[:-1]}'; "
                    f"use one of {', '.join(sorted(set(SECTION_WORDS.values())))}",
                )
            )
            continue
        try:
            entry = parse_entry(line)
        except EntryError as exc:
            problems.append(LineProblem(number, line, exc.reason))
            continue
        lines.append(DeckLine(number, section, entry.copies, entry.card, entry.whole, line))
    return DeckList(source, lines, problems)


def read_deck_file(path: Path) -> DeckList:
    """A deck from a text file or a spreadsheet; unreadable files raise `CardbaseError`.

    Only a regular file is read, at most `MAX_DECK_FILE` bytes of a text list.
    """
    from cardbase.sheets.bounded import read_bounded
    from cardbase.sheets.files import decode

    if (path.suffix.lower() in SHEET_SUFFIXES and path.suffix.lower() != ".csv") or _is_sheet_csv(
        path
    ):
        return _deck_from_sheet(path)
    text = decode(read_bounded(path, MAX_DECK_FILE, "deck list", noun="deck"), str(path))
    if not text.strip():
        raise CardbaseError(f"{path}: the deck list is empty")
    return parse_deck_text(text, path.name)


def _is_sheet_csv(path: Path) -> bool:
    """A .csv deck with a header row (Qty,Name) rather than plain deck lines."""
    from cardbase.sheets.bounded import read_bounded

    if path.suffix.lower() != ".csv":
        return False
    head = read_bounded(path, MAX_DECK_FILE, "deck list", head=200, noun="deck")
    first = head.decode("utf-8-sig", errors="replace").splitlines()
    return (bool(first) and "," in first[0]) or (bool(first) and ";" in first[0])


def _deck_from_sheet(path: Path) -> DeckList:
    from cardbase.sheets.importer import read_collection

    sheet = read_collection(path)
    lines = [
        DeckLine(
            row.row,
            MAIN,
            row.nonfoil + row.foil,
            row.code or row.name,
            row.code or row.name,
            row.code or row.name,
        )
        for row in sheet.rows
        if row.nonfoil + row.foil > 0
    ]
    problems = [LineProblem(0, "", problem) for problem in sheet.problems]
    return DeckList(sheet.source, lines, problems)


def format_deck(sections: dict[str, list[tuple[int, str]]]) -> str:
    """Deck text that `parse_deck_text` reads back: a header per section, then count and card."""
    out: list[str] = []
    for section, entries in sections.items():
        if not entries:
            continue
        if out:
            out.append("")
        out.append(f"{section.title()}:")
        out.extend(f"{copies} {card}" for copies, card in entries)
    return "\n".join(out) + "\n"
