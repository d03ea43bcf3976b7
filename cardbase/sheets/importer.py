"""Collection spreadsheets in: rows found, understood, resolved to cards, applied as one batch.

`read_workbook` (`cardbase.sheets.rows`) finds each card sheet and its header and turns each
row into a `SheetRow` (or a row-numbered problem); `resolve_rows` names each row's card with the
one `NameResolver` (a misspelled name is a row problem with suggestions, never a guess); then
`cardbase.collection.change_collection` applies the whole file in one transaction, so an
import is all or nothing and `cardbase undo` reverts it whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from cardbase.bulk import paused_gc
from cardbase.catalog.cards import CardRef, name_key
from cardbase.catalog.names import Catalogue, NameResolver, Printing
from cardbase.collection.attributes import NO_LOCATION
from cardbase.collection.changes import Change, Mode, Request, Selector
from cardbase.collection.plan import Defaults
from cardbase.db.engine import Database
from cardbase.db.location import Location
from cardbase.errors import CardbaseError, Remedy, RowsError, first_few, no_card_named
from cardbase.fields import FOIL, NONFOIL
from cardbase.fileio.reading import STDIN
from cardbase.progress import EVERY, Progress, quiet
from cardbase.sheets.cells import shorten
from cardbase.sheets.rows import (
    CollectionSheet,
    SheetRow,
    Workbook,
    read_collection,
    read_workbook,
    rows_from_sheet,
)
from cardbase.text import plural, shown

__all__ = ["CollectionSheet", "SheetRow", "read_collection", "rows_from_sheet"]  # callers' names

MAX_PROBLEMS_SHOWN = 20


class SheetColumns(NamedTuple):
    """What was made of one sheet's columns, for the dry run and the summary to say."""

    source: str
    rows: int
    read: dict[str, str]  # header -> what it was read as
    ignored: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"sheet": self.source, "rows": self.rows, "columns": self.read,
                "ignored": list(self.ignored)}  # fmt: skip


class ImportReport(NamedTuple):
    source: str
    rows: int
    changes: list[Change]
    problems: list[str]  # rows skipped with --skip-bad
    dry_run: bool
    sheets: list[SheetColumns] = []  # noqa: RUF012 (a NamedTuple default, never mutated)
    skipped_sheets: list[str] = []  # noqa: RUF012
    empty_rows: int = 0  # rows naming a card with no copies (a count blank or 0): said, not lost
    wanted_rows: int = 0  # rows of a wish list (ManaBox's lists): wanted, not owned, left out

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
            "no_copies": self.empty_rows,
            "wish_list": self.wanted_rows,
        }

    def to_dict(self) -> dict[str, object]:
        """The import as `-o json` prints it and the import page's twin answers."""
        return {
            **self.counts(),
            "dry_run": self.dry_run,
            "source": self.source,
            "changes": [change.to_dict() for change in self.changes],
            "problems": self.problems,
            "sheets": [sheet.to_dict() for sheet in self.sheets],
            "skipped_sheets": self.skipped_sheets,
        }

    def summary(self) -> str:
        """The import in one sentence, as the command line and the page both say it: rows
        read, cards added, changed and removed, and every row left out and why."""
        counts = self.counts()
        added = counts["added"]
        verb = "would be" if self.dry_run else "was" if added == 1 else "were"
        skipped = "with problems" if self.dry_run else "skipped"
        parts = [
            plural(counts["rows"], "row"),
            f"{plural(added, 'card')} {verb} added, {counts['changed']} changed, "
            f"{counts['removed']} removed",
            f"{plural(counts['skipped'], 'row')} {skipped}",
        ]
        if counts["no_copies"]:
            parts.append(f"{plural(counts['no_copies'], 'row')} with no copies (count blank or 0)")
        if counts["wish_list"]:
            parts.append(
                f"{plural(counts['wish_list'], 'wish list row')} left out (wanted, not owned)"
            )
        return "; ".join(parts)


