"""A saved deck's versions: every save is one, numbered from 1, and none is ever lost.

A player tunes a deck over weeks and wants last Saturday's list back, or to see what the
last three saves changed; so `deck history` lists them with what each changed from the one
before, `deck diff` reads ``NAME@N`` as version N, and `deck restore` saves an old version
again as the newest (the versions in between stay, so a restore can be restored past).
"""

from __future__ import annotations

import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from cardbase.catalog.cards import cards_by_id
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.decks.diff import deck_diff
from cardbase.decks.formats import Placed
from cardbase.decks.lists import DeckLine
from cardbase.decks.saved import Entry, SavedDeck, find_deck, write_entries
from cardbase.errors import CardbaseError, Remedy, shorten

AT = "@"  # NAME@N: version N of a saved deck


class Version(NamedTuple):
    number: int
    saved_at: str
    format: str
    cards: int
    added: int  # cards (names in a section) the version added to the one before
    removed: int
    changed: int  # cards whose count changed

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


class Restored(NamedTuple):
    deck: SavedDeck
    restored: int  # the version whose cards were saved again
    number: int  # the new latest version they are

    def to_dict(self) -> dict[str, object]:
        return {"deck": self.deck.name, "restored": self.restored, "version": self.number,
                "cards": self.deck.cards, "format": self.deck.format}  # fmt: skip


def is_version(where: str) -> bool:
    """`NAME@N` names a version, unless a file of that name is there (a file wins, as a
    file wins over a saved deck of the same name)."""
    return AT in where and not Path(where).exists()


def split_version(conn: Connection, where: str) -> tuple[SavedDeck, int]:
    """The saved deck and version number `NAME@N` names; a number that is not one of the
    deck's versions is refused naming those there are."""
    name, _, number = where.rpartition(AT)
    deck = find_deck(conn, name)
    return deck, version_number(conn, deck, number)


def version_number(conn: Connection, deck: SavedDeck, text: str) -> int:
    numbers = [number for number, *_ in _versions(conn, deck)]
    there = f"'{deck.name}' has versions 1 to {numbers[-1]}" if numbers else "none"
    how = Remedy(f"{there}; 'cardbase deck history {shlex.quote(deck.name)}' lists them",
                 f"{there}; the deck's History lists them")  # fmt: skip
    token = shorten(text, 20)
    if not text.strip().isdigit():
        raise CardbaseError(f"'{AT}{token}': a version is a number, as in '{deck.name}{AT}2'", how)
    number = int(text)
    if number not in numbers:
        raise CardbaseError(f"'{AT}{token}': '{deck.name}' has no version {number}", how)
    return number


def _versions(conn: Connection, deck: SavedDeck) -> list[tuple[int, int, str, str]]:
    """(number, id, format, saved at) of each version, oldest first."""
    rows = conn.execute(
        f"SELECT number, id, format, saved_at FROM {tables.DECK_VERSION_TABLE} "
        "WHERE deck_id = ? ORDER BY number",
        (deck.id,),
    ).fetchall()
    return [(int(n), int(i), str(f), str(s)) for n, i, f, s in rows]


def _entries(conn: Connection, version_id: int) -> list[Entry]:
    rows = conn.execute(
        f"SELECT section, card_id, copies, line FROM {tables.DECK_VERSION_ENTRY_TABLE} "
        "WHERE version_id = ? ORDER BY line, id",
        (version_id,),
    ).fetchall()
    return [(str(s), int(c), int(n), int(line)) for s, c, n, line in rows]


def _placed(conn: Connection, entries: list[Entry]) -> list[Placed]:
    cards = cards_by_id(conn, {card_id for _, card_id, _, _ in entries})
    return [
        Placed(DeckLine(line, section, copies, str(cards[card_id].code), cards[card_id].name,
                        f"{copies} {cards[card_id].name}"), cards[card_id])
        for section, card_id, copies, line in entries
    ]  # fmt: skip


def version_placed(conn: Connection, where: str) -> tuple[str, list[Placed]]:
    """`NAME@N`'s label (the deck's own spelling) and cards."""
    deck, number = split_version(conn, where)
    version_id = next(i for n, i, _, _ in _versions(conn, deck) if n == number)
    return f"{deck.name}{AT}{number}", _placed(conn, _entries(conn, version_id))


def history(conn: Connection, name: str) -> tuple[SavedDeck, list[Version]]:
    """The deck's versions, oldest first, each with what it changed from the one before
    (the first: every card added)."""
    deck = find_deck(conn, name)
    found: list[Version] = []
    before: list[Placed] = []
    for number, version_id, fmt, saved_at in _versions(conn, deck):
        placed = _placed(conn, _entries(conn, version_id))
        kinds = [change.kind for change in deck_diff(before, placed)]
        cards = sum(p.line.copies for p in placed)
        found.append(Version(number, saved_at, fmt, cards, kinds.count("added"),
                             kinds.count("removed"), kinds.count("changed")))  # fmt: skip
        before = placed
    return deck, found


def restore(db: Database, name: str, number: str | int) -> Restored:
    """Version `number`'s cards and format saved as the deck's newest version, in one
    transaction; the versions before stay as they were."""
    with db.writing() as conn:
        deck = find_deck(conn, name)
        chosen = version_number(conn, deck, str(number))
        _, version_id, fmt, _ = next(v for v in _versions(conn, deck) if v[0] == chosen)
        entries = _entries(conn, version_id)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        saved = deck._replace(format=fmt, cards=sum(e[2] for e in entries), updated_at=now)
        made = write_entries(conn, saved, entries)
    return Restored(saved, chosen, made)
