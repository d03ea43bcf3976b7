"""Collection spreadsheets in: rows found, understood, resolved to cards, applied as one batch.

`read_collection` finds the sheet and its header and turns each row into a `SheetRow` (or a
row-numbered problem); `resolve_rows` names each row's card with the one `NameResolver`
(a misspelled name is a row problem with suggestions, never a guess); then
`cardbase.collection.change_collection` applies the whole file in one transaction, so an
import is all or nothing and `cardbase undo` reverts it whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.bulk import paused_gc
from cardbase.catalog.names import Catalogue, NameResolver, Printing
from cardbase.codes import parse_code
from cardbase.collection.attributes import NO_LOCATION
from cardbase.collection.changes import Change, Mode, Request, Selector
from cardbase.collection.plan import Defaults
from cardbase.errors import CardbaseError, SheetError, first_few
from cardbase.fields import FOIL, NONFOIL
from cardbase.limits import MAX_CELL, MAX_COUNT, MAX_ROWS
from cardbase.progress import EVERY, Progress, quiet
from cardbase.sheets.columns import FINISH_VALUES, Columns, find_header, fold
from cardbase.sheets.files import stream_sheets, unsafe_text

SHOWN_TEXT = 60  # characters of a cell quoted in a message
TOTAL_WORDS = frozenset({"total", "totals", "sum", "grandtotal", "subtotal"})
MAX_PROBLEMS_SHOWN = 20


class SheetRow(NamedTuple):
    row: int  # as the spreadsheet numbers it, from 1
    code: str
    name: str
    series: int | None
    nonfoil: int
    foil: int


class CollectionSheet(NamedTuple):
    source: str  # "Collection.xlsx, sheet 'Cards'"
    rows: list[SheetRow]
    problems: list[str]


class ImportReport(NamedTuple):
    source: str
    rows: int
    changes: list[Change]
    problems: list[str]  # rows skipped with --skip-bad
    dry_run: bool

    def counts(self) -> dict[str, int]:
        """Distinct cards newly owned, changed, no longer owned (foil and non-foil together)."""
        before: dict[int, int] = {}
        after: dict[int, int] = {}
        for change in self.changes:
            card = change.card  # its counts are as read before the import
            before[card.id] = card.nonfoil + card.foil
            after[card.id] = after.get(card.id, before[card.id]) + change.delta
        added = sum(1 for card_id in after if not before[card_id] and after[card_id])
        removed = sum(1 for card_id in after if before[card_id] and not after[card_id])
        return {
            "rows": self.rows,
            "added": added,
            "changed": len(after) - added - removed,
            "removed": removed,
            "skipped": len(self.problems),
        }


def read_collection(path: Path, sheet_name: str | None = None) -> CollectionSheet:
    """The first sheet (or the named one) with a card column, read into `SheetRow`s."""
    problem: CardbaseError | None = None
    for sheet in stream_sheets(path, sheet_name):
        source = sheet_source(path, sheet.name)
        try:
            columns = find_header(sheet.head, source)
        except CardbaseError as exc:
            problem = problem or exc
            continue
        after_header = chain(sheet.head[columns.header_row + 1 :], sheet.rest)
        return rows_from_sheet(after_header, columns, source)
    raise problem or SheetError(f"{path}: no sheets")


def sheet_source(path: Path, sheet_name: str) -> str:
    """How messages name a sheet: the file, and the sheet when a workbook has sheets."""
    if path.suffix.lower() in (".csv", ".tsv", ".txt"):
        return path.name
    return f"{path.name}, sheet '{sheet_name}'"


def _cell(row: list[Any], position: int | None) -> Any:
    """A cell's value; text longer than a spreadsheet cell holds is the row's problem."""
    if position is None or position >= len(row):
        return ""
    value = row[position]
    if value.__class__ is str and len(value) > MAX_CELL:
        raise CardbaseError(
            f"column {position + 1} has {len(value):,} characters, more than a spreadsheet "
            f"cell holds ({MAX_CELL:,})"
        )
    return unsafe_text(value) if value.__class__ is str and value[:1] == "'" else value


def _text(value: Any) -> str:
    if value.__class__ is str and "  " not in value and value.strip() == value:
        return value  # the usual cell: nothing to tidy
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _count(value: Any, column: str) -> int:
    """A count from a cell: 3, 3.0, "3" and " 3 " are three; blank is none.

    At most `MAX_COUNT`, the cap `add` has too: 1e30 copies is a typo, and would not fit in
    the database.
    """
    if value.__class__ is float and 0 <= value <= MAX_COUNT and value.is_integer():
        return int(value)  # the usual cell, as calamine reads numbers
    if value is None or value == "" or (isinstance(value, str) and not value.strip()):
        return 0
    if isinstance(value, bool):
        return int(value)
    number: float
    if isinstance(value, int | float):
        number = value
    else:
        try:
            number = float(str(value).strip().replace(",", "."))
        except ValueError:
            raise CardbaseError(f"{column} '{shorten(str(value))}' is not a number") from None
    if number < 0 or not float(number).is_integer():
        raise CardbaseError(f"{column} '{shorten(_text(value))}' must be a whole number, 0 or more")
    if number > MAX_COUNT:
        raise CardbaseError(
            f"{column} '{shorten(_text(value))}' is more than {MAX_COUNT:,} copies; check the cell"
        )
    return int(number)


def rows_from_sheet(data: Iterable[list[Any]], columns: Columns, source: str) -> CollectionSheet:
    """`SheetRow`s from the rows below the header (numbered as the spreadsheet numbers them)."""
    reader = _RowReader(columns)
    rows: list[SheetRow] = []
    problems: list[str] = []
    for number, row in enumerate(data, start=columns.header_row + 2):
        if number - columns.header_row - 1 > MAX_ROWS:
            raise CardbaseError(
                f"{source}: more than {MAX_ROWS:,} rows, which is more than a collection "
                "sheet holds; split the file"
            )
        first = next((cell for cell in row if not _blank(cell)), None)
        if first is None:
            continue
        try:
            code, name = _text(_cell(row, reader.code)), _text(_cell(row, reader.name))
            if _is_total(first) or _is_total(name):
                continue
            nonfoil, foil = reader.counts(row)
            series = reader.series(row)
        except CardbaseError as exc:
            problems.append(f"{source}, row {number}: {exc}")
            continue
        if not code and not name:
            if nonfoil or foil:
                problems.append(f"{source}, row {number}: a count but no card name or code")
            continue
        rows.append(SheetRow(number, code, name, series, nonfoil, foil))
    if not rows and not problems:
        raise CardbaseError(
            f"{source}: no card rows below the header (row {columns.header_row + 1})"
        )
    return CollectionSheet(source, rows, problems)


class _RowReader:
    """One sheet's columns by role, with positions and header labels looked up once."""

    def __init__(self, columns: Columns) -> None:
        at = columns.positions
        self.code, self.name = at.get("code"), at.get("name")
        self.nonfoil, self.foil = at.get("nonfoil"), at.get("foil")
        self.finish, self.set = at.get("finish"), at.get("series")
        self.labels = {role: columns.headers[position] or role for role, position in at.items()}
        self.quantities = self.nonfoil is not None or self.foil is not None
        self._series: dict[Any, int | None] = {}  # "Series 16" is on thousands of rows

    def counts(self, row: list[Any]) -> tuple[int, int]:
        """(non-foil, foil) copies a row holds."""
        if not self.quantities:
            copies = 1  # a plain list of cards: one copy a row
        elif self.nonfoil is None:
            copies = 0
        else:
            copies = _count(_cell(row, self.nonfoil), self.labels["nonfoil"])
        foil = 0 if self.foil is None else _count(_cell(row, self.foil), self.labels["foil"])
        if self.finish is not None:
            word = _text(_cell(row, self.finish)).lower()
            if word not in FINISH_VALUES:
                raise CardbaseError(
                    f"{self.labels['finish']} '{shorten(word)}' is not foil or normal"
                )
            if FINISH_VALUES[word] == FOIL:
                return 0, copies + foil
        return copies, foil

    def series(self, row: list[Any]) -> int | None:
        if self.set is None:
            return None
        cell = _cell(row, self.set)
        if cell not in self._series:
            self._series[cell] = _series(cell) or None
        return self._series[cell]


