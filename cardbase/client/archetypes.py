"""The client's archetype database: `index.dat` lists records, `storage.dat` holds each as a
zlib stream of typed properties.

Everything here is read from files a user hands us, which may be truncated, shuffled, from
another game or crafted: every length is checked against what is left before it is used, a
record's unpacked size is bounded before it is unpacked, and any fault is one `ClientError`
naming the file and the record.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import NamedTuple

from cardbase.errors import CardbaseError

INDEX_FILE = "index.dat"
STORAGE_FILE = "storage.dat"
INDEX_HEADER = 6  # bytes before the first index entry
MAX_INDEX_FILE = 16_000_000  # bytes; the real one is 15 kB
MAX_STORAGE_FILE = 256_000_000  # bytes; the real one is 330 kB
# Unpacked bytes of one record and of all of them: the largest real record is about 3 kB
# and all come to 466 kB. Parsing costs about 0.3 s a MB (a record of integer lists), so
# these keep a crafted database's worst case to a few seconds.
MAX_RECORD = 64_000
MAX_UNPACKED = 8_000_000
MAX_RECORDS = 200_000  # the real database has 1,395
HEADER_NUMBERS = 12  # numbers before a record's property count; the 5th is its id
PROPERTY_MARK = b"\x26\x01\x04"  # between a property's key and its type byte
NO_VALUE, INTEGER, STRING, INTEGER_LIST = 1, 2, 3, 6

Value = int | str | list[int] | None


class ClientError(CardbaseError):
    """A client folder, or a file in it, that cannot be read as the game's own."""


class Archetype(NamedTuple):
    id: int
    properties: dict[int, Value]


class _Reader:
    """A cursor over one buffer whose every read says what it was reading when it ran out."""

    def __init__(self, data: bytes, where: str) -> None:
        self.data = data
        self.at = 0
        self.where = where

    def fail(self, what: str) -> ClientError:
        return ClientError(f"{self.where}: {what} at byte {self.at:,}; the file is damaged")

    def number(self) -> int:
        """The client's variable-length number: the first byte's top 3 bits count the bytes
        that follow, bit 4 is the sign, its low 4 bits the lowest bits of the value; each
        following byte adds 8 higher bits."""
        data, at = self.data, self.at
        if at >= len(data):
            raise self.fail("a number is cut off")
        first = data[at]
        extra = first >> 5
        if at + 1 + extra > len(data):
            raise self.fail("a number is cut off")
        value = first & 0x0F
        for shift, byte in enumerate(data[at + 1 : at + 1 + extra]):
            value |= byte << (4 + 8 * shift)
        self.at = at + 1 + extra
        return -value if first & 0x10 else value

    def count(self, what: str, limit: int) -> int:
        value = self.number()
        if not 0 <= value <= limit:
            raise self.fail(f"{what} {value:,} is out of range (0 to {limit:,})")
        return value

    def take(self, size: int, what: str) -> bytes:
        if self.at + size > len(self.data):
            raise self.fail(f"{what} of {size:,} bytes is cut off")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    @property
    def done(self) -> bool:
        return self.at >= len(self.data)


class IndexEntry(NamedTuple):
    id: int
    packed: int
    unpacked: int
    offset: int


def read_index(data: bytes, where: str) -> list[IndexEntry]:
    """Every entry of `index.dat`, checked for sizes that no real record has."""
    if len(data) < INDEX_HEADER:
        raise ClientError(f"{where}: {len(data)} bytes, too short for an archetype index")
    reader = _Reader(data, where)
    reader.at = INDEX_HEADER
    entries: list[IndexEntry] = []
    total = 0
    while not reader.done:
        if len(entries) >= MAX_RECORDS:
            raise reader.fail(f"more than {MAX_RECORDS:,} records")
        record = reader.number()
        reader.where = f"{where}, record {record}"
        packed = reader.count("the packed size", MAX_STORAGE_FILE)
        unpacked = reader.number()
        if not 0 < unpacked <= MAX_RECORD:
            raise ClientError(
                f"{reader.where}: claims {unpacked:,} bytes unpacked "
                f"(a record holds at most {MAX_RECORD:,}); the index is damaged"
            )
        total += unpacked
        if total > MAX_UNPACKED:
            raise ClientError(
                f"{reader.where}: the records claim over {MAX_UNPACKED:,} bytes unpacked in all "
                "(the game's come to under 1 MB); the index is damaged"
            )
        offset = reader.count("the offset", MAX_STORAGE_FILE)
        entries.append(IndexEntry(record, packed, unpacked, offset))
        reader.where = where
    if not entries:
        raise ClientError(f"{where}: the archetype index lists no record")
    return entries


