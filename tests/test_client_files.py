"""The client reader (`cardbase.client`) on the Free Realms client's own card files and on
damaged copies of them.

The real files are the client's `tcg` folder (see the client folder's README.md): by default
the folder `shared/free-realms-client` beside the repository, or the folder CARDBASE_CLIENT_DIR
names.
Every damaged file must give one `ClientError` whose single line names the file and the
record (or line), in bounded time; the real files must give the 707 printed cards.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
import time
import types
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.client import archetypes
from cardbase.client.archetypes import ClientError, read_archetypes
from cardbase.client.cards import ClientCard, ClientCatalogue, client_cards, read_client_cards
from cardbase.client.folder import ClientFolder, find_client
from cardbase.client.locale import read_locale, string_key
from cardbase.client.texts import CardTexts, card_texts

CLIENT = Path(
    os.environ.get("CARDBASE_CLIENT_DIR")
    or Path(__file__).resolve().parents[2] / "shared" / "free-realms-client"
)
if (CLIENT / "tcg").is_dir():  # the override may name the install folder
    CLIENT = CLIENT / "tcg"
if not (CLIENT / "data" / "archetypes" / "index.dat").is_file():
    pytest.skip(f"no Free Realms client files at {CLIENT}", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
ARCHETYPES = Path("data") / "archetypes"
INDEX, STORAGE = "index.dat", "storage.dat"
EN_DIR, EN_DAT = "en_us_data.dir", "en_us_data.dat"
DE_DIR, DE_DAT = "de_de_data.dir", "de_de_data.dat"
COPIED_LOCALES = (EN_DAT, EN_DIR)  # enough for most tests, quick to copy

STEAM_ENGINEER = 100010149  # 1 R 72, whose rebalanced variant is 100024225
STEAM_VARIANT = 100024225
MICHI = 100010183  # 1 R 5, a Hero Creature
SPORT_SHADES = 100010190  # 1 P 4, a Resource whose cost is its template's
STEAM_TITLE = string_key("title", STEAM_ENGINEER)
PROPERTY_MARK = b"\x26\x01\x04"
NO_VALUE, INTEGER, STRING, INTEGER_LIST = 1, 2, 3, 6


@functools.cache
def real(name: str) -> bytes:
    """The bytes of one real client file, by its name."""
    folder = CLIENT / ARCHETYPES if name in (INDEX, STORAGE) else CLIENT / "locale"
    return (folder / name).read_bytes()


# -- the archetype database's encoding, written out here independently of the reader ------


def encode_number(value: int) -> bytes:
    """The client's variable-length number (the client folder's README.md: top 3 bits count
    the extra bytes, bit 4 is the sign, the low 4 bits the lowest bits; each extra byte 8 more
    bits)."""
    magnitude = abs(value)
    extra = bytearray()
    rest = magnitude >> 4
    while rest:
        extra.append(rest & 0xFF)
        rest >>= 8
    assert len(extra) <= 7
    return bytes([len(extra) << 5 | (0x10 if value < 0 else 0) | magnitude & 0x0F]) + extra


def decode_number(data: bytes, at: int) -> tuple[int, int]:
    first = data[at]
    extra = first >> 5
    value = first & 0x0F
    for shift, byte in enumerate(data[at + 1 : at + 1 + extra]):
        value |= byte << (4 + 8 * shift)
    return (-value if first & 0x10 else value), at + 1 + extra


class Entry(NamedTuple):
    id: int
    packed: int
    unpacked: int
    offset: int


class IndexSpan(NamedTuple):
    start: int  # the entry's first byte in index.dat
    after_id: int  # the byte after its archetype id
    end: int


def parse_index(data: bytes) -> tuple[list[Entry], list[IndexSpan]]:
    entries, spans, at = [], [], 6
    while at < len(data):
        start = at
        fields = []
        for _ in range(4):
            value, at = decode_number(data, at)
            fields.append(value)
            if len(fields) == 1:
                after_id = at
        entries.append(Entry(*fields))
        spans.append(IndexSpan(start, after_id, at))
    return entries, spans


def build_index(entries: list[Entry]) -> bytes:
    return real(INDEX)[:6] + b"".join(
        encode_number(e.id) + encode_number(e.packed) + encode_number(e.unpacked)
        + encode_number(e.offset)
        for e in entries
    )  # fmt: skip


class Property(NamedTuple):
    key: int
    start: int  # its key's first byte
    kind_at: int  # its type byte
    end: int  # the byte after its value


def record_properties(data: bytes) -> list[Property]:
    """The properties of an unpacked record, with where each lies."""
    at = 0
    for _ in range(12):
        _, at = decode_number(data, at)
    count, at = decode_number(data, at)
    found = []
    for _ in range(count):
        start = at
        key, at = decode_number(data, at)
        assert data[at : at + 3] == PROPERTY_MARK
        kind_at = at + 3
        kind, at = data[kind_at], kind_at + 2
        if kind == INTEGER:
            _, at = decode_number(data, at)
        elif kind == STRING:
            size, at = decode_number(data, at)
            at += size
            if at < len(data) and data[at] == 0:
                at += 1
        elif kind == INTEGER_LIST:
            size, at = decode_number(data, at)
            for _ in range(size):
                _, at = decode_number(data, at)
        found.append(Property(key, start, kind_at, at))
    return found


def encode_value(value: int | str | list[int] | None) -> tuple[int, bytes]:
    """A property value's type byte and bytes (after the type byte's `01`)."""
    if value is None:
        return NO_VALUE, b""
    if isinstance(value, int):
        return INTEGER, encode_number(value)
    if isinstance(value, str):
        raw = value.encode()
        return STRING, encode_number(len(raw)) + raw
    return INTEGER_LIST, encode_number(len(value)) + b"".join(map(encode_number, value))


def set_property(data: bytes, key: int, value: int | str | list[int] | None) -> bytes:
    """The record with property `key`'s value replaced (its type with it)."""
    prop = next(p for p in record_properties(data) if p.key == key)
    kind, raw = encode_value(value)
    return data[: prop.kind_at] + bytes([kind, 1]) + raw + data[prop.end :]