def shorten(text: str) -> str:
    """A cell's text as a message quotes it: a 1 MB cell must not become a 1 MB error."""
    return text if len(text) <= SHOWN_TEXT else text[: SHOWN_TEXT - 1] + "\u2026"


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _series(value: Any) -> int | None:
    """A series from a Set column: 2, "2", "Series 2"; a set's name gives none (not an error)."""
    digits = "".join(ch for ch in _text(value) if ch.isdigit())
    return int(digits) if digits and len(digits) <= 3 else None


def _is_total(value: Any) -> bool:
    """A totals row ("Total", "Grand total", "SUM") that people put under their lists."""
    return (
        isinstance(value, str) and value[:1].isalpha() and len(value) <= 16
        and fold(value) in TOTAL_WORDS
    )  # fmt: skip


def resolve_rows(
    resolver: NameResolver, sheet: CollectionSheet, progress: Progress = quiet
) -> tuple[list[tuple[int, str, int]], list[str]]:
    """(card id, finish, copies) for each resolvable row, and a problem line for each other."""
    wanted: list[tuple[int, str, int]] = []
    problems = list(sheet.problems)
    known: dict[tuple[str, str, int | None], Printing | str] = {}  # a sheet repeats its cards
    total = len(sheet.rows)
    for done, row in enumerate(sheet.rows):
        if done % EVERY == 0:
            progress("Matching cards", done, total)
        key = (row.code, row.name, row.series)
        answer = known.get(key)
        if answer is None:
            try:
                answer = _resolve(resolver, row)
            except CardbaseError as exc:
                answer = str(exc)
            known[key] = answer
        if isinstance(answer, str):
            problems.append(f"{sheet.source}, row {row.row}: {answer}")
            continue
        printing = answer
        for finish, copies in ((NONFOIL, row.nonfoil), (FOIL, row.foil)):
            if copies:
                wanted.append((printing.id, finish, copies))
    progress("Matching cards", total, total)
    return wanted, problems


