"""The client's locale files: `<locale>_data.dat` holds one string per record, and
`<locale>_data.dir` says where each record lies and which hash names it.

A string is named by Bob Jenkins' lookup2 hash (his `hash()` of 1996, initial value 0) of a
key such as ``title_<archetype id>``. The `.dir` file gives each record's byte offset and
length in the `.dat` file (a string may span lines), and the record starts with the same
hash, so every record is checked against its index line.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from cardbase.client.archetypes import ClientError
from cardbase.errors import shorten

MAX_LOCALE_FILE = 16_000_000  # bytes of one .dat file; the largest real one is 765 kB
MAX_LOCALE_INDEX = 4_000_000  # bytes of one .dir file; the largest real one is 257 kB
MAX_STRING = 100_000  # bytes of one record; real ones are under 2 kB
TRANSLATOR_NOTE = "English Notes \t"
DRIFT_WINDOW = 4_096  # bytes past its indexed offset a record may be found
_MASK = 0xFFFFFFFF
_GOLDEN = 0x9E3779B9

# The client's locale files and the language tags cardbase stores them under; en_us is the
# card's own name and text, the others are its translations.
LOCALES: dict[str, str] = {
    "en_us": "en",
    "en_gb": "en-GB",
    "de_de": "de",
    "fr_fr": "fr",
    "es_es": "es",
    "es_mx": "es-MX",
    "pt_br": "pt-BR",
    "zh_cn": "zh-CN",
}
ENGLISH = "en_us"


def _mix(a: int, b: int, c: int) -> tuple[int, int, int]:
    a = (a - b - c) & _MASK ^ (c >> 13)
    b = (b - c - a) & _MASK ^ (a << 8) & _MASK
    c = (c - a - b) & _MASK ^ (b >> 13)
    a = (a - b - c) & _MASK ^ (c >> 12)
    b = (b - c - a) & _MASK ^ (a << 16) & _MASK
    c = (c - a - b) & _MASK ^ (b >> 5)
    a = (a - b - c) & _MASK ^ (c >> 3)
    b = (b - c - a) & _MASK ^ (a << 10) & _MASK
    c = (c - a - b) & _MASK ^ (b >> 15)
    return a, b, c


def lookup2(key: bytes, initial: int = 0) -> int:
    """Bob Jenkins' lookup2 `hash()`: twelve bytes at a time, then the tail, the length
    added into c."""
    a = b = _GOLDEN
    c = initial
    full = len(key) - len(key) % 12
    for at in range(0, full, 12):
        a = (a + int.from_bytes(key[at : at + 4], "little")) & _MASK
        b = (b + int.from_bytes(key[at + 4 : at + 8], "little")) & _MASK
        c = (c + int.from_bytes(key[at + 8 : at + 12], "little")) & _MASK
        a, b, c = _mix(a, b, c)
    tail = key[full:]
    c = (c + len(key)) & _MASK
    a = (a + int.from_bytes(tail[0:4], "little")) & _MASK
    b = (b + int.from_bytes(tail[4:8], "little")) & _MASK
    c = (c + (int.from_bytes(tail[8:11], "little") << 8)) & _MASK  # c's low byte is the length
    return _mix(a, b, c)[2]


def string_key(kind: str, archetype: int) -> int:
    """The hash of a card string's key, e.g. ``title_100009946``."""
    return lookup2(f"{kind}_{archetype}".encode())