def new_record(record_id: int, name: str, padding: int = 0) -> bytes:
    """A minimal record: its header, one name property, then `padding` zero bytes."""
    header = b"".join(encode_number(n) for n in (0, 0, 0, 0, record_id, 0, 0, 0, 0, 0, 0, 0))
    kind, raw = encode_value(name)
    return (
        header
        + encode_number(1)
        + encode_number(1)
        + PROPERTY_MARK
        + bytes([kind, 1])
        + raw
        + bytes(padding)
    )


def test_the_tests_own_encoding_reads_the_real_database() -> None:
    """The helpers above agree with the real files byte for byte, and with the reader; the
    index's records fill storage.dat from its 6-byte header to its end, one after another."""
    entries, _ = parse_index(real(INDEX))
    assert build_index(entries) == real(INDEX)
    assert [e.offset for e in entries[1:]] == [e.offset + e.packed for e in entries[:-1]]
    assert (entries[0].offset, entries[-1].offset + entries[-1].packed) == (6, len(real(STORAGE)))
    records = real_records()
    for entry in entries[::50]:
        data = zlib.decompress(real(STORAGE)[entry.offset : entry.offset + entry.packed])
        assert [p.key for p in record_properties(data)] == list(records[entry.id].properties)
    entry = next(e for e in entries if e.id == MICHI)
    michi = zlib.decompress(real(STORAGE)[entry.offset : entry.offset + entry.packed])
    assert set_property(michi, 74, 5) == michi


# -- a copy of the client in tmp_path, and ways to damage it -------------------------------


class Client:
    """A copy of the real client's card files: `root` is the install folder (`root/tcg`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.archetypes = root / "tcg" / ARCHETYPES
        self.locale = root / "tcg" / "locale"
        self.archetypes.mkdir(parents=True)
        self.locale.mkdir()
        for name in (INDEX, STORAGE):
            (self.archetypes / name).write_bytes(real(name))
        for name in COPIED_LOCALES:
            (self.locale / name).write_bytes(real(name))
        self.index, self.storage = self.archetypes / INDEX, self.archetypes / STORAGE

    def entries(self) -> list[Entry]:
        return parse_index(self.index.read_bytes())[0]

    def write_entries(self, entries: list[Entry]) -> None:
        self.index.write_bytes(build_index(entries))

    def unpacked(self, record_id: int) -> bytes:
        entry = next(e for e in self.entries() if e.id == record_id)
        packed = self.storage.read_bytes()[entry.offset : entry.offset + entry.packed]
        return zlib.decompress(packed)

    def put_packed(self, record_id: int, packed: bytes, unpacked: int) -> None:
        """Point the record's index entry at `packed`, appended to storage.dat."""
        storage = self.storage.read_bytes()
        self.storage.write_bytes(storage + packed)
        self.write_entries([
            Entry(e.id, len(packed), unpacked, len(storage)) if e.id == record_id else e
            for e in self.entries()
        ])  # fmt: skip

    def put_record(self, record_id: int, data: bytes) -> None:
        self.put_packed(record_id, zlib.compress(data), len(data))

    def edit_record(self, record_id: int, edit: Callable[[bytes], bytes]) -> None:
        self.put_record(record_id, edit(self.unpacked(record_id)))


@pytest.fixture
def client(tmp_path: Path) -> Client:
    return Client(tmp_path / "Free Realms")


def one_line(error: pytest.ExceptionInfo[ClientError], *names: object) -> str:
    """The error's message, checked to be one line naming each of `names`, with each path
    among them shortened to its last part (so that what the rest says is not matched in a
    tmp_path, which is named after the test)."""
    message = str(error.value)
    assert "\n" not in message and "\r" not in message, message
    for name in names:
        assert str(name) in message, (name, message)
    for name in names:
        if isinstance(name, Path):
            message = message.replace(str(name), name.name)
    return message


def read_everything(root: Path) -> tuple[ClientCatalogue, dict[str, dict[int, CardTexts]]]:
    folder = find_client(root)
    catalogue = client_cards(read_archetypes(folder.archetypes))
    return catalogue, card_texts(folder, catalogue.cards)


# -- the real files ---------------------------------------------------------------------


class RealData(NamedTuple):
    records: dict[int, archetypes.Archetype]
    catalogue: ClientCatalogue
    texts: dict[str, dict[int, CardTexts]]
    seconds: float


@pytest.fixture(scope="module")
def real_data() -> RealData:
    start = time.perf_counter()
    folder = find_client(CLIENT)
    records = read_archetypes(folder.archetypes)
    catalogue = client_cards(records)
    texts = card_texts(folder, catalogue.cards)
    return RealData(records, catalogue, texts, time.perf_counter() - start)


def by_code(data: RealData) -> dict[str, list[ClientCard]]:
    codes: dict[str, list[ClientCard]] = {}
    for card in data.catalogue.cards:
        codes.setdefault(card.code, []).append(card)
    return codes


def test_the_real_client_has_707_cards_in_five_series(real_data: RealData) -> None:
    cards = real_data.catalogue.cards
    assert len(real_data.records) == 1395
    assert len(cards) == 707
    assert Counter(card.series for card in cards) == {1: 253, 2: 161, 3: 137, 4: 78, 5: 78}
    assert len({card.code for card in cards}) == 707
    assert len({card.archetype for card in cards}) == 707
    assert real_data.seconds < 10


def test_numbers_repeat_across_rarities(real_data: RealData) -> None:
    """The P cards are numbered on their own: 1 P 5 is not 1 R 5. (The client folder's
    README.md says `1 U 5`, but the client's number 5 of series 1 is R (90053) and P only.)"""
    codes = by_code(real_data)
    (promo,), (rare,) = codes["1 P 5"], codes["1 R 5"]
    assert promo.archetype != rare.archetype
    assert (promo.name, rare.name) == ("Sam Potts", "Michi")
    assert sorted(
        card.rarity for card in real_data.catalogue.cards if card.series == 1 and card.number == 5
    ) == ["P", "R"]


def test_three_heroes_move_to_series_2(real_data: RealData) -> None:
    codes = by_code(real_data)
    for code, name in (("2 P 44", "Darrel"), ("2 P 49", "Vittorio"), ("2 P 39", "Miss Artie")):
        (card,) = codes[code]
        assert (card.name, card.hero, card.type) == (name, True, "Creature")
    assert sorted((card.code, card.name, was) for card, was in real_data.catalogue.moved) == [
        ("2 P 39", "Miss Artie", 1),
        ("2 P 44", "Darrel", 1),
        ("2 P 49", "Vittorio", 1),
    ]
    # Their set-1 codes belong to other cards.
    for code in ("1 P 39", "1 P 44", "1 P 49"):
        assert [card.name for card in codes[code]] not in (["Darrel"], ["Vittorio"], ["Miss Artie"])