def _resolve(resolver: NameResolver, row: SheetRow) -> Printing:
    if row.code:
        printing = _by_code(resolver, row)
        named = resolver.named(row.name) if row.name else []
        if named and printing not in named:
            raise CardbaseError(
                f"code {printing.code} is {printing.name}, "
                f"but the name column says '{shorten(row.name)}'"
            )
        return printing
    match = resolver.match(row.name)
    printings = match.printings
    if row.series is not None and len(printings) > 1:
        printings = [p for p in printings if p.series == row.series] or printings
    if len(printings) == 1:
        return printings[0]
    if printings:
        codes = ", ".join(str(p.code) for p in printings)
        raise CardbaseError(
            f"'{shorten(row.name)}' is printed as {codes}; add a code column to choose"
        )
    hint = f"; did you mean {', '.join(match.suggestions)}?" if match.suggestions else ""
    raise CardbaseError(f"'{shorten(row.name)}' is not a card{hint}")


def _by_code(resolver: NameResolver, row: SheetRow) -> Printing:
    if row.code.isdigit() and row.series is not None:
        found = resolver.numbered(row.series, int(row.code))
        if found:
            return found[0]
        raise CardbaseError(f"no card numbered {row.code} in series {row.series}")
    return resolver.by_code(parse_code(row.code))


def _read_beside_catalogue(
    db_path: Path, path: Path, sheet_name: str | None
) -> tuple[CollectionSheet, Catalogue]:
    """Read the sheet here while a second thread reads the whole catalogue for the resolver.

    calamine parses a workbook without holding the GIL, so on a large sheet the catalogue
    comes almost free. The thread has its own connection: sqlite3 connections stay in the thread
    that made them.
    """
    from concurrent.futures import ThreadPoolExecutor

    from cardbase.db.connect import open_existing

    def load() -> Catalogue:
        conn = open_existing(db_path)  # prepared by the caller; read-only where it must be
        try:
            return Catalogue.load(conn)
        finally:
            conn.close()

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardbase-index") as pool:
        loading = pool.submit(load)
        sheet = read_collection(path, sheet_name)
        return sheet, loading.result()


@paused_gc()  # a bulk job: see cardbase.bulk
def import_collection(
    db_path: Path,
    path: Path,
    sheet_name: str | None,
    mode: Mode,
    *,
    dry_run: bool = False,
    skip_bad: bool = False,
    progress: Progress = quiet,
    collector: str | None = None,
    defaults: Defaults | None = None,
) -> ImportReport:
    """Import a collection sheet into `collector`'s collection in one transaction and one
    history batch."""
    from cardbase.catalog.cards import card_refs_by_id
    from cardbase.collection.store import change_collection
    from cardbase.db import connect as db

    progress("Reading the sheet", 0, 1)
    conn: sqlite3.Connection = db.open_db(db_path, collector)
    try:
        sheet, catalogue = _read_beside_catalogue(db_path, path, sheet_name)
        progress("Reading the sheet", 1, 1)
        resolver = NameResolver(conn, catalogue=catalogue)
        wanted, problems = resolve_rows(resolver, sheet, progress)
        source, rows = sheet.source, len(sheet.rows)
        del sheet, catalogue, resolver  # a 100k-row import needs none again; the writes do
        if problems and not skip_bad:
            shown = first_few(problems, MAX_PROBLEMS_SHOWN)
            raise CardbaseError(
                f"{source}: {len(problems)} row(s) could not be imported, so nothing was "
                "(fix them, or add --skip-bad to import the rest):\n" + "\n".join(shown)
            )
        cards = card_refs_by_id(conn, (card_id for card_id, _, _ in wanted))
    finally:
        conn.close()
    defaults = defaults or Defaults()
    # A row that does not say its condition or language means the default, not "any": a
    # sheet lists holdings exactly.
    plain = Selector(defaults.condition, defaults.language, NO_LOCATION, "")
    requests = [
        Request(cards[card_id], finish, copies, plain) for card_id, finish, copies in wanted
    ]
    del cards, wanted
    changes = change_collection(
        db_path, requests, mode, f"import {path.name}", collector=collector, defaults=defaults,
        dry_run=dry_run, progress=progress,
    )  # fmt: skip
    return ImportReport(source, rows, changes, problems, dry_run)