def skip_bad_remedy(problems: int) -> Remedy:
    """The way past rows that could not be imported: fix it (one row) or them, or skip."""
    one = problems == 1
    return Remedy(
        f"fix {'it' if one else 'them'}, or add --skip-bad to import the rest",
        f"fix {'the row' if one else 'them'} in the sheet and upload it again, or tick "
        "'skip the rows with problems'",
    )


# What a resolved row asks for: card id, finish, copies, which copies, and the note.
Held = tuple[int, str, int, Selector | None, str | None]


def resolve_rows(
    resolver: NameResolver, sheet: CollectionSheet, progress: Progress = quiet
) -> tuple[list[tuple[int, str, int]], list[str]]:
    """(card id, finish, copies) for each resolvable row, and a problem line for each other."""
    held, problems = resolve_holdings(resolver, sheet, progress)
    return [(card_id, finish, copies) for card_id, finish, copies, _, _ in held], problems


def resolve_holdings(
    resolver: NameResolver, sheet: CollectionSheet, progress: Progress = quiet
) -> tuple[list[Held], list[str]]:
    """A `Held` for each finish of each resolvable row, and a problem line for each other
    row."""
    wanted: list[Held] = []
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
        if row.trade:
            _add_traded(wanted, answer.id, row)
            continue
        if row.nonfoil:
            wanted.append((answer.id, NONFOIL, row.nonfoil, row.selector, row.note))
        if row.foil:
            wanted.append((answer.id, FOIL, row.foil, row.selector, row.note))
    progress("Matching cards", total, total)
    return wanted, problems


def _add_traded(wanted: list[Held], card_id: int, row: SheetRow) -> None:
    """A row's copies with its trade count's share tagged for trade (non-foil ones first):
    a trade count says which copies may go, never that there are more."""
    traded_nonfoil = min(row.trade, row.nonfoil)
    traded_foil = row.trade - traded_nonfoil
    for finish, copies, traded in (
        (NONFOIL, row.nonfoil, traded_nonfoil), (FOIL, row.foil, traded_foil),
    ):  # fmt: skip
        if copies - traded:
            wanted.append((card_id, finish, copies - traded, row.selector, row.note))
        if traded:
            wanted.append((card_id, finish, traded, row.traded or row.selector, row.note))


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
    if row.series is not None and printings:
        in_series = [p for p in printings if p.series == row.series]
        if not in_series:  # the set column says otherwise: which is right is the user's call
            codes = ", ".join(str(p.code) for p in printings)
            raise CardbaseError(
                f"'{shorten(row.name)}' is {codes}, not a card of series {row.series}; "
                "fix the set column or the name"
            )
        printings = in_series
    if len(printings) == 1:
        return printings[0]
    if printings:
        codes = ", ".join(str(p.code) for p in printings)
        raise CardbaseError(
            f"'{shorten(row.name)}' is printed as {codes}; add a code column to choose"
        )
    raise no_card_named(row.name, match.suggestions)


def _by_code(resolver: NameResolver, row: SheetRow) -> Printing:
    if row.code.isdigit() and row.series is not None:
        found = resolver.numbered(row.series, int(row.code))
        if len(found) > 1 and row.name:  # 2 U 33 and 2 P 33: the row's name chooses
            found = [p for p in found if name_key(p.name) == name_key(row.name)] or found
        if len(found) == 1:
            return found[0]
        if found:  # P cards are numbered on their own: the number alone names several
            named = " or ".join(f"{p.code} ({p.name})" for p in found)
            raise CardbaseError(
                f"card {row.code} of series {row.series} is {named}; add the rarity letter "
                f"(a code such as {found[0].code}) or the card's name"
            )
        raise CardbaseError(f"no card numbered {row.code} in series {row.series}")
    in_game, code = resolver.in_game(row.code)  # 'wh:1 C 41', as exports write another game's
    return in_game.by_code(in_game.read_code(code))