def test_steam_engineer_is_one_card_with_a_variant(real_data: RealData) -> None:
    steam = [card for card in real_data.catalogue.cards if card.name == "Steam Engineer"]
    assert [card.archetype for card in steam] == [STEAM_ENGINEER]
    assert steam[0].code == "1 R 72"
    assert real_data.catalogue.variants == {STEAM_VARIANT: STEAM_ENGINEER}
    assert real_data.records[STEAM_VARIANT].properties[1] == "Steam Engineer"


def test_card_names_in_german(real_data: RealData) -> None:
    texts = real_data.texts
    assert {"en", "de", "fr", "zh-CN"} <= set(texts)
    assert texts["en"][STEAM_ENGINEER].name == "Steam Engineer"
    assert texts["de"][STEAM_ENGINEER].name == "Maschineningenieur"
    assert texts["fr"][STEAM_ENGINEER].name == "Ingénieur vapeur"
    assert "Kreatur" in texts["de"][MICHI].text
    assert len(texts["de"]) == 707


def test_english_names_are_the_databases_own(real_data: RealData) -> None:
    english = real_data.texts["en"]
    assert len(english) > 650
    for card in real_data.catalogue.cards:
        if card.archetype in english:
            assert english[card.archetype].name == card.name


def test_card_texts_are_plain(real_data: RealData) -> None:
    """No markup tag and no unfilled `[#WORD#]` placeholder in any language."""
    seen = 0
    for language, cards in real_data.texts.items():
        for archetype, texts in cards.items():
            for text in texts:
                seen += bool(text)
                assert "<" not in text and "[#" not in text, (language, archetype, text)
    assert seen > 10_000


# -- finding the client folder ------------------------------------------------------------


def _write(path: Path, data: bytes = b"") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _unrelated(folder: Path) -> None:
    folder.mkdir()
    _write(folder / "README.txt", b"another game")
    _write(folder / "data" / "maps" / "world.bin", os.urandom(64))
    _write(folder / "locale" / "strings.txt", b"hello")
    (folder / "tcg").mkdir()


def _archetypes_only(folder: Path) -> None:
    folder.mkdir()
    _write(folder / "tcg" / ARCHETYPES / INDEX, real(INDEX))
    _write(folder / "tcg" / ARCHETYPES / STORAGE, real(STORAGE))


def _index_is_a_folder(folder: Path) -> None:
    folder.mkdir()
    (folder / "tcg" / ARCHETYPES / INDEX).mkdir(parents=True)
    _write(folder / "tcg" / ARCHETYPES / STORAGE, real(STORAGE))
    _write(folder / "tcg" / "locale" / EN_DAT, real(EN_DAT))
    _write(folder / "tcg" / "locale" / EN_DIR, real(EN_DIR))


@pytest.mark.parametrize(
    ("make", "says"),
    [
        pytest.param(None, "does not exist", id="missing"),
        pytest.param(lambda path: _write(path, b"PK\x03\x04"), "is not a folder", id="a-file"),
        pytest.param(lambda path: path.mkdir(), "not a Free Realms client folder", id="empty"),
        pytest.param(
            _unrelated,
            "not a Free Realms client folder",
            id="unrelated-files",
        ),
        pytest.param(
            _archetypes_only,
            "not a Free Realms client folder",
            id="no-locale",
        ),
        pytest.param(
            _index_is_a_folder,
            "not a Free Realms client folder",
            id="index-is-a-folder",
        ),
    ],
)
def test_find_client_refuses(
    tmp_path: Path, make: Callable[[Path], object] | None, says: str
) -> None:
    folder = tmp_path / "Other Game"
    if make is not None:
        make(folder)
    with pytest.raises(ClientError) as error:
        find_client(folder)
    assert says in one_line(error, folder)


@pytest.mark.parametrize(
    "layout", ["install-folder", "tcg-folder", "flat-folder", "folder-of-installs"]
)
def test_find_client_accepts(tmp_path: Path, layout: str) -> None:
    if layout == "flat-folder":
        named = archetype_folder = locale_folder = tmp_path / "copied"
        for name in (INDEX, STORAGE, EN_DAT, EN_DIR):
            _write(named / name, real(name))
    else:
        install = Client(tmp_path / "Games" / "Free Realms")
        archetype_folder, locale_folder = install.archetypes, install.locale
        named = {
            "install-folder": install.root,
            "tcg-folder": install.root / "tcg",
            "folder-of-installs": tmp_path / "Games",
        }[layout]
    found = find_client(named)
    assert found == ClientFolder(archetype_folder, locale_folder)
    assert found.locales()[0] == "en_us"
    assert (found.archetypes / INDEX).read_bytes() == real(INDEX)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(
            lambda name: random.Random(name).randbytes(len(real(name))), id="random-bytes"
        ),
        pytest.param(lambda name: bytes(len(real(name))), id="zeros"),
        pytest.param(lambda name: b"", id="empty-files"),
        pytest.param(
            lambda name: b"\x89PNG\r\n\x1a\n" + random.Random(name).randbytes(4000), id="png"
        ),
    ],
)
def test_another_games_files_with_the_right_names(
    client: Client, content: Callable[[str], bytes]
) -> None:
    """Each file is refused in one line naming it: the archetype files by read_archetypes,
    the locale files by read_locale."""
    for name in (INDEX, STORAGE):
        (client.archetypes / name).write_bytes(content(name))
    for name in COPIED_LOCALES:
        (client.locale / name).write_bytes(content(name))
    folder = find_client(client.root)
    with pytest.raises(ClientError) as error:
        read_archetypes(folder.archetypes)
    message = one_line(error, client.archetypes)
    assert INDEX in message or STORAGE in message
    with pytest.raises(ClientError) as error:
        read_locale(folder.locale, "en_us", {STEAM_TITLE})
    assert EN_DIR in one_line(error, client.locale)


