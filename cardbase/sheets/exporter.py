"""Collections, catalogues and search results out to spreadsheets, in the importer's columns.

The headers come from `cardbase.fields` and are ones `cardbase.sheets.columns` recognises,
so an exported file imports back unchanged (tested), and another collector's cardbase reads
it too.

A card the collector holds gets a row for each set of copies that differ in more than their
finish: condition, language, location, tags and note, with its non-foil and foil copies of
those side by side (2 NM and 1 LP French are two rows). A collection of plain copies
therefore exports one row a card, as it did before copies had attributes; a card not held
(in a catalogue or search export) is one row with blank attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card, holds_several_games
from cardbase.collection.attributes import condition_rank, tag_list
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import SheetError
from cardbase.fields import EXPORT_FIELDS, FOIL, CardField
from cardbase.fileio.writing import Table, output_file, safe_text, write_csv, write_xlsx
from cardbase.limits import MAX_COUNT
from cardbase.progress import Progress, Stage, quiet, step
from cardbase.text import shown

WIDTHS = {
    "Code": 10, "Name": 28, "Traits": 24, "Text": 60, "Lore": 40, "Type": 10, "Sphere": 9,
    "Location": 16, "Tags": 20, "Note": 30,
}  # fmt: skip
SUFFIXES = (".xlsx", ".csv")
FORMATS = tuple(suffix[1:] for suffix in SUFFIXES)
STDOUT = Path("-")  # `cardbase export -`: CSV (or --format xlsx) on standard output
SHEET_NAMES = {"catalogue": "Catalogue", "collection": "Collection", "query": "Cards"}
# After the counts: which copies they are. Headers `cardbase.sheets.columns` reads back.
ATTRIBUTE_HEADERS = ("Condition", "Language", "Location", "Tags", "Note")
TAG_CELL_SEPARATOR = ", "  # tags in one cell; the importer splits on the comma
_NO_ATTRIBUTES = [None] * len(ATTRIBUTE_HEADERS)


class ExportReport(NamedTuple):
    path: Path
    rows: int
    cards: int


class Copies(NamedTuple):
    """One exported row's copies: the attributes, and non-foil and foil counts."""

    condition: str
    language: str
    location: str
    tags: str
    note: str
    nonfoil: int
    foil: int

    def sort_key(self) -> tuple[int, str, str, str, str]:
        return (condition_rank(self.condition), self.language, self.location.casefold(),
                self.tags.casefold(), self.note)  # fmt: skip


def export_fields(with_text: bool) -> tuple[CardField, ...]:
    """The columns of an export: the registry's, with text and lore (last, being long) for the
    catalogue."""
    short = tuple(field for field in EXPORT_FIELDS if not field.text_only)
    return short + tuple(field for field in EXPORT_FIELDS if field.text_only and with_text)


def _as_is(value: Any) -> Any:
    return value


def card_row(card: Card, columns: tuple[CardField, ...]) -> list[Any]:
    """A card's cells: each field's JSON value as its type writes it in a sheet (traits
    joined, a Hero as 'yes')."""
    values = card.to_dict()
    return [_CELL[field.name](values[field.key or field.name]) for field in columns]


_CELL: dict[str, Callable[[Any], Any]] = {
    field.name: field.type.cell if field.type else _as_is for field in EXPORT_FIELDS
}


def held_copies(
    conn: Connection, only: set[tuple[Any, ...]] | None = None
) -> dict[int, list[Copies]]:
    """The connection's collector's holdings by card id, each card's in condition order;
    a holding's foil and non-foil copies that differ in nothing else share a row. Past
    `MAX_COUNT` copies, the rest go on more rows, which the importer adds up. `only`: the
    holdings a query's copy terms picked (`picked_holdings`), the rest left out."""
    grouped: dict[tuple[int, str, str, str, str, str], list[int]] = {}
    for card_id, finish, *attributes, copies in conn.execute(
        f"SELECT card_id, finish, condition, language, location, tags, note, copies "
        f"FROM {tables.MY_HOLDING}"
    ):
        if only is not None and (card_id, finish, *attributes[:4]) not in only:
            continue
        counts = grouped.setdefault((card_id, *attributes), [0, 0])
        counts[finish == FOIL] += copies
    held: dict[int, list[Copies]] = {}
    for (card_id, condition, language, location, tags, note), (nonfoil, foil) in grouped.items():
        rows = held.setdefault(card_id, [])
        while True:  # a row holds at most what the importer reads from one row
            row_nonfoil, row_foil = min(nonfoil, MAX_COUNT), min(foil, MAX_COUNT)
            rows.append(Copies(condition, language, location, tags, note, row_nonfoil, row_foil))
            nonfoil, foil = nonfoil - row_nonfoil, foil - row_foil
            if not nonfoil and not foil:
                break
    for found in held.values():
        if len(found) > 1:
            found.sort(key=Copies.sort_key)
    return held


