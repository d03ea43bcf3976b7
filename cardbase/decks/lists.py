"""Deck lists as people write them, in text files or spreadsheets.

One entry a line (``3 Chugawug Cook``, ``3x Chugawug Cook``, ``Chugawug Cook x3``,
``3 1 C 14``, a bare name for one copy), ``#`` and ``//`` comments, blank lines, and section
headers such as ``Main:``, ``Side:``, ``Judge:``, ``Familiars:``, ``Fields:`` (or the word
alone on its line, as ``Sideboard`` in Arena's lists). Every entry
keeps its line number, so every message can point at the line to fix.

A tournament desk gets a folder of decks, so a deck may say whose it is and what it is for:
``Player: Ada`` and ``Format: wildhearts-ffa`` lines (a sheet's cells above its header say
the same). The format line is the deck's own, as a saved deck's format is.
"""

from __future__ import annotations

from typing import NamedTuple

from cardbase.catalog.entries import COMMENTS, EntryError, parse_entry

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
    "md": MAIN,
    "main board": MAIN,
    "sb": "side",
    "side board": "side",
    "judges": "judge",
    "judge cards": "judge",
}
# Lines that say something about the deck rather than list a card: "Player: Ada".
ABOUT_WORDS: dict[str, str] = {"player": "player", "format": "format", "event": "event"}
NO_DECK_NAMED = "an empty deck name: give a deck file, a saved deck's name or a folder of decks"
SHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv")
HEADER_LINES = 30  # lines of a .csv deck where its header row is looked for


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
    player: str | None = None  # from a "Player:" line, for the desk's report
    format: str | None = None  # from a "Format:" line: the deck's own format


def about_line(text: str) -> tuple[str, str] | None:
    """("player", "Ada") for "Player: Ada": a line about the deck, not a card."""
    head, colon, value = text.partition(":")
    key = ABOUT_WORDS.get(head.strip().lower())
    if not colon or key is None or not value.strip():
        return None
    return key, " ".join(value.split())


def section_of(text: str) -> str | None:
    """The section a header line opens ("Side:", "// Sideboard", "Familiars (2)"), or None."""
    word = text.strip().lstrip("/#").strip().rstrip(":").strip().lower()
    if "(" in word:
        word = word[: word.index("(")].strip()
    return SECTION_WORDS.get(word)


def parse_deck_text(text: str, source: str) -> DeckList:
    lines: list[DeckLine] = []
    problems: list[LineProblem] = []
    about: dict[str, str] = {}
    section = MAIN
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        said = about_line(line)
        if said is not None:
            about.setdefault(*said)
            continue
        header = section_of(line)
        if header:  # "Side:", "// Sideboard", or the word alone, as a sheet's row may hold it
            section = header
            continue
        if line.startswith(COMMENTS):
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
    return DeckList(source, lines, problems, about.get("player"), about.get("format"))


def format_deck(
    sections: dict[str, list[tuple[int, str]]], about: dict[str, str] | None = None
) -> str:
    """Deck text that `parse_deck_text` reads back: the lines about the deck ("Format:
    wildhearts-ffa"), then a header per section, then count and card."""
    out = [f"{key.title()}: {value}" for key, value in (about or {}).items() if value]
    for section, entries in sections.items():
        if not entries:
            continue
        if out:
            out.append("")
        out.append(f"{section.title()}:")
        out.extend(f"{copies} {card}" for copies, card in entries)
    return "\n".join(out) + "\n"