@pytest.mark.parametrize("database", ["msg", "rule", "action"])
def test_the_clients_other_databases(client: Client, database: str) -> None:
    """The same container holding the client's messages, rules or actions, not archetypes."""
    archetype_files = CLIENT / ARCHETYPES
    for name, stored in ((INDEX, "Index"), (STORAGE, "Storage")):
        other = f"{database}{stored}{'en' if database == 'msg' else ''}.dat"
        (client.archetypes / name).write_bytes((archetype_files / other).read_bytes())
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert "record " in one_line(error, client.archetypes)


def test_a_database_without_cards(client: Client) -> None:
    """A well-formed database of the client's templates and loot only."""
    records = real_records()
    cards = {card.archetype for card in real_cards()} | {STEAM_VARIANT}
    entries, storage = [], bytearray(real(STORAGE)[:6])
    for entry in parse_index(real(INDEX))[0]:
        if entry.id not in cards:
            packed = real(STORAGE)[entry.offset : entry.offset + entry.packed]
            entries.append(entry._replace(offset=len(storage)))
            storage += packed
    client.storage.write_bytes(storage)
    client.write_entries(entries)
    kept = read_archetypes(client.archetypes)
    assert len(kept) == len(records) - 708
    with pytest.raises(ClientError) as error:
        client_cards(kept)
    one_line(error)


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _device(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="POSIX only"
)
@pytest.mark.parametrize("name", [INDEX, STORAGE])
@pytest.mark.parametrize(
    "make", [_fifo, _device, _folder, Path.unlink], ids=["pipe", "device", "folder", "missing"]
)
def test_not_a_regular_file(client: Client, name: str, make: Callable[[Path], object]) -> None:
    """A pipe is not waited on, /dev/zero is not read to the end."""
    make(client.archetypes / name)
    start = time.perf_counter()
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    one_line(error, client.archetypes / name)
    assert time.perf_counter() - start < 2


# -- index.dat and storage.dat ------------------------------------------------------------


def _index_cuts() -> list:
    _, spans = parse_index(real(INDEX))
    return [
        pytest.param(0, "0 bytes, too short", id="empty"),
        pytest.param(3, "3 bytes, too short", id="inside-header"),
        pytest.param(6, "lists no record", id="header-only"),
        pytest.param(spans[0].start + 1, "cut off at byte 6", id="inside-first-id"),
        pytest.param(
            spans[700].start + 1, f"cut off at byte {spans[700].start:,}", id="inside-an-id"
        ),
    ]


@pytest.mark.parametrize(("cut", "says"), _index_cuts())
def test_index_truncated(client: Client, cut: int, says: str) -> None:
    client.index.write_bytes(real(INDEX)[:cut])
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert says in one_line(error, client.index)


def _cuts_after_an_id() -> list:
    entries, spans = parse_index(real(INDEX))
    return [
        pytest.param(spans[0].after_id, entries[0].id, id="after-first-id"),
        pytest.param(spans[700].after_id + 1, entries[700].id, id="inside-packed-size"),
        pytest.param(spans[-1].end - 1, entries[-1].id, id="inside-last-offset"),
    ]


@pytest.mark.parametrize(("cut", "record"), _cuts_after_an_id())
def test_index_truncated_inside_an_entry_names_the_record(
    client: Client, cut: int, record: int
) -> None:
    client.index.write_bytes(real(INDEX)[:cut])
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    one_line(error, client.index, f"record {record}")


@pytest.mark.parametrize("entries", [1, 700, 1394])
def test_index_truncated_between_entries(client: Client, entries: int) -> None:
    _, spans = parse_index(real(INDEX))
    client.index.write_bytes(real(INDEX)[: spans[entries - 1].end])
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    one_line(error, client.index)


