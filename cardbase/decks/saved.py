"""Saved decks: kept in the database by name, read back as deck lists.

A saved deck stores each entry's card (by id), section, copies and original line number, so
`cardbase deck check NAME` reads it exactly as `deck check FILE` read the file. Decks belong
to a collector; a collector's deck names are unique ignoring case and spacing, follow the
rule for every name people give (`cardbase.naming`), and a new one may not look like
another of the collector's decks ('Bog Stew', and 'Bog Stew' with a Cyrillic VE, U+0412).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from cardbase.catalog.cards import Card, cards_by_id, cards_named, name_key
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.decks.formats import Placed
from cardbase.decks.lists import DeckLine, DeckList, format_deck
from cardbase.errors import CardbaseError, Face, NotFoundError, Remedy, shorten
from cardbase.naming import clean, refuse_mixed_script, skeleton
from cardbase.similar import NAME_CUTOFF, closest


class DeckExistsError(CardbaseError):
    """A saved deck has the name already. It carries the names, so that each face asks in
    its own words: the command line names --force, the page asks "Replace it?" beside a
    Replace button that saves again with `replace`."""

    def __init__(self, name: str, existing: str) -> None:
        same = (
            ""
            if existing == name
            else f" (the deck '{existing}': names match whatever their case, accents and spacing)"
        )
        super().__init__(f"a deck named '{name}' exists{same}",
                         Remedy("add --force to replace it", "Replace it?"))  # fmt: skip
        self.name = name
        self.existing = existing

    def said(self, face: Face = "cli") -> str:
        assert isinstance(self.hint, Remedy)
        return f"{self.message}{'; ' if face == 'cli' else '. '}{self.hint.said(face)}"


class SavedDeck(NamedTuple):
    id: int
    name: str
    format: str
    cards: int
    updated_at: str

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


def list_decks(conn: Connection) -> list[SavedDeck]:
    rows = conn.execute(
        f"SELECT d.id, d.name, d.format, coalesce(sum(e.copies), 0), d.updated_at "
        f"FROM {tables.DECK_TABLE} AS d LEFT JOIN {tables.DECK_ENTRY_TABLE} AS e "
        f"ON e.deck_id = d.id WHERE d.collector_id = (SELECT id FROM {tables.MY_COLLECTOR}) "
        f"GROUP BY d.id ORDER BY d.name_key{conn.engine.byte_order}, d.name{conn.engine.byte_order}"
    )
    return [SavedDeck(*row) for row in rows]


def find_deck(conn: Connection, name: str) -> SavedDeck:
    decks = list_decks(conn)
    for deck in decks:
        if name_key(deck.name) == name_key(name):
            return deck
    close = closest(name, [deck.name for deck in decks], NAME_CUTOFF)
    listed = Remedy("'cardbase deck list' shows the saved decks",
                    "the Deck Builder lists them under Saved decks")  # fmt: skip
    raise NotFoundError(
        f"no deck file or saved deck named '{name}'", f"Did you mean {close}?" if close else listed
    )


def saved_placed(conn: Connection, deck: SavedDeck) -> list[Placed]:
    rows = conn.execute(
        f"SELECT section, card_id, copies, line FROM {tables.DECK_ENTRY_TABLE} "
        "WHERE deck_id = ? ORDER BY line, id",
        (deck.id,),
    ).fetchall()
    cards = cards_by_id(conn, (row[1] for row in rows))
    return [
        Placed(
            DeckLine(
                line,
                section,
                copies,
                str(cards[card_id].code),
                cards[card_id].name,
                f"{copies} {cards[card_id].name}",
            ),
            cards[card_id],
        )
        for section, card_id, copies, line in rows
    ]


def saved_deck_list(conn: Connection, deck: SavedDeck) -> DeckList:
    """The saved deck as a deck list whose lines name their cards by code (exactly)."""
    return DeckList(deck.name, [placed.line for placed in saved_placed(conn, deck)], [])


def save_deck(
    db: Database,
    name: str,
    fmt: str,
    placed: list[Placed],
    *,
    replace: bool = False,
) -> SavedDeck:
    """Store (or with `replace`, overwrite) one of `collector`'s decks in one transaction."""
    cleaned = clean(name, "a deck's name")
    if not cleaned:
        raise CardbaseError("a deck needs a name")
    now = datetime.now(UTC).isoformat(timespec="seconds")
    with db.writing() as conn:
        existing = conn.execute(
            f"SELECT id, name FROM {tables.DECK_TABLE} WHERE name_key = ? "
            f"AND collector_id = (SELECT id FROM {tables.MY_COLLECTOR})",
            (name_key(cleaned),),
        ).fetchone()
        if existing and not replace:
            raise DeckExistsError(cleaned, existing[1])
        if not existing:
            _refuse_lookalike(conn, cleaned)
        if existing:
            deck_id = existing[0]
        else:
            deck_id = conn.execute(
                f"INSERT INTO {tables.DECK_TABLE} (collector_id, name, name_key, format, "
                f"created_at, updated_at) SELECT id, ?, ?, ?, ?, ? FROM {tables.MY_COLLECTOR} "
                "RETURNING id",
                (cleaned, name_key(cleaned), fmt, now, now),
            ).fetchone()[0]
        entries = [(p.line.section, p.card.id, p.line.copies, p.line.line) for p in placed]
        deck = SavedDeck(int(deck_id or 0), cleaned, fmt, sum(p.line.copies for p in placed), now)
        write_entries(conn, deck, entries)
    return deck


Entry = tuple[str, int, int, int]  # section, card id, copies, line


