"""Editing a deck list as text, one click at a time.

The Deck Builder keeps the deck as the deck list a person would write (it is in the page,
editable, and what `deck check` and `deck save` read), so a click changes one line's count
and leaves every other line, comment and section as it was.
"""

from __future__ import annotations

from cardbase.catalog.cards import Card
from cardbase.db.engine import Connection
from cardbase.decks.check import place
from cardbase.decks.formats import Placed
from cardbase.decks.lists import MAIN, DeckLine, parse_deck_text
from cardbase.decks.saved import deck_text
from cardbase.limits import MAX_COUNT


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _joined(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n") + "\n" if any(line.strip() for line in lines) else ""


def bump(text: str, line: int, delta: int) -> str:
    """The deck with `delta` more copies on line `line` (1-based); at 0 the line goes."""
    lines = _lines(text)
    entry = next((e for e in parse_deck_text(text, "deck").lines if e.line == line), None)
    if entry is None:
        return text
    copies = min(entry.copies + delta, MAX_COUNT)
    if copies <= 0:
        del lines[line - 1]
    else:
        lines[line - 1] = f"{copies} {entry.card}"
    return _joined(lines)


def label(conn: Connection, card: Card) -> str:
    """How a new line names a card: as `deck save` writes it (a name, or a code where the
    name has several printings)."""
    written = deck_text(conn, [Placed(DeckLine(1, MAIN, 1, "", "", ""), card)])
    return written.strip().splitlines()[-1].split(" ", 1)[1]


def add_card(conn: Connection, text: str, card: Card) -> str:
    """One more copy of `card` in the main deck: on its line if it has one, else a new line
    after the main deck's last."""
    placed, _problems = place(conn, parse_deck_text(text, "deck"), card.game)
    for item in placed:
        if item.card.id == card.id and item.line.section == MAIN:
            return bump(text, item.line.line, 1)
    lines = _lines(text)
    mains = [item.line.line for item in placed if item.line.section == MAIN]
    others = any(item.line.section != MAIN for item in placed)
    at = max(mains) if mains else (0 if others else len(lines))
    lines.insert(at, f"1 {label(conn, card)}")
    return _joined(lines)