@pytest.mark.parametrize("cut", [0, 6, 1000, len(real(STORAGE)) // 2, len(real(STORAGE)) - 1])
def test_storage_truncated(client: Client, cut: int) -> None:
    client.storage.write_bytes(real(STORAGE)[:cut])
    first_lost = next(e for e in client.entries() if e.offset + e.packed > cut)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert "truncated" in one_line(error, client.storage, f"record {first_lost.id}:")


def _swap_two(entries: list[Entry]) -> list[Entry]:
    """Records 100 and 101 swap their bytes: each index entry points at the other's."""
    shuffled = list(entries)
    a, b = shuffled[100], shuffled[101]
    shuffled[100] = Entry(a.id, b.packed, b.unpacked, b.offset)
    shuffled[101] = Entry(b.id, a.packed, a.unpacked, a.offset)
    return shuffled


def _shuffle_all(entries: list[Entry]) -> list[Entry]:
    places = [(e.packed, e.unpacked, e.offset) for e in entries]
    random.Random(7).shuffle(places)
    return [Entry(e.id, *place) for e, place in zip(entries, places, strict=True)]


def _ids_rotated(entries: list[Entry]) -> list[Entry]:
    """Every id moved one entry on: the index of another build of the same storage."""
    ids = [e.id for e in entries]
    return [e._replace(id=record) for e, record in zip(entries, ids[1:] + ids[:1], strict=True)]


@pytest.mark.parametrize("shuffle", [_swap_two, _shuffle_all, _ids_rotated])
def test_records_shuffled(client: Client, shuffle: Callable[[list[Entry]], list[Entry]]) -> None:
    entries = client.entries()
    shuffled = shuffle(entries)
    client.write_entries(shuffled)
    first = next(i for i, (a, b) in enumerate(zip(entries, shuffled, strict=True)) if a != b)
    stored_there = next(e.id for e in entries if e.offset == shuffled[first].offset)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    one_line(error, client.storage, f"record {shuffled[first].id}:", f"archetype {stored_there}")


def _garbage(packed: bytes) -> bytes:
    return b"\xff" * len(packed)


def _cut_short(packed: bytes) -> bytes:
    return packed[: len(packed) // 2]


def _bad_checksum(packed: bytes) -> bytes:
    return packed[:-1] + bytes([packed[-1] ^ 0xFF])


def _raw_deflate(packed: bytes) -> bytes:
    return packed[2:-4]  # the deflate stream without zlib's header and checksum


def _other_size(packed: bytes) -> bytes:
    return zlib.compress(zlib.decompress(packed) + b"\x00" * 10)


def _shorter(packed: bytes) -> bytes:
    return zlib.compress(zlib.decompress(packed)[:-5])


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (_garbage, "not a zlib stream"),
        (_cut_short, "where the index says"),
        (_bad_checksum, "not a zlib stream"),
        (_raw_deflate, "not a zlib stream"),
        (_other_size, "unpacks to more than"),
        (_shorter, "where the index says"),
    ],
)
def test_record_not_zlib(client: Client, damage: Callable[[bytes], bytes], says: str) -> None:
    entry = client.entries()[200]
    storage = client.storage.read_bytes()
    packed = damage(storage[entry.offset : entry.offset + entry.packed])
    client.put_packed(entry.id, packed, entry.unpacked)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert says in one_line(error, client.storage, f"record {entry.id}:")


@pytest.fixture
def unpacking(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The max_length of every decompress the archetype reader makes."""
    calls: list[int] = []

    class Unpacker:
        def __init__(self) -> None:
            self.inner = zlib.decompressobj()

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            calls.append(max_length)
            return self.inner.decompress(data, max_length)

        @property
        def eof(self) -> bool:
            return self.inner.eof

    monkeypatch.setattr(
        archetypes, "zlib", types.SimpleNamespace(error=zlib.error, decompressobj=Unpacker)
    )
    return calls


@functools.cache
def zeros_bomb(size: int) -> bytes:
    """A zlib stream of `size` zero bytes, about a thousandth of that on disk."""
    packer = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    return b"".join(packer.compress(chunk) for _ in range(size >> 20)) + packer.flush()


@pytest.mark.parametrize("claim", [2**31, 2**31 - 1, 2**56, 1_000_001, 0, -1])
def test_huge_unpacked_claim_is_refused_before_unpacking(
    client: Client, unpacking: list[int], claim: int
) -> None:
    """A record claiming 2 GB (backed by a real 32 MB bomb) is refused by the index check."""
    victim = client.entries()[300].id
    client.put_packed(victim, zeros_bomb(32 << 20), claim)
    start = time.perf_counter()
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert time.perf_counter() - start < 1
    assert unpacking == []
    assert f"claims {claim:,} bytes unpacked" in one_line(error, client.index, f"record {victim}")


def test_a_bomb_is_unpacked_no_further_than_its_claim(client: Client, unpacking: list[int]) -> None:
    victim = client.entries()[300].id
    client.put_packed(victim, zeros_bomb(64 << 20), 60_000)
    start = time.perf_counter()
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert time.perf_counter() - start < 1
    assert max(unpacking) == 60_001
    assert "unpacks to more than 60,001 bytes" in one_line(
        error, client.storage, f"record {victim}"
    )


def test_total_unpacked_size_is_bounded(client: Client, unpacking: list[int]) -> None:
    """200 records of 60 kB (each under the cap of one record; all together 26 times the
    real database's 466 kB) are refused before they are unpacked."""
    storage, entries = bytearray(real(STORAGE)[:6]), []
    for number in range(200):
        record = new_record(900_000_000 + number, f"Bomb {number}", padding=60_000 - 40)
        packed = zlib.compress(record, 1)
        entries.append(Entry(900_000_000 + number, len(packed), len(record), len(storage)))
        storage += packed
    client.storage.write_bytes(storage)
    client.write_entries(entries)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    one_line(error, client.index)
    assert unpacking == []


@pytest.mark.parametrize("where", ["next", "at-the-end", "other-offset"])
def test_record_listed_twice(client: Client, where: str) -> None:
    entries = client.entries()
    twice = entries[500]
    copy = twice._replace(offset=entries[501].offset) if where == "other-offset" else twice
    at = len(entries) if where == "at-the-end" else 501
    client.write_entries([*entries[:at], copy, *entries[at:]])
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert "listed twice" in one_line(error, client.index, f"record {twice.id}")


@pytest.mark.parametrize("kind", [0, 4, 7, 255])
def test_unknown_property_type(client: Client, kind: int) -> None:
    name = next(p for p in record_properties(client.unpacked(MICHI)) if p.key == 1)

    def retype(data: bytes) -> bytes:
        return data[: name.kind_at] + bytes([kind]) + data[name.kind_at + 1 :]

    client.edit_record(MICHI, retype)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert f"unknown type {kind}" in one_line(
        error, client.storage, f"record {MICHI}", "property 1 "
    )


def _property(data: bytes, key: int) -> Property:
    return next(p for p in record_properties(data) if p.key == key)


def _no_mark(data: bytes) -> bytes:
    name = _property(data, 1)
    return data[: name.kind_at - 3] + b"\x26\x02\x04" + data[name.kind_at :]


def _not_utf8(data: bytes) -> bytes:
    name = _property(data, 1)
    return data[: name.end - 2] + b"\xff" + data[name.end - 1 :]


def _count_past_end(data: bytes) -> bytes:
    at = 0
    for _ in range(12):
        _, at = decode_number(data, at)
    _, after = decode_number(data, at)
    return data[:at] + encode_number(len(data) + 1) + data[after:]


def _string_past_end(data: bytes) -> bytes:
    name = _property(data, 1)
    _, text = decode_number(data, name.kind_at + 2)
    return data[: name.kind_at + 2] + encode_number(len(data) * 2) + data[text:]


def _list_past_end(data: bytes) -> bytes:
    traits = _property(data, 91318)
    _, items = decode_number(data, traits.kind_at + 2)
    return data[: traits.kind_at + 2] + encode_number(len(data)) + data[items:]


def _header_cut(data: bytes) -> bytes:
    return data[:3]


def _other_id(data: bytes) -> bytes:
    at = 0
    for _ in range(4):
        _, at = decode_number(data, at)
    _, after = decode_number(data, at)
    return data[:at] + encode_number(STEAM_ENGINEER) + data[after:]


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (_no_mark, "no property mark"),
        (_not_utf8, "not UTF-8"),
        (_count_past_end, "property count"),
        (_string_past_end, "out of range"),
        (_list_past_end, "cut off"),
        (_header_cut, "cut off"),
        (_other_id, f"archetype {STEAM_ENGINEER}"),
    ],
)
def test_damaged_record(client: Client, damage: Callable[[bytes], bytes], says: str) -> None:
    client.edit_record(MICHI, damage)
    with pytest.raises(ClientError) as error:
        read_archetypes(client.archetypes)
    assert says in one_line(error, client.storage, f"record {MICHI}")


# -- records that read but are not cards: client_cards ---------------------------------------


@functools.cache
def real_records() -> dict[int, archetypes.Archetype]:
    return read_archetypes(CLIENT / ARCHETYPES)


def real_unpacked(record: int) -> bytes:
    entry = next(e for e in parse_index(real(INDEX))[0] if e.id == record)
    return zlib.decompress(real(STORAGE)[entry.offset : entry.offset + entry.packed])


def records_with(record: int, edit: Callable[[bytes], bytes]) -> dict[int, archetypes.Archetype]:
    """The real records, `record` read from its edited bytes."""
    changed = archetypes.parse_record(edit(real_unpacked(record)), record, STORAGE)
    return {**real_records(), record: changed}


@pytest.mark.parametrize(
    ("record", "key", "value", "says"),
    [
        pytest.param(MICHI, 76, 12345, "rarity id 12345 is not a rarity", id="unknown-rarity"),
        pytest.param(STEAM_ENGINEER, 91309, 1, "sphere id 1 is not a sphere", id="unknown-sphere"),
        pytest.param(STEAM_ENGINEER, 91312, 9, "gem count 9 is not 0 to 4", id="nine-gems"),
        pytest.param(MICHI, 576, 5000, "property 576 is 5000, out of 0 to 999", id="huge-cost"),
        pytest.param(
            MICHI, 91316, -1, "property 91316 is -1, out of 0 to 999", id="negative-attack"
        ),
        pytest.param(MICHI, 1, 7, "the card has no name", id="name-a-number"),
        pytest.param(MICHI, 1, "   ", "the card has no name", id="name-blank"),
        pytest.param(
            MICHI, 74, "twelve", "property 74 is 'twelve', not a number", id="number-a-word"
        ),
        pytest.param(MICHI, 74, None, "property 74 is None, not a number", id="number-none"),
        pytest.param(
            SPORT_SHADES, 569, SPORT_SHADES, "templates go more than 8 deep", id="own-template"
        ),
        pytest.param(MICHI, 28, [90074], "", id="type-a-list"),
        pytest.param(MICHI, 76, [90053], "", id="rarity-a-list"),
        pytest.param(MICHI, 74, "²", "", id="number-superscript"),
        pytest.param(MICHI, 73, "1" * 5000, "", id="series-5000-digits"),
        pytest.param(MICHI, 76, "R\nU", "is not a rarity", id="rarity-with-newline"),
    ],
)
def test_card_record_with_bad_values(
    record: int, key: int, value: int | str | list[int] | None, says: str
) -> None:
    """A card's record with one property changed, as storage.dat would hold it (the real
    records, with that one parsed from its changed bytes; test_catalogue_inconsistent and
    test_card_error_names_the_file go through the files)."""
    with pytest.raises(ClientError) as error:
        client_cards(records_with(record, lambda data: set_property(data, key, value)))
    assert says in one_line(error, f"record {record}")


def test_card_error_quotes_a_long_value_shortly() -> None:
    with pytest.raises(ClientError) as error:
        client_cards(records_with(MICHI, lambda data: set_property(data, 73, "x" * 100_000)))
    assert len(one_line(error, f"record {MICHI}")) < 500


def test_card_error_names_the_file(client: Client) -> None:
    client.edit_record(MICHI, lambda data: set_property(data, 76, 12345))
    with pytest.raises(ClientError) as error:
        read_client_cards(find_client(client.root))
    one_line(error, client.storage, f"record {MICHI}")


@pytest.mark.parametrize(
    ("record", "key", "value", "says"),
    [
        pytest.param(
            STEAM_VARIANT,
            300,
            900001,
            f"record {STEAM_VARIANT}: a variant of 900001, which is not a card",
            id="variant-of-a-non-card",
        ),
        pytest.param(
            STEAM_VARIANT, 300, 12, "a variant of 12, which is not a card", id="variant-of-nothing"
        ),
        pytest.param(
            MICHI, 76, 90055, "are both card 1 P 5 (Michi, Sam Potts)", id="two-cards-1-P-5"
        ),
    ],
)
def test_catalogue_inconsistent(
    client: Client, record: int, key: int, value: int, says: str
) -> None:
    client.edit_record(record, lambda data: set_property(data, key, value))
    records = read_archetypes(client.archetypes)
    with pytest.raises(ClientError) as error:
        client_cards(records)
    assert says in one_line(error)


# -- the locale files --------------------------------------------------------------------


class DirLine(NamedTuple):
    number: int  # 1-based, counting \n-ended lines
    hash: int
    offset: int
    size: int


@functools.cache
def dir_lines(name: str) -> tuple[DirLine, ...]:
    found = []
    for number, line in enumerate(real(name).decode("utf-8-sig").split("\n"), start=1):
        line = line.rstrip("\r")
        if line and not line.startswith("##"):
            hashed, offset, size, _ = line.split("\t")
            found.append(DirLine(number, int(hashed), int(offset), int(size)))
    return tuple(found)


def steam_line() -> DirLine:
    return next(line for line in dir_lines(EN_DIR) if line.hash == STEAM_TITLE)


def replace_line(data: bytes, number: int, line: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[number - 1] = line + b"\r"
    return b"\n".join(lines)


def test_the_real_steam_engineer_title(client: Client) -> None:
    line = steam_line()
    assert real(EN_DAT)[line.offset :].startswith(f"{STEAM_TITLE}\t".encode())
    assert read_locale(client.locale, "en_us", {STEAM_TITLE}) == {STEAM_TITLE: "Steam Engineer"}


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param("4690925\t6\t96", id="three-fields"),
        pytest.param("4690925\t6\t96\td\tmore", id="five-fields"),
        pytest.param("4690925 6 96 d", id="spaces-not-tabs"),
        pytest.param("4690925\tsix\t96\td", id="offset-not-a-number"),
        pytest.param("0x479417\t6\t96\td", id="hash-in-hex"),
        pytest.param("\t\t\td", id="empty-fields"),
        pytest.param("4690925\t-6\t96\td", id="negative-offset"),
        pytest.param("4690925\t6\t999999999\td", id="huge-length"),
        pytest.param("4294967296\t6\t96\td", id="hash-past-32-bits"),
        pytest.param("4690925\t" + "9" * 5000 + "\t96\td", id="5000-digit-offset"),
    ],
)
def test_locale_index_bad_line(client: Client, bad: str) -> None:
    first = dir_lines(EN_DIR)[0]
    (client.locale / EN_DIR).write_bytes(replace_line(real(EN_DIR), first.number, bad.encode()))
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    message = one_line(error, client.locale / EN_DIR, f"line {first.number}:")
    assert len(message) < 400