def _read_beside_catalogue(
    location: Location, path: Path, sheet_name: str | None, defaults: Defaults
) -> tuple[Workbook, Catalogue]:
    """Read the sheets here while a second thread reads the whole catalogue for the resolver.

    calamine parses a workbook without holding the GIL, so on a large sheet the catalogue
    comes almost free. The thread has its own connection: sqlite3 connections stay in the thread
    that made them.
    """
    from concurrent.futures import ThreadPoolExecutor

    from cardbase.db.connect import open_existing

    def load() -> Catalogue:
        conn = open_existing(location)  # prepared by the caller; read-only where it must be
        try:
            return Catalogue.load(conn)
        finally:
            conn.close()

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardbase-index") as pool:
        loading = pool.submit(load)
        book = read_workbook(path, sheet_name, defaults)
        return book, loading.result()


@paused_gc()  # a bulk job: see cardbase.bulk
def import_collection(
    db: Database,
    path: Path,
    sheet_name: str | None,
    mode: Mode,
    *,
    dry_run: bool = False,
    skip_bad: bool = False,
    progress: Progress = quiet,
    defaults: Defaults | None = None,
) -> ImportReport:
    """Import a collection sheet into `db`'s collection in one transaction and one history
    batch."""
    from cardbase.catalog.cards import card_refs_by_id
    from cardbase.collection.store import change_collection

    defaults = defaults or Defaults()
    progress("Reading the sheet", 0, 1)
    with db.reading() as conn:
        book, catalogue = _read_beside_catalogue(db.location, path, sheet_name, defaults)
        progress("Reading the sheet", 1, 1)
        resolver = NameResolver(conn, catalogue=catalogue)
        wanted, problems = [], []
        for sheet in book.sheets:
            held, found = resolve_holdings(resolver, sheet, progress)
            wanted += held
            problems += found
        source = book.sheets[0].source if len(book.sheets) == 1 else _file_name(path)
        sheets = [_columns_of(sheet) for sheet in book.sheets]
        skipped = [f"{_file_name(path)}: {line}" for line in book.skipped]
        rows = sum(sheet.rows for sheet in sheets)
        empty = sum(1 for sheet in book.sheets for row in sheet.rows
                    if not (row.nonfoil or row.foil or row.trade))  # fmt: skip
        wanted_rows = sum(sheet.wanted for sheet in book.sheets)
        del book, sheet, catalogue, resolver  # a 100k-row import needs none again; the writes do
        if problems and not skip_bad:
            shown = first_few(problems, MAX_PROBLEMS_SHOWN)
            raise RowsError(
                f"{source}: {plural(len(problems), 'row')} could not be imported, so nothing was",
                shown, skip_bad_remedy(len(problems)),
            )  # fmt: skip
        cards = card_refs_by_id(conn, (held[0] for held in wanted))
    requests = _requests(cards, wanted, mode, defaults)
    del cards, wanted
    changes = change_collection(
        db, requests, mode, f"import {_file_name(path)}",
        defaults=defaults, dry_run=dry_run, progress=progress,
    )  # fmt: skip
    return ImportReport(
        source, rows, changes, problems, dry_run, sheets, skipped, empty, wanted_rows
    )


def _file_name(path: Path) -> str:
    return "standard input" if path == STDIN else shown(path.name)


def _columns_of(sheet: CollectionSheet) -> SheetColumns:
    columns = sheet.columns
    read = columns.read() if columns else {}
    return SheetColumns(sheet.source, len(sheet.rows), read, columns.ignored if columns else ())


def _requests(
    cards: dict[int, CardRef], wanted: list[Held], mode: Mode, defaults: Defaults
) -> list[Request]:
    """The rows as requests. A row that does not say its condition or language means the
    default, not "any" (the reader filled them in): a sheet lists holdings exactly, so
    `--mode set` sets those copies and no others. A blank note adds copies without wiping the
    holding's note; in set and replace, the sheet is the truth."""
    plain = Selector(defaults.condition, defaults.language, NO_LOCATION, "")
    keep_notes = mode is Mode.ADD
    return [
        Request(
            cards[card_id], finish, copies, selector or plain,
            None if keep_notes and not note else note,
        )
        for card_id, finish, copies, selector, note in wanted
    ]  # fmt: skip