def export_rows(
    cards: Iterable[Card],
    columns: tuple[CardField, ...],
    held: dict[int, list[Copies]],
    games: bool = False,
) -> Iterator[list[Any]]:
    """Each card's row, once for each `Copies` of it held (`card_row`'s columns with the
    attributes after the counts); with `games`, the card's game last (`GAME_HEADER`)."""
    nonfoil_at, foil_at, cut = _count_columns(columns)
    for card in cards:
        base = card_row(card, columns)
        if games:
            base.append(card.game)
        found = held.get(card.id)
        if not found:
            base[cut:cut] = _NO_ATTRIBUTES
            yield base
            continue
        head, tail = base[:cut], base[cut:]
        for copies in found:
            head[nonfoil_at], head[foil_at] = copies.nonfoil, copies.foil
            tags = TAG_CELL_SEPARATOR.join(tag_list(copies.tags))
            attributes = [copies.condition, copies.language, copies.location, tags, copies.note]
            yield head + attributes + tail


# The column that says each card's game, in an export of cards of several games: their
# codes repeat (`1 C 41` is a card of each), and the importer reads the game from it.
GAME_HEADER = "Game"


def several_games(conn: Connection, cards: Sequence[Card]) -> bool:
    """Whether the export needs the Game column: its cards are of several games, or the
    database's are (one game's `1 C 41` is ambiguous when the file is read back there)."""
    return len({card.game for card in cards}) > 1 or holds_several_games(conn)


def export_headers(columns: tuple[CardField, ...], games: bool = False) -> list[str]:
    headers = [field.export or field.name for field in columns]
    cut = _count_columns(columns)[2]
    return [*headers[:cut], *ATTRIBUTE_HEADERS, *headers[cut:], *([GAME_HEADER] * games)]


def _count_columns(columns: tuple[CardField, ...]) -> tuple[int, int, int]:
    """Where the non-foil and foil counts are, and where the attributes go: right after."""
    names = [field.name for field in columns]
    nonfoil_at, foil_at = names.index("nonfoil"), names.index("foil")
    return nonfoil_at, foil_at, max(nonfoil_at, foil_at) + 1


def totals_table(cards: Sequence[Card]) -> Table:
    nonfoil = sum(card.nonfoil for card in cards)
    foil = sum(card.foil for card in cards)
    rows = [
        ("Cards listed", len(cards)),
        ("Copies owned", nonfoil + foil),
        ("Non-foil copies", nonfoil),
        ("Foil copies", foil),
        ("Distinct cards owned", sum(1 for card in cards if card.owned)),
    ]
    return Table("Totals", ("Total", "Count"), rows)


def export_cards(
    conn: Connection,
    path: Path,
    what: str,
    query_text: str | None = None,
    *,
    force: bool = False,
    bom: bool = False,
    fmt: str | None = None,
    progress: Progress = quiet,
) -> ExportReport:
    """Write `cards_to_export(what)` to `path` (`STDOUT`: standard output) as `fmt` or as its
    suffix says; the file is refused before the search runs. `progress` hears "Searching",
    "Writing" (card by card) and, for a workbook, "Saving"."""
    from cardbase.bulk import paused_gc

    path = target_path(path, fmt)
    if path == STDOUT:
        return _export_to_stdout(conn, what, query_text, fmt or "csv", bom)
    columns = export_fields(with_text=what == "catalogue")
    sheet = SHEET_NAMES[what]
    workbook = path.suffix.lower() != ".csv"
    with output_file(path, force=force, suffixes=SUFFIXES) as temporary:
        cards = step("Searching", progress, lambda: cards_to_export(conn, what, query_text))
        games = several_games(conn, cards)
        headers = export_headers(columns, games)
        held = held_copies(conn, picked_holdings(conn, what, query_text))
        writing = Stage("Writing", len(cards), progress)

        def rows() -> Iterator[list[Any]]:
            yield from export_rows(writing.over(cards), columns, held, games)
            writing.finish()
            if workbook:  # what is left is zipping the workbook up, in one call
                progress("Saving", 0, 1)

        with paused_gc():
            if not workbook:
                count = write_csv(temporary, Table(sheet, headers, rows()), bom=bom)
            else:
                tables = [Table(sheet, headers, rows()), totals_table(cards)]
                count = write_xlsx(temporary, tables, WIDTHS)
                progress("Saving", 1, 1)
    return ExportReport(path, count, len(cards))


