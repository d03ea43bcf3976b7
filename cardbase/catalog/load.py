"""The catalogue: reading card lists (CSV in the cards.csv shape) and storing them.

Reading and checking is separate from storing: `read_catalogue` turns a file into card-table
rows and row-numbered problems without touching a database, and `store_rows` writes checked
rows in the caller's transaction. So a file with one bad row is rejected before anything is
written, and the bundled catalogue loads through the same checks as a user's file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cardbase.catalog.cards import Card, card_from_row, name_key, split_names
from cardbase.catalog.values import CONTROL, Row, RowError, RowReader
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, CatalogueError, first_few
from cardbase.fields import CATALOGUE_COLUMNS, NAME_COLUMNS, REQUIRED_COLUMNS, VALUE_FIELDS
from cardbase.limits import MAX_CATALOGUE_FILE, MAX_COLUMNS
from cardbase.progress import Progress, Stage, quiet
from cardbase.text import plural

MAX_PROBLEMS_SHOWN = 20


@dataclass
class CatalogueFile:
    """What a catalogue file held: the good rows (as the card table stores them, but the id),
    and a line for each bad one."""

    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)
    # The card-table columns the file gives; a card it updates keeps the others (a list
    # without text keeps the text `catalog import-client` read).
    given: frozenset[str] = frozenset(tables.CARD_COLUMNS)

    @property
    def cards(self) -> list[Card]:
        """The good rows as cards, made only when asked: an import never needs them."""
        return [card_from_row((0, *row)) for row in self.rows]


@dataclass(frozen=True)
class ImportCounts:
    added: int
    updated: int
    unchanged: int
    skipped: int = 0


def read_catalogue(path: Path, progress: Progress = quiet) -> CatalogueFile:
    """A catalogue CSV file: a regular file within `MAX_CATALOGUE_FILE`, UTF-8, with no NUL;
    `progress` hears its lines read ("Reading")."""
    from cardbase.fileio.bounded import read_bounded

    raw = read_bounded(path, MAX_CATALOGUE_FILE, "catalogue file", error=CatalogueError)
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise CatalogueError(f"{path}: a workbook, not a CSV file; save it as CSV UTF-8")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise CatalogueError(
            f"{path}: not a text file (a NUL byte at byte {nul:,}); save the catalogue as CSV UTF-8"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatalogueError(
            f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8 CSV"
        ) from exc
    del raw
    controls = CONTROL.search(text) is not None  # else no row needs looking at for them
    lines = Stage("Reading", text.count("\n"), progress)  # a row per line, but for quoted breaks
    result = parse_catalogue(
        lines.over(io.StringIO(text, newline="")), str(path), controls=controls
    )
    lines.finish()
    return result


def parse_catalogue(lines: Iterable[str], source: str, *, controls: bool = True) -> CatalogueFile:
    """Rows and row problems from CSV lines; `controls` says whether to look for control
    characters (a caller that searched the whole text and found none can skip it)."""
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is not None and len(header) > MAX_COLUMNS:
            raise CatalogueError(
                f"{source}: the header has {len(header):,} columns; a catalogue has "
                f"{len(CATALOGUE_COLUMNS)} (at most {MAX_COLUMNS} are read)"
            )
        if header is None or not any(cell.strip() for cell in header):
            raise CatalogueError(
                f"{source}: empty file; expected a header row ({', '.join(CATALOGUE_COLUMNS)})"
            )
        columns = _map_header(header, source)
        ignored = [cell.strip() for cell in header if cell.strip() and _column(cell) not in columns]
        result = CatalogueFile(ignored_columns=ignored, given=_given(columns))
        _read_rows(reader, RowReader(columns, controls), source, result)
    except csv.Error as exc:
        raise CatalogueError(f"{source}: not a readable CSV file ({exc})") from exc
    return result


def _read_rows(
    reader: Iterable[list[str]], read_row: RowReader, source: str, result: CatalogueFile
) -> None:
    """Every row after the header into `result`: a stored row, or a line saying what is bad."""
    seen: dict[tuple[object, ...], int] = {}
    rows, problems = result.rows, result.problems
    for row_number, row in enumerate(reader, start=2):
        try:
            if len(row) > MAX_COLUMNS:
                raise RowError(f"{len(row):,} columns; a catalogue has {len(CATALOGUE_COLUMNS)}")
            values = read_row(row)
        except CardbaseError as exc:
            if any(cell.strip() for cell in row):  # a blank line is no row, not a bad one
                problems.append(f"{source}, row {row_number}: {exc}")
            continue
        key = values[:4]  # game, series, rarity, number
        first = seen.setdefault(key, row_number)
        if first != row_number:
            code = f"{values[1]} {values[2]} {values[3]}"
            problems.append(f"{source}, row {row_number}: code {code} repeats row {first}")
            continue
        rows.append(values)


# The games' own fields, by their key, and by their header as a catalogue column names it.
VALUE_KEYS: tuple[str, ...] = tuple(field.key for field in VALUE_FIELDS if field.key)
_VALUE_HEADERS: dict[str, str] = {
    (field.export or "").strip().lower().replace(" ", "_"): field.key
    for field in VALUE_FIELDS
    if field.key and (field.export or "").strip().lower() not in CATALOGUE_COLUMNS
}


def _given(columns: dict[str, int]) -> frozenset[str]:
    """The card-table columns a file with these catalogue columns fills, and the games' own
    fields it gives (a card keeps its values of those it does not)."""
    derived = {"code": ("series", "rarity", "number"), "name": ("name", "name_key")}
    given = {"id", "game", "type", "hero", "sphere"}  # always decided, if only by default
    for column in columns:
        given.update(derived.get(column, (column,)))
    if any(column in NAME_COLUMNS for column in columns):
        given.add("names")
    return frozenset(given & {*tables.CARD_COLUMNS, *VALUE_KEYS})


def _column(header: str) -> str:
    name = header.strip().lower().replace(" ", "_")
    return _VALUE_HEADERS.get(name, name)


def _map_header(header: list[str], source: str) -> dict[str, int]:
    columns: dict[str, int] = {}
    for position, cell in enumerate(header):
        name = _column(cell)
        if name in CATALOGUE_COLUMNS or name in NAME_COLUMNS:
            if name in columns:
                raise CatalogueError(
                    f"{source}: column '{cell.strip()}' appears twice in the header"
                )
            columns[name] = position
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        raise CatalogueError(
            f"{source}: the header has no {', '.join(missing)} column "
            f"(found: {', '.join(h.strip() for h in header if h.strip()) or 'nothing'}); "
            f"expected columns {', '.join(CATALOGUE_COLUMNS)}"
        )
    return columns


def store_rows(
    conn: Connection,
    rows: list[Row],
    skipped: int = 0,
    progress: Progress = quiet,
    given: frozenset[str] = frozenset(tables.CARD_COLUMNS),
) -> ImportCounts:
    """Add new cards and update changed ones, matched by game and code, in `conn`'s
    transaction; an updated card keeps what it has in the columns not `given`.

    Each kind of statement is prepared once and run over all its rows; a load that writes
    much of the table sets its indexes and full-text triggers aside and rebuilds them once
    (`cardbase.db.bulkload`). `progress` hears "Writing" and "Indexing" move.
    """
    from cardbase.db.bulkload import is_bulk

    columns = tables.CARD_COLUMNS[1:]  # all but the id, in the table's order
    own = _OwnValues(conn, rows, given) if VALUE_KEYS else None
    if own is not None:
        rows = [values[: len(columns)] for values in rows]
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples, compared whole with each row
    found = cursor.execute(f"SELECT {', '.join(tables.CARD_COLUMNS)} FROM {tables.CARD_TABLE}")
    existing = {row[1:5]: row for row in found}  # by game, series, rarity, number
    kept = [at for at, column in enumerate(columns) if column not in given]
    new_rows: list[Row] = []
    changed_rows: list[Row] = []
    for values in rows:
        old = existing.get(values[:4])
        if old is None:
            new_rows.append(values)
            continue
        if kept:
            values = tuple(old[at + 1] if at in kept else v for at, v in enumerate(values))
        if old[1:] != values or (own is not None and own.changed(old[0], values[:4])):
            changed_rows.append((*values, old[0]))
    written = len(new_rows) + len(changed_rows)
    stage = Stage("Writing", written, progress)
    with conn.engine.bulk_load(conn, is_bulk(written, len(existing) + len(new_rows)), progress):
        if new_rows:
            marks = ", ".join("?" * len(columns))
            insert = f"INSERT INTO {tables.CARD_TABLE} ({', '.join(columns)}) VALUES ({marks})"
            cursor.executemany(insert, stage.over(new_rows))
        if changed_rows:
            assignments = ", ".join(f"{column} = ?" for column in columns)
            update = f"UPDATE {tables.CARD_TABLE} SET {assignments} WHERE id = ?"
            cursor.executemany(update, stage.over(changed_rows))
        stage.finish()
    if written:
        index_card_names(conn)
        if own is not None:
            own.store()
    return ImportCounts(len(new_rows), len(changed_rows), len(rows) - written, skipped)


class _OwnValues:
    """A catalogue's values of the games' own fields (the rows' last cells, `VALUE_KEYS`),
    kept in card_value in the same transaction as the cards: for each field the file gives,
    a card's row of it is replaced by the file's value (none, or a flag that is no, is no
    row); a field it does not give keeps its rows."""

    def __init__(self, conn: Connection, rows: list[Row], given: frozenset[str]) -> None:
        self.conn = conn
        width = len(tables.CARD_COLUMNS) - 1
        self.keys = [(at, key) for at, key in enumerate(VALUE_KEYS) if key in given]
        self.wanted = {
            row[:4]: {key: _as_stored(row[width + at]) for at, key in self.keys} for row in rows
        }
        self.held: dict[int, dict[str, tuple[object, object]]] = {}
        for card_id, name, number, word in conn.execute(
            f"SELECT card_id, field, number, word FROM {tables.CARD_VALUE_TABLE}"
        ):
            self.held.setdefault(card_id, {})[name] = (number, word)

    def changed(self, card_id: int, card: tuple[object, ...]) -> bool:
        """Whether the file changes a card already stored's values."""
        held = self.held.get(card_id, {})
        wanted = self.wanted[card]
        return any(held.get(key) != wanted[key] for _, key in self.keys)

    def store(self) -> None:
        """Every card of the file's values of the fields it gives, as it gives them."""
        if not self.keys:
            return
        ids = {row[1:]: row[0] for row in self.conn.execute(
            f"SELECT id, game, series, rarity, number FROM {tables.CARD_TABLE}")}  # fmt: skip
        gone, added = [], []
        for card, values in self.wanted.items():
            card_id = ids[card]
            for _, key in self.keys:
                gone.append((card_id, key))
                if values[key] is not None:
                    added.append((card_id, key, *values[key]))  # type: ignore[misc]
        table = tables.CARD_VALUE_TABLE
        self.conn.executemany(f"DELETE FROM {table} WHERE card_id = ? AND field = ?", gone)
        columns = ", ".join(tables.CARD_VALUE_COLUMNS)
        self.conn.executemany(f"INSERT INTO {table} ({columns}) VALUES (?, ?, ?, ?)", added)


def _as_stored(value: object) -> tuple[object, object] | None:
    """A value of a game's own field as card_value holds it: (number, word), None for none."""
    if value is None or value is False:
        return None
    if isinstance(value, str):
        return (None, value)
    return (int(value), None)  # type: ignore[call-overload]


def checked_rows(parsed: CatalogueFile, source: str, skip_bad: bool) -> list[Row]:
    """The rows to store, or a `CatalogueError` listing bad rows when they are not skipped."""
    if parsed.problems and not skip_bad:
        shown = first_few(parsed.problems, MAX_PROBLEMS_SHOWN, "more bad rows")
        raise CatalogueError(
            f"{source}: {plural(len(parsed.problems), 'bad row')}, so nothing was imported",
            shown,
            f"fix {'it' if len(parsed.problems) == 1 else 'them'}, or add --skip-bad to import "
            "the good rows",
        )
    if not parsed.rows:
        raise CatalogueError(f"{source}: no cards in the file")
    return parsed.rows


def load_catalogue(conn: Connection, path: Path) -> ImportCounts:
    """Load a whole catalogue file, which must have no bad rows, in `conn`'s transaction."""
    from cardbase.bulk import paused_gc

    with paused_gc():
        parsed = read_catalogue(path)
        rows = checked_rows(parsed, str(path), skip_bad=False)
        return store_rows(conn, rows, given=parsed.given)


def index_card_names(conn: Connection) -> None:
    """The card_name rows, made anew from every card's `names`: what looks a card up by its
    name in another language. A few thousand rows, rebuilt whole by the write that changed
    a card's names, so the two cannot disagree."""
    cursor = conn.cursor()
    cursor.row_factory = None
    cursor.execute(f"DELETE FROM {tables.CARD_NAME_TABLE}")
    rows = cursor.execute(f"SELECT id, names FROM {tables.CARD_TABLE} WHERE names <> ''")
    entries = [
        (card_id, language, name, name_key(name))
        for card_id, names in rows.fetchall()
        for language, name in split_names(names).items()
    ]
    columns = ", ".join(tables.CARD_NAME_COLUMNS)
    cursor.executemany(
        f"INSERT INTO {tables.CARD_NAME_TABLE} ({columns}) VALUES (?, ?, ?, ?)", entries
    )
