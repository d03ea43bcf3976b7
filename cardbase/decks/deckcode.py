"""Deck codes: a deck as a short text to paste in a chat, as ydke:// and the digital card
games' codes are, read back exactly or refused in one line.

`CB1` then base64url of: the game, then per section its cards grouped by copies and by
series and rarity, each group's numbers as rising deltas (varints), and a 16-bit CRC of all
of it. A 40-card deck of singles is about 80 characters. The tables below only ever grow at
their ends, so a code stays readable by every later cardbase; a new layout takes a new
version letter.

A game or section the tables lack (a user's game, from its game file, and its formats'
sections) is written by name: the escape byte `NAMED` where the table's index would be, then
the key's length and its UTF-8 bytes. A key is what a game file names a game by and never
changes, where an index into the user's own games would change with the files they have;
the tables' games and sections keep their one byte, so every code made before decodes as it
did, and a code of a game this cardbase lacks names the game.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from cardbase.codes import CollectorCode
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import RARITY_LETTERS
from cardbase.text import a

PREFIX = "CB1"
CODE_GAMES = ("free-realms", "wildhearts", "cardbase-sample")
CODE_SECTIONS = ("main", "side", "judge", "familiars", "fields")
MAX_CODE = 4096  # characters: a deck of every card in the game is far less
NAMED = 0x7F  # in place of a table's index: a name follows (below any index the tables reach)
MAX_NAME = 64  # bytes of a named game's or section's key


class CodedCard(NamedTuple):
    section: str
    code: CollectorCode
    copies: int


def encode(game: str, cards: Iterable[CodedCard]) -> str:
    """The deck's code; the same deck (whatever its lines' order) gives the same code."""
    out = bytearray()
    _entry(out, CODE_GAMES, game, "game")
    by_section: dict[str, dict[int, list[CollectorCode]]] = defaultdict(lambda: defaultdict(list))
    for card in cards:
        if card.copies < 1:
            continue
        by_section[card.section][card.copies].append(card.code)
    _varint(out, len(by_section))
    for section in sorted(by_section, key=_section_order):
        _entry(out, CODE_SECTIONS, section, "section")
        groups = by_section[section]
        _varint(out, len(groups))
        for copies in sorted(groups):
            _varint(out, copies)
            _buckets(out, groups[copies])
    out += (zlib.crc32(out) & 0xFFFF).to_bytes(2, "big")
    return PREFIX + base64.urlsafe_b64encode(bytes(out)).decode().rstrip("=")


def _buckets(out: bytearray, codes: list[CollectorCode]) -> None:
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for code in codes:
        buckets[code.series, RARITY_LETTERS.index(code.rarity)].append(code.number)
    _varint(out, len(buckets))
    for (series, rarity), numbers in sorted(buckets.items()):
        _varint(out, series)
        out.append(rarity)
        _varint(out, len(numbers))
        previous = 0
        for number in sorted(set(numbers)):
            _varint(out, number - previous)
            previous = number


def _section_order(section: str) -> tuple[int, str]:
    """The tables' sections in their order, then named ones by name: one deck, one code."""
    known = section in CODE_SECTIONS
    return (CODE_SECTIONS.index(section) if known else len(CODE_SECTIONS), section)


def _entry(out: bytearray, table: tuple[str, ...], value: str, what: str) -> None:
    """A game or section: its index in `table` (one byte), else `NAMED` and its key."""
    if value in table:
        out.append(table.index(value))
        return
    key = value.encode("utf-8")
    if not value or len(key) > MAX_NAME or not value.isprintable():
        raise CardbaseError(f"a deck code cannot hold the {what} '{shorten(value, 40)}'")
    out.append(NAMED)
    _varint(out, len(key))
    out += key


def _varint(out: bytearray, value: int) -> None:
    while True:
        low = value & 0x7F
        value >>= 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return


def looks_like_code(text: str) -> bool:
    """A text that is one deck code and nothing else (pasted where a list is typed)."""
    stripped = text.strip()
    return (
        stripped.startswith(PREFIX)
        and len(stripped) <= MAX_CODE
        and stripped.isprintable()
        and not any(ch.isspace() for ch in stripped)
    )


def decode(text: str) -> tuple[str, list[CodedCard]]:
    """The game and cards of a code, or one line saying what is wrong with it."""
    cleaned = "".join(text.split())
    if not cleaned.startswith(PREFIX):
        start = shorten(cleaned, 12)
        raise CardbaseError(
            f"not a cardbase deck code (it starts '{start}'); cardbase reads the codes "
            "'cardbase deck code' prints, which start CB1"
        )
    if len(cleaned) > MAX_CODE:
        raise CardbaseError(f"a deck code of {len(cleaned):,} characters: no deck is that long")
    payload = _payload(cleaned[len(PREFIX) :])
    reader = _Reader(payload)
    game = _named(CODE_GAMES, reader, "game")
    cards = list(_cards(reader))
    if not reader.done():
        raise CardbaseError(DAMAGED)
    return game, cards


DAMAGED = "the deck code is damaged or cut short: copy it whole, from CB1 to its last letter"


def _payload(body: str) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise CardbaseError(DAMAGED) from None
    if len(raw) < 3 or (zlib.crc32(raw[:-2]) & 0xFFFF).to_bytes(2, "big") != raw[-2:]:
        raise CardbaseError(DAMAGED)
    return raw[:-2]


def _cards(reader: _Reader) -> Iterator[CodedCard]:
    for _ in range(reader.varint()):
        section = _named(CODE_SECTIONS, reader, "section")
        for _ in range(reader.varint()):
            copies = reader.varint()
            for _ in range(reader.varint()):
                series, rarity = reader.varint(), reader.byte()
                if rarity >= len(RARITY_LETTERS):
                    raise CardbaseError(DAMAGED)
                number = 0
                for _ in range(reader.varint()):
                    number += reader.varint()
                    code = CollectorCode(series, RARITY_LETTERS[rarity], number)
                    yield CodedCard(section, code, copies)


def _named(table: tuple[str, ...], reader: _Reader, what: str) -> str:
    """A game or section as `_entry` wrote it: a table's index, or `NAMED` and a key."""
    index = reader.byte()
    if index == NAMED:
        length = reader.varint()
        if not 0 < length <= MAX_NAME:
            raise CardbaseError(DAMAGED)
        try:
            key = bytes(reader.byte() for _ in range(length)).decode("utf-8")
        except UnicodeDecodeError:
            raise CardbaseError(DAMAGED) from None
        if not key.isprintable():
            raise CardbaseError(DAMAGED)
        return key
    if index >= len(table):
        raise CardbaseError(
            f"the deck code names {a(what)} this cardbase does not know: upgrade it"
        )
    return table[index]


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise CardbaseError(DAMAGED)
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        value = shift = 0
        while True:
            part = self.byte()
            value |= (part & 0x7F) << shift
            if not part & 0x80:
                return value
            shift += 7
            if shift > 28:  # no count or number of a deck is that large
                raise CardbaseError(DAMAGED)

    def done(self) -> bool:
        return self.at == len(self.data)