def test_locale_index_bad_line_is_quoted_safely(client: Client) -> None:
    first = dir_lines(EN_DIR)[0]
    (client.locale / EN_DIR).write_bytes(
        replace_line(real(EN_DIR), first.number, b"\x1b[2J\x00\t6\t96\td")
    )
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    message = one_line(error, f"line {first.number}:")
    assert message.isprintable(), message


def test_locale_index_line_numbers_count_newlines(client: Client) -> None:
    data = real(EN_DIR).replace(b"## Game:\tLON", b"## Game:\x0cLON", 1)
    assert data != real(EN_DIR)
    (client.locale / EN_DIR).write_bytes(data + b"oops\r\n")
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    oops = (data + b"oops\r\n").split(b"\n").index(b"oops\r") + 1
    assert "'oops'" in one_line(error, client.locale / EN_DIR, f"line {oops}:")


def test_locale_index_not_utf8(client: Client) -> None:
    (client.locale / EN_DIR).write_bytes(real(EN_DIR)[:500] + b"\xff\xfe" + real(EN_DIR)[500:])
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    assert "not UTF-8" in one_line(error, client.locale / EN_DIR, "byte 500")


def test_locale_index_lists_nothing(client: Client) -> None:
    header = b"\n".join(line for line in real(EN_DIR).split(b"\n") if line.startswith(b"##"))
    (client.locale / EN_DIR).write_bytes(header)
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    assert "lists no string" in one_line(error, client.locale / EN_DIR)