def cards_to_export(conn: Connection, what: str, query_text: str | None) -> list[Card]:
    """'collection' (owned cards), 'catalogue' (every card), or 'query' (search results)."""
    from cardbase.bulk import paused_gc
    from cardbase.query import search

    text = {"catalogue": "", "query": query_text or ""}.get(what, "is:owned")
    with paused_gc():
        return search.search(conn, search.build_query(text))


def picked_holdings(
    conn: Connection, what: str, query_text: str | None
) -> set[tuple[Any, ...]] | None:
    """For a query with copy terms (`tag:trade`, `in:"binder 1"`), the holdings they pick, as
    `collection --copies` lists them: `export --query tag:trade` writes the tagged copies,
    not every copy of a card that has one. None: every holding of the cards found."""
    from cardbase.query import nodes as q
    from cardbase.query import search

    if what != "query" or not query_text:
        return None
    query = search.build_query(query_text)
    if q.per_holding(query.root) == query.root:
        return None
    return {(c.card_id, c.finish, c.condition, c.language, c.location, c.tags)
            for c in search.search_copies(conn, query)}  # fmt: skip


def target_path(path: Path, fmt: str | None) -> Path:
    """The file to write: a name without a suffix gets `fmt`'s; a suffix that says another
    format than `fmt` is refused, as one of the two is a mistake."""
    if fmt is None or path == STDOUT:
        return path
    if fmt not in FORMATS:
        raise SheetError(f"unknown format '{fmt}'; use {' or '.join(FORMATS)}")
    if not path.suffix:
        return path.with_suffix(f".{fmt}")
    if path.suffix.lower() != f".{fmt}":
        raise SheetError(f"{shown(path)}: the name says {path.suffix}, but --format says {fmt}")
    return path


def _export_to_stdout(
    conn: Connection, what: str, query_text: str | None, fmt: str, bom: bool
) -> ExportReport:
    """CSV (or xlsx, when standard output is not a terminal) on standard output, so that an
    export pipes into another program or `cardbase import -`."""
    import sys

    from cardbase.bulk import paused_gc

    if fmt not in FORMATS:
        raise SheetError(f"unknown format '{fmt}'; use {' or '.join(FORMATS)}")
    if fmt == "xlsx" and sys.stdout.isatty():
        raise SheetError("standard output: a workbook is not for a terminal; redirect it to a file")
    columns = export_fields(with_text=what == "catalogue")
    cards = cards_to_export(conn, what, query_text)
    games = several_games(conn, cards)
    with paused_gc():
        rows = export_rows(
            cards, columns, held_copies(conn, picked_holdings(conn, what, query_text)), games
        )
        table = Table(SHEET_NAMES[what], export_headers(columns, games), rows)
        if fmt == "csv":
            count = _csv_to(sys.stdout, table, bom)
        else:
            count = _xlsx_to(sys.stdout, [table, totals_table(cards)])
    return ExportReport(STDOUT, count, len(cards))


def _csv_to(stream: Any, table: Table, bom: bool) -> int:
    import csv

    if bom:
        stream.write("\ufeff")
    writer = csv.writer(stream)
    writer.writerow(table.headers)
    count = 0
    for row in table.rows:
        writer.writerow([safe_text(value) for value in row])
        count += 1
    stream.flush()
    return count


def _xlsx_to(stream: Any, tables: list[Table]) -> int:
    """A workbook is written to a file (openpyxl needs to seek), then copied out."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cardbase-export-") as folder:
        temporary = Path(folder) / "export.xlsx"
        count = write_xlsx(temporary, tables, WIDTHS)
        out = getattr(stream, "buffer", stream)
        out.write(temporary.read_bytes())
        out.flush()
    return count