def write_entries(conn: Connection, deck: SavedDeck, entries: list[Entry]) -> int:
    """The deck's cards made `entries`, with its name, format and time as `deck` has them,
    as its next version; the version's number. A save and a restore both end here, so a
    restored version is a save like any other."""
    conn.execute(f"DELETE FROM {tables.DECK_ENTRY_TABLE} WHERE deck_id = ?", (deck.id,))
    conn.execute(
        f"UPDATE {tables.DECK_TABLE} SET name = ?, format = ?, updated_at = ? WHERE id = ?",
        (deck.name, deck.format, deck.updated_at, deck.id),
    )
    conn.executemany(
        f"INSERT INTO {tables.DECK_ENTRY_TABLE} (deck_id, section, card_id, copies, line) "
        "VALUES (?, ?, ?, ?, ?)",
        [(deck.id, *entry) for entry in entries],
    )
    _tell_if_built(conn, deck)
    return _add_version(conn, deck.id, deck.format, deck.updated_at, entries)


def _tell_if_built(conn: Connection, deck: SavedDeck) -> None:
    """A built deck's sleeves were taken for its old list; they stay until it is marked
    built again, which a person who just edited it should hear rather than find out."""
    from cardbase import notices

    held = conn.execute(
        f"SELECT 1 FROM {tables.DECK_SLEEVE_TABLE} WHERE deck_id = ? LIMIT 1", (deck.id,)
    ).fetchone()
    if held:
        notices.tell(
            f"'{deck.name}' is built from its list before this save; marking it as built "
            "again takes or lets go copies to match"
        )


def _add_version(conn: Connection, deck_id: int, fmt: str, now: str, entries: list[Entry]) -> int:
    """Every save is the deck's next version (`deck history`), its entries as saved."""
    number = conn.execute(
        f"SELECT coalesce(max(number), 0) + 1 FROM {tables.DECK_VERSION_TABLE} WHERE deck_id = ?",
        (deck_id,),
    ).fetchone()[0]
    version_id = conn.execute(
        f"INSERT INTO {tables.DECK_VERSION_TABLE} (deck_id, number, format, saved_at) "
        "VALUES (?, ?, ?, ?) RETURNING id",
        (deck_id, number, fmt, now),
    ).fetchone()[0]
    conn.executemany(
        f"INSERT INTO {tables.DECK_VERSION_ENTRY_TABLE} (version_id, section, card_id, copies, "
        "line) VALUES (?, ?, ?, ?, ?)",
        [(version_id, *entry) for entry in entries],
    )
    return int(number)


def _refuse_lookalike(conn: Connection, name: str) -> None:
    """A new deck's name in one alphabet a word, and not one that looks like another of the
    collector's decks (`naming.skeleton`): `deck check NAME` would read one for the other's
    look-alike, and --force, which replaces a deck of the same name, must not make a twin."""
    refuse_mixed_script(name, "a deck's name")
    shape = skeleton(name)
    for deck in list_decks(conn):
        if skeleton(deck.name) == shape:
            raise CardbaseError(
                f"a deck's name '{shorten(name, 40)}' looks the same as the deck "
                f"'{deck.name}'; nothing was saved",
                Remedy(
                    f"Save it as '{deck.name}' (with --force) to replace that deck, or choose "
                    "a name that tells them apart at a glance",
                    f"Type '{deck.name}' in Name and Save to replace that deck, or choose "
                    "a name that tells them apart at a glance",
                ),
            )


def delete_deck(db: Database, deck: SavedDeck) -> int:
    """Delete the deck; the copies it had sleeved, now free again, so the faces can say so."""
    with db.writing() as conn:
        freed = conn.execute(
            f"SELECT coalesce(sum(copies), 0) FROM {tables.DECK_SLEEVE_TABLE} WHERE deck_id = ?",
            (deck.id,),
        ).fetchone()[0]
        drop_deck_rows(conn, f"= {int(deck.id)}")
    return int(freed)


def deleted(deck: SavedDeck, freed: int) -> str:
    """What deleting a deck did, in either face's words."""
    copies = "copy" if freed == 1 else "copies"
    return f"Deleted '{deck.name}'" + (
        f"; its {freed} sleeved {copies} are free again." if freed else "."
    )


def drop_deck_rows(conn: Connection, decks: str) -> None:
    """Delete decks and everything of theirs (entries, versions, sleeved copies), `decks`
    the condition on their ids ("= 4", "IN (SELECT ...)"), referring tables first."""
    conn.execute(
        f"DELETE FROM {tables.DECK_VERSION_ENTRY_TABLE} WHERE version_id IN "
        f"(SELECT id FROM {tables.DECK_VERSION_TABLE} WHERE deck_id {decks})"
    )
    for table in (tables.DECK_VERSION_TABLE, tables.DECK_ENTRY_TABLE, tables.DECK_SLEEVE_TABLE):
        conn.execute(f"DELETE FROM {table} WHERE deck_id {decks}")
    conn.execute(f"DELETE FROM {tables.DECK_TABLE} WHERE id {decks}")


def deck_text(conn: Connection, placed: list[Placed], about: dict[str, str] | None = None) -> str:
    """Deck list text: names where the name is one card, codes where it has several printings
    (or is in several games); `about` lines ("Format: ...") first."""
    sections: dict[str, list[tuple[int, str]]] = {}
    for item in placed:
        sections.setdefault(item.line.section, []).append(
            (item.line.copies, _label(conn, item.card))
        )
    return format_deck(sections, about)


def _label(conn: Connection, card: Card) -> str:
    return card.name if len(cards_named(conn, card.name)) == 1 else str(card.code)