def _point_at_next_record(client: Client) -> None:
    line = steam_line()
    after = next(other for other in dir_lines(EN_DIR) if other.offset > line.offset + 5000)
    moved = f"{line.hash}\t{after.offset}\t{line.size}\td".encode()
    (client.locale / EN_DIR).write_bytes(replace_line(real(EN_DIR), line.number, moved))


def _other_hash_in_dat(client: Client) -> None:
    line = steam_line()
    other = str(line.hash + 1).encode()
    assert len(other) == len(str(line.hash))
    data = real(EN_DAT)
    (client.locale / EN_DAT).write_bytes(
        data[: line.offset] + other + data[line.offset + len(other) :]
    )


@pytest.mark.parametrize("damage", [_point_at_next_record, _other_hash_in_dat])
def test_locale_record_is_another_string(client: Client, damage: Callable[[Client], None]) -> None:
    damage(client)
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    one_line(error, client.locale / EN_DAT, f"string {STEAM_TITLE}", f"line {steam_line().number}")


@pytest.mark.parametrize(
    ("cut", "says"),
    [
        pytest.param(lambda line: line.offset + 12, "truncated", id="inside-the-record"),
        pytest.param(lambda line: line.offset + line.size - 1, "truncated", id="last-byte"),
        pytest.param(lambda line: line.offset - 1, "no string", id="before-the-record"),
        pytest.param(lambda line: 0, "no string", id="empty"),
    ],
)
def test_locale_dat_truncated(client: Client, cut: Callable[[DirLine], int], says: str) -> None:
    (client.locale / EN_DAT).write_bytes(real(EN_DAT)[: cut(steam_line())])
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    assert says in one_line(error, client.locale / EN_DAT, f"string {STEAM_TITLE}")


def test_locale_record_a_little_after_its_offset_is_found(client: Client) -> None:
    """Real files have blank lines the index does not count (zh_cn drifts by 11 bytes)."""
    line = steam_line()
    data = real(EN_DAT)
    (client.locale / EN_DAT).write_bytes(data[: line.offset] + b"\r\n" * 20 + data[line.offset :])
    assert read_locale(client.locale, "en_us", {STEAM_TITLE}) == {STEAM_TITLE: "Steam Engineer"}
    (client.locale / EN_DAT).write_bytes(data[: line.offset] + b"\r\n" * 3000 + data[line.offset :])
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    one_line(error, client.locale / EN_DAT, f"string {STEAM_TITLE}", f"line {line.number}")