class LocaleFile:
    """One locale's two files, read and their index checked line by line once; its strings
    are then read by hash, as many times as a caller needs (the card strings, then the words
    their placeholders name)."""

    def __init__(self, folder: Path, locale: str) -> None:
        from cardbase.fileio.bounded import read_bounded

        self.dat_path, self.dir_path = folder / f"{locale}_data.dat", folder / f"{locale}_data.dir"
        self.data = read_bounded(self.dat_path, MAX_LOCALE_FILE, "locale file", error=ClientError)
        index = read_bounded(self.dir_path, MAX_LOCALE_INDEX, "locale index", error=ClientError)
        try:
            # Lines end at line feeds only: str.splitlines() would also break at form feeds
            # and U+2028, and every line number after one would be wrong.
            lines = index.decode("utf-8-sig").split("\n")
        except UnicodeDecodeError as exc:
            raise ClientError(
                f"{self.dir_path}: not UTF-8 text (byte {exc.start:,}); it is damaged"
            ) from exc
        _check_header(lines, locale, self.dir_path)
        # (hash, offset, length, line number) of every string, in the files' order
        self.entries: list[tuple[int, int, int, int]] = []
        match = _INDEX_LINE.fullmatch
        for line_number, raw_line in enumerate(lines, start=1):
            line = raw_line.removesuffix("\r")
            found = match(line)
            if found is not None:
                hashed, offset, size = int(found[1]), int(found[2]), int(found[3])
                if hashed <= _MASK and size <= MAX_STRING:
                    self.entries.append((hashed, offset, size, line_number))
                    continue
            elif line.startswith("##") or not line.strip():
                continue
            raise ClientError(
                f"{self._where(line_number)}: '{shorten(line, 60)}' is not a locale index "
                "line (hash, offset, length, flag)"
            )
        if not self.entries:
            raise ClientError(f"{self.dir_path}: the locale index lists no string")
        counted = _header(lines, "Count")
        if counted is not None and counted.isdigit() and int(counted) != len(self.entries):
            raise ClientError(
                f"{self.dir_path}: lists {len(self.entries):,} strings where its header says "
                f"{int(counted):,}; the index is truncated or damaged"
            )

    def _where(self, line_number: int) -> str:
        return f"{self.dir_path}, line {line_number}"

    def strings(self, wanted: Collection[int]) -> dict[int, str]:
        """The strings whose hashes are `wanted`, by hash; line breaks as ``\\n``. Only they
        are read: the files hold the whole game's strings, and a few that no card uses are
        damaged in the real zh_cn file."""
        strings: dict[int, str] = {}
        drift = 0  # bytes the records have moved past where the index puts them
        for hashed, offset, size, line_number in self.entries:
            if hashed not in wanted:
                continue
            start = _find_record(self.data, hashed, offset + drift)
            if start < 0:
                raise ClientError(
                    f"{self.dat_path} (from {self._where(line_number)}): no string {hashed} at "
                    f"byte {offset + drift:,} or in the {DRIFT_WINDOW:,} bytes after it; the "
                    "file is damaged or does not belong to its index"
                )
            drift = start - offset
            strings[hashed] = _record(self.data, start, size, f"{self.dat_path}, string {hashed}")
        return strings


def read_locale(folder: Path, locale: str, wanted: Collection[int]) -> dict[int, str]:
    """The strings of one locale whose hashes are `wanted` (`LocaleFile.strings`)."""
    return LocaleFile(folder, locale).strings(wanted)


_INDEX_LINE = re.compile(r"([0-9]{1,10})\t([0-9]{1,10})\t([0-9]{1,6})\t[^\t]*")


def _find_record(data: bytes, hashed: int, expected: int) -> int:
    """Where the record of `hashed` starts: at `expected`, or a little after it. Some real
    files have blank lines the index does not count (zh_cn's drifts by 11 bytes), so the
    record is looked for at the next line starts within `DRIFT_WINDOW` bytes."""
    mark = f"{hashed}\t".encode()
    if data.startswith(mark, expected):
        return expected
    found = data.find(b"\n" + mark, max(expected - 1, 0), expected + DRIFT_WINDOW)
    return found + 1 if found >= 0 else -1


def _header(lines: list[str], name: str) -> str | None:
    """The value of the index's ``## Name:`` header line, if it has one."""
    for line in lines[:20]:
        if line.startswith(f"## {name}:"):
            return line.removeprefix(f"## {name}:").strip()
    return None


def _check_header(lines: list[str], locale: str, where: Path) -> None:
    """The index's ``## Locale:`` line, where it has one, names the locale of the file's
    name: a French file copied over the German one would otherwise be read as German."""
    said = _header(lines, "Locale")
    if said is not None and said.lower() != locale.lower():
        raise ClientError(
            f"{where}: its header says locale {shorten(said, 20)}, not {locale}; "
            "the file was copied from another language"
        )


# Where a record's indexed length ends: at a line end (the real zh_cn index cuts one record
# a byte short of it), and never past the start of the next record.
_RECORD_END = re.compile(rb"[^\r\n]?(?:\r?\n|\Z)")
_NEXT_RECORD = re.compile(rb"\n[0-9]{1,10}\t[a-z]{4}\t")


def _record(data: bytes, start: int, size: int, where: str) -> str:
    """The text of the record of `size` bytes at `start`: ``hash<TAB>kind<TAB>text``."""
    end = start + size
    if end > len(data):
        raise ClientError(
            f"{where}: bytes {start:,} to {end:,} lie past the end of the file "
            f"({len(data):,} bytes); the file is truncated"
        )
    if not _RECORD_END.match(data, end) or _NEXT_RECORD.search(data, start, end):
        raise ClientError(
            f"{where}: its length in the index ({size:,} bytes) does not end where the "
            "string does; the index is damaged"
        )
    try:
        record = data[start:end].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ClientError(f"{where}: the string is not UTF-8 text ({exc.reason})") from exc
    parts = record.split("\t", 2)
    if len(parts) != 3:
        raise ClientError(f"{where}: the record at byte {start:,} has no text")
    lines = parts[2].replace("\r\n", "\n").split("\n")
    # A translation tool's column that leaked into one real zh_cn card text ("English Notes
    # <TAB>None", cut short by the index): not the card's words.
    return "\n".join(line for line in lines if not line.startswith(TRANSLATOR_NOTE))