def check_no_tail(entries: list[IndexEntry], size: int, index: Path, storage: Path) -> None:
    """The last record ends where the storage file does, as the game's does: an index cut
    between two entries would otherwise read as a smaller database, cards missing."""
    end = max(entry.offset + entry.packed for entry in entries)
    if end != size:
        raise ClientError(
            f"{index}: its records end at byte {end:,} of {storage.name}, which goes on to "
            f"byte {size:,}; the index is truncated or belongs to another storage file"
        )


def unpack_record(storage: bytes, entry: IndexEntry, where: str) -> bytes:
    """One record's bytes, unpacked no further than the size its index entry claims."""
    label = f"{where}, record {entry.id}"
    if entry.offset + entry.packed > len(storage):
        raise ClientError(
            f"{label}: bytes {entry.offset:,} to {entry.offset + entry.packed:,} lie past the "
            f"end of the file ({len(storage):,} bytes); the file is truncated"
        )
    unpacker = zlib.decompressobj()
    try:
        data = unpacker.decompress(
            storage[entry.offset : entry.offset + entry.packed], entry.unpacked + 1
        )
    except zlib.error as exc:
        raise ClientError(f"{label}: not a zlib stream ({exc}); the file is damaged") from exc
    if len(data) != entry.unpacked or not unpacker.eof:
        raise ClientError(
            f"{label}: unpacks to {'more than ' if len(data) > entry.unpacked else ''}"
            f"{len(data):,} bytes where the index says {entry.unpacked:,}; the file is damaged"
        )
    return data


def parse_record(data: bytes, entry_id: int, where: str) -> Archetype:
    """A record's properties; its id must be the one the index gave it."""
    reader = _Reader(data, f"{where}, record {entry_id}")
    header = [reader.number() for _ in range(HEADER_NUMBERS)]
    if header[4] != entry_id:
        raise ClientError(
            f"{reader.where}: the record says it is archetype {header[4]}; "
            "the index and the storage file do not belong together"
        )
    properties: dict[int, Value] = {}
    for _ in range(reader.count("the property count", len(data))):
        key = reader.number()
        if reader.take(3, "a property's mark") != PROPERTY_MARK:
            raise reader.fail(f"property {key} has no property mark")
        kind = reader.take(2, "a property's type")[0]
        properties[key] = _value(reader, key, kind)
    return Archetype(entry_id, properties)


def _value(reader: _Reader, key: int, kind: int) -> Value:
    if kind == NO_VALUE:
        return None
    if kind == INTEGER:
        return reader.number()
    if kind == STRING:
        size = reader.count(f"property {key}'s length", len(reader.data))
        raw = reader.take(size, f"property {key}'s text")
        if not reader.done and reader.data[reader.at] == 0:  # some strings end with a NUL
            reader.at += 1
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise reader.fail(f"property {key} is not UTF-8 text ({exc.reason})") from exc
    if kind == INTEGER_LIST:
        size = reader.count(f"property {key}'s list length", len(reader.data))
        return [reader.number() for _ in range(size)]
    raise reader.fail(f"property {key} has the unknown type {kind}")


def read_archetypes(folder: Path) -> dict[int, Archetype]:
    """Every record of the archetype database in `folder`, by archetype id."""
    from cardbase.fileio.bounded import read_bounded

    index_path, storage_path = folder / INDEX_FILE, folder / STORAGE_FILE
    index = read_bounded(index_path, MAX_INDEX_FILE, "archetype index", error=ClientError)
    storage = read_bounded(storage_path, MAX_STORAGE_FILE, "archetype storage", error=ClientError)
    entries = read_index(index, str(index_path))
    records: dict[int, Archetype] = {}
    for entry in entries:
        if entry.id in records:
            raise ClientError(f"{index_path}: record {entry.id} is listed twice; it is damaged")
        data = unpack_record(storage, entry, str(storage_path))
        records[entry.id] = parse_record(data, entry.id, str(storage_path))
    check_no_tail(entries, len(storage), index_path, storage_path)
    return records