def test_locale_dat_truncated_for_card_texts(client: Client) -> None:
    (client.locale / DE_DIR).write_bytes(real(DE_DIR))
    (client.locale / DE_DAT).write_bytes(real(DE_DAT)[: len(real(DE_DAT)) // 2])
    with pytest.raises(ClientError) as error:
        read_everything(client.root)
    message = one_line(error, client.locale / DE_DAT, "string ")
    assert "truncated" in message or "no string" in message


def test_locale_dat_not_utf8_at_a_wanted_record(client: Client) -> None:
    line = steam_line()
    data = bytearray(real(EN_DAT))
    text = data.index(b"Steam Engineer", line.offset)
    data[text + 2] = 0xFF
    (client.locale / EN_DAT).write_bytes(bytes(data))
    with pytest.raises(ClientError) as error:
        read_locale(client.locale, "en_us", {STEAM_TITLE})
    assert "not UTF-8" in one_line(error, client.locale / EN_DAT, f"string {STEAM_TITLE}")
    # A damaged record no one asks for is not read (the real zh_cn file has such records).
    other = next(line.hash for line in dir_lines(EN_DIR) if line.hash != STEAM_TITLE)
    assert other in read_locale(client.locale, "en_us", {other})


# -- the address space a read needs, and random damage --------------------------------------

READ_UNDER_LIMIT = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
from cardbase.client.archetypes import ClientError, read_archetypes
from cardbase.client.folder import find_client
folder = find_client(Path(sys.argv[1]))
print(len(read_archetypes(folder.archetypes)))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux has it")
def test_reading_needs_little_memory() -> None:
    limit = 200 * 2**20  # 600 times the database's files
    done = subprocess.run(
        [sys.executable, "-c", READ_UNDER_LIMIT, str(CLIENT), str(limit)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert "MemoryError" not in done.stderr
    assert done.returncode == 0 and done.stdout.split() == ["1395"], done.stderr[-300:]


FUZZED = (INDEX, STORAGE, EN_DIR, EN_DAT)


@functools.cache
def real_cards() -> tuple[ClientCard, ...]:
    return tuple(client_cards(real_records()).cards)


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "tcg" / ARCHETYPES).mkdir(parents=True)
    (root / "tcg" / "locale").mkdir()
    return root


class Damage(NamedTuple):
    """Where random damage falls: one file cut short, or some of its bytes changed."""

    name: str
    cut: int | None
    flips: tuple[tuple[int, int], ...]  # (byte, xor mask)

    def apply(self) -> bytes:
        data = bytearray(real(self.name))
        if self.cut is not None:
            return bytes(data[: self.cut])
        for at, mask in self.flips:
            data[at] ^= mask
        return bytes(data)


@st.composite
def damages(draw: st.DrawFn) -> Damage:
    name = draw(st.sampled_from(FUZZED))
    size = len(real(name))
    if draw(st.booleans()):
        return Damage(name, draw(st.integers(0, size - 1)), ())
    flip = st.tuples(st.integers(0, size - 1), st.integers(1, 255))
    return Damage(name, None, tuple(draw(st.lists(flip, min_size=1, max_size=6))))


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@settings(
    max_examples=40, deadline=None, database=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
@given(damage=damages())
def test_random_damage_is_a_client_error_or_nothing(fuzz_root: Path, damage: Damage) -> None:
    """Flipped or cut bytes in index.dat, storage.dat, en_us's .dir or .dat: the folder reads,
    or one line names one of its files; nothing else, and quickly."""
    for name in FUZZED:
        under = ARCHETYPES if name in (INDEX, STORAGE) else Path("locale")
        (fuzz_root / "tcg" / under / name).write_bytes(
            damage.apply() if name == damage.name else real(name)
        )
    folder = find_client(fuzz_root)
    start = time.perf_counter()
    try:
        if damage.name in (INDEX, STORAGE):
            client_cards(read_archetypes(folder.archetypes))
        else:
            card_texts(folder, real_cards())
    except ClientError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, message
        assert any(name in message for name in FUZZED), message
    assert time.perf_counter() - start < 5


# -- found by the adversarial pass over import-client ---------------------------------------

EAGLE = 100009946  # Soaring Eagle, 1 C 157


@pytest.fixture
def german(client: Client) -> Client:
    """The client copy with the German locale too."""
    for name in (DE_DAT, DE_DIR):
        (client.locale / name).write_bytes(real(name))
    return client


def _dir_line(client: Client, key: int) -> tuple[list[str], int]:
    lines = (client.locale / DE_DIR).read_text(encoding="utf-8-sig").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{key}\t"))
    return lines, at


@pytest.mark.parametrize("change", [-10, 40])
def test_a_damaged_length_in_the_locale_index(german: Client, change: int) -> None:
    """A length cut short (the text silently shortened) or too long (the next record read
    into the text) is refused."""
    lines, at = _dir_line(german, string_key("lore", EAGLE))
    hashed, offset, size, flag = lines[at].split("\t")
    lines[at] = "\t".join((hashed, offset, str(int(size) + change), flag))
    (german.locale / DE_DIR).write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ClientError) as error:
        read_locale(german.locale, "de_de", {string_key("lore", EAGLE)})
    assert "does not end where the string does" in one_line(error, german.locale / DE_DAT)


def test_a_locale_copied_over_another_is_refused(german: Client) -> None:
    for suffix in ("dir", "dat"):
        (german.locale / f"de_de_data.{suffix}").write_bytes(real(f"fr_fr_data.{suffix}"))
    with pytest.raises(ClientError) as error:
        read_locale(german.locale, "de_de", {string_key("title", EAGLE)})
    assert "says locale fr_FR, not de_de" in one_line(error, german.locale / DE_DIR)


@pytest.mark.parametrize("missing", [DE_DIR, DE_DAT])
def test_half_a_locale_is_refused_not_skipped(german: Client, missing: str) -> None:
    (german.locale / missing).unlink()
    with pytest.raises(ClientError) as error:
        find_client(german.root).locales()
    assert "missing" in one_line(error, german.locale / missing)


def test_a_placeholder_cannot_blow_a_text_up(german: Client) -> None:
    """A word of 90 kB that a text names 9,900 times would make a 891 MB text: refused."""
    from cardbase.client.locale import lookup2

    dat = bytearray((german.locale / DE_DAT).read_bytes())
    lines, at = _dir_line(german, string_key("lore", EAGLE))
    word = b"%d\tutdt\t" % lookup2(b"ZZWORD") + b"w" * 90_000
    dat += b"\r\n" + word
    lines.insert(at + 1, f"{lookup2(b'ZZWORD')}\t{len(dat) - len(word)}\t{len(word)}\td")
    count = next(i for i, line in enumerate(lines) if line.startswith("## Count:"))
    lines[count] = f"## Count:\t{int(lines[count].split()[-1]) + 1}\r"  # one string more
    hashed, _offset, _size, flag = lines[at].split("\t")
    lore = b"%s\tucdt\t" % hashed.encode() + b"[#ZZWORD#]" * 900
    dat += b"\r\n" + lore
    lines[at] = "\t".join((hashed, str(len(dat) - len(lore)), str(len(lore)), flag))
    (german.locale / DE_DAT).write_bytes(bytes(dat))
    (german.locale / DE_DIR).write_text("\n".join(lines), encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(ClientError) as error:
        read_everything(german.root)
    assert time.perf_counter() - started < 5
    assert "the word ZZWORD is 90,000 characters" in one_line(error, german.locale / DE_DAT)


def test_a_truncated_locale_index_is_refused_not_read_short(german: Client) -> None:
    """Cut between two lines, an index reads as fewer strings: its Count header says so."""
    index = german.locale / DE_DIR
    index.write_bytes(index.read_bytes()[:500].rsplit(b"\n", 1)[0] + b"\n")
    with pytest.raises(ClientError) as error:
        read_locale(german.locale, "de_de", {string_key("title", EAGLE)})
    assert "where its header says 10,760" in one_line(error, index)
