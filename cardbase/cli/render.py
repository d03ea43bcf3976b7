"""Rendering library results: rich tables on a terminal, plain text when piped, JSON and CSV.

Rich is imported only when a table goes to a colour terminal, so that piped and scripted
use starts as fast as the query itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import TYPE_CHECKING, Any

from cardbase.catalog.cards import Card, detail_lines
from cardbase.cli.root import STATE, Output
from cardbase.fields import (
    FINISHES,
    JSON_KEYS,
    NAME_COLUMNS,
    NAME_LANGUAGES,
    TABLE_FIELDS,
    CardField,
    name_column,
)
from cardbase.fieldtypes import Flag
from cardbase.gamefile import GAME_FIELDS
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.text import UNSEEN_IN_JSON, pattern, shown, visible

if TYPE_CHECKING:
    from cardbase.query.copies import Copy

CARD_HEADERS = tuple(field.table or field.name for field in TABLE_FIELDS)


CHECK, CROSS = "\u2714", "\u2718"  # a valid deck, an invalid one
TERMINAL_PAGE = 50  # rows of a table on a terminal; see cardbase.cli.paging
# rich draws about 1,200 rows a second; a longer table (a big import's history, --all) is
# printed plain rather than keep the terminal waiting for its box.
RICH_MAX_ROWS = 500
SURROGATE = "[\ud800-\udfff]"  # what a file name's bytes that are not UTF-8 become (PEP 383)


def _visible_rows(rows: list[Sequence[str]]) -> list[Sequence[str]]:
    """`visible` for every cell, after one check of the whole table: a regex a cell at a
    time cost a search of 3,941 cards a tenth of its time, and almost no table needs it."""
    if " ".join(chain.from_iterable(rows)).isprintable():
        return rows
    return [tuple(map(visible, row)) for row in rows]


def echo(message: object = "", *, err: bool = False, nl: bool = True) -> None:
    """`typer.echo` for every line that can carry a card's, deck's or file's text; a file
    name's bytes that are not UTF-8 shown as ``\\xff`` (`cardbase.text`), which
    stdout's encoder would refuse."""
    import typer

    typer.echo(visible(shown(str(message)), keep="\n"), err=err, nl=nl)


def on_terminal() -> bool:
    return sys.stdout.isatty()


def use_rich() -> bool:
    """Rich tables and colour on a terminal, unless NO_COLOR is set to something (no-color.org:
    an empty NO_COLOR is no request); FORCE_COLOR set to something asks for them in a pipe
    too (paging still follows the terminal, `on_terminal`)."""
    if os.environ.get("NO_COLOR"):
        return False
    return on_terminal() or bool(os.environ.get("FORCE_COLOR"))


def _count(value: int) -> str:
    return str(value) if value else ""


def _text(value: object) -> str:
    return "" if value is None else str(value)


# How a table shows each field that reads other than its plain value, as expressions over
# `card`: the row function below is made from them once, for every column in the registry.
_SHOWN = {
    "code": "card.code_shown",
    "rarity": "card.code.rarity_name",
    "sphere": "card.sphere_shown",
    "attack": "card.stats_shown",
    "nonfoil": "_count(card.nonfoil)",
    "foil": "_count(card.foil)",
}


def _cell(field: CardField) -> str:
    """A field's plain cell over `card`: its attribute, or its value of the games' own
    fields (a flag as 'yes' or nothing)."""
    if not field.value:
        return f"_text(card.{field.key or field.name})"
    return f"{'_flag' if isinstance(field.type, Flag) else '_text'}(card.values[{field.key!r}])"


def _row_function() -> Callable[[Card], tuple[str, ...]]:
    """One function that makes a whole row, as `collections.namedtuple` makes its methods:
    a search prints thousands of rows, and a call per cell cost a cold search 4 ms."""
    cells = [_SHOWN.get(f.name) or _cell(f) for f in TABLE_FIELDS]
    source = f"lambda card: ({', '.join(cells)},)"
    names = {"_count": _count, "_text": _text, "_flag": Flag().shown}
    row: Callable[[Card], tuple[str, ...]] = eval(source, names)
    return row


card_cells = _row_function()
card_cells.__doc__ = "A card's row in a table: `cardbase.fields.TABLE_FIELDS`, in order."


def print_table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], title: str | None = None
) -> None:
    rows = _visible_rows(list(rows))
    if use_rich() and len(rows) <= RICH_MAX_ROWS:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(title=title, header_style="bold")
        for header in headers:
            table.add_column(header, overflow="fold")
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))  # card text has [brackets]
        Console().print(table)
        return
    grid = [tuple(headers), *map(tuple, rows)]
    widths = [max(map(len, column)) for column in zip(*grid, strict=True)]
    template = "  ".join(f"%-{width}s" for width in widths)  # %: a third faster than format
    sys.stdout.write("\n".join([(template % row).rstrip() for row in grid]) + "\n")


def print_json(value: Any) -> None:
    """JSON escapes C0 controls itself; the rest of `text.UNSEEN` becomes ``\\u`` escapes too,
    which any JSON reader reads as the same characters. With ``-o jsonl`` a list is one
    object a line (as sqlite-utils ``--nl`` writes), anything else one line."""
    import json

    if STATE.output is Output.jsonl:
        lines = value if isinstance(value, list) else [value]
        text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
        if not text:
            return
    else:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    text = pattern(UNSEEN_IN_JSON).sub(lambda m: f"\\u{ord(m[0]):04x}", text)
    if not text.isascii():  # a file name's bytes that are not UTF-8, as `echo` shows them
        text = pattern(SURROGATE).sub(lambda m: "\\" + shown(m[0]), text)
    sys.stdout.write(text + "\n")


def print_csv(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """CSV, or with ``-o tsv`` tab-separated; ``--no-headers`` leaves the header row out."""
    import csv

    delimiter = "\t" if STATE.output is Output.tsv else ","
    writer = csv.writer(sys.stdout, lineterminator="\n", delimiter=delimiter)
    if not STATE.no_headers:
        writer.writerow(headers)
    writer.writerows(rows)


# CSV's columns for a card: the JSON keys, with the names in other languages a column each,
# as a catalogue file has them (name_de ...), so a search's CSV is a catalogue too.
CARD_CSV_HEADERS: tuple[str, ...] = tuple(
    column for key in JSON_KEYS for column in (NAME_COLUMNS if key == "names" else (key,))
)


def card_csv_row(card: Card) -> list[Any]:
    values = card.to_dict()
    values["traits"] = ", ".join(card.traits)
    names = values.pop("names")
    values.update({name_column(language): names.get(language, "") for language in NAME_LANGUAGES})
    return [values[column] for column in CARD_CSV_HEADERS]


def print_cards(
    cards: Sequence[Card], output: Output, in_decks: dict[int, int] | None = None
) -> None:
    """Cards as a search lists them; `in_decks` (the collection's): each card's copies in
    built decks, as JSON fields and, once any deck on the page is built, two columns."""
    from cardbase.collection.sleeved import with_decks

    if output is Output.json:
        if in_decks is None:
            print_json([card.to_dict() for card in cards])
        else:
            print_json([with_decks(card.to_dict(), card.owned, in_decks.get(card.id, 0))
                        for card in cards])  # fmt: skip
    elif output is Output.csv:
        print_csv(CARD_CSV_HEADERS, (card_csv_row(card) for card in cards))
    elif in_decks:
        print_table(*_shown_columns(
            cards, ("In decks", "Free"),
            [(*card_cells(card), _count(in_decks.get(card.id, 0)),
              str(max(0, card.owned - in_decks.get(card.id, 0)))) for card in cards],
        ))  # fmt: skip
    else:
        print_table(*_shown_columns(cards, (), [card_cells(card) for card in cards]))


# Columns of the fields a game file gives its cards of its own (`CardField.value`): shown
# when a card in the table has a value, so a user's game does not widen every other game's
# tables with empty columns.
_OWN_COLUMNS = tuple(at for at, field in enumerate(TABLE_FIELDS) if field.value)


def _shown_columns(
    cards: Sequence[Card], more: Sequence[str], rows: list[Sequence[str]]
) -> tuple[Sequence[str], list[Sequence[str]]]:
    """The table's headers and rows: a table of one game's cards in that game's words
    (`_game_headers`), without the columns of fields it has not, nor of own fields no card
    in the table has a value of."""
    games = {card.game for card in cards}
    headers = [*_game_headers(GAMES.get(games.pop()) if len(games) == 1 else None), *more]
    empty = {at for at in _OWN_COLUMNS if not any(row[at] for row in rows)}
    empty.update(at for at, header in enumerate(headers) if header is None)
    kept = [at for at in range(len(headers)) if at not in empty]
    shown = [str(headers[at]) for at in kept]
    if not empty:
        return shown, rows
    cut: list[Sequence[str]] = [[row[at] for at in kept] for row in rows]
    return shown, cut


def _game_headers(game: Game | None) -> list[str | None]:
    """The card table's headers as `game` names its fields (Pixie Duel's Court and
    Glamour/Grace), None for a field of the card table it does not give its cards (a
    Wildhearts table has no Sphere column); the registry's headers for the default game, or
    a table of several games."""
    if game is None or game.key == DEFAULT_GAME:
        return list(CARD_HEADERS)
    headers: list[str | None] = []
    for field, header in zip(TABLE_FIELDS, CARD_HEADERS, strict=True):
        own = game.fields.get(field.name)
        if field.name not in GAME_FIELDS or field.value:
            headers.append(header)
        elif own is None:
            headers.append(None)
        elif field.name == "attack" and not own.get("column") and "defense" in game.fields:
            headers.append(f"{own['header']}/{game.fields['defense']['header']}")
        else:
            headers.append(own.get("column") or own["header"])
    return headers


COPY_HEADERS = (
    "Code", "Name", "Finish", "Condition", "Language", "Location", "Tags", "Copies", "Note",
)  # fmt: skip


def _copy_values(copy: Copy) -> list[Any]:
    """A holding's cells in `COPY_HEADERS` order; tags read as traits do, 'a, b'."""
    name = copy.name if copy.local_name == copy.name else f"{copy.name} ({copy.local_name})"
    return [copy.code_shown, name, copy.finish, copy.condition, copy.language,
            copy.location, copy.tags.replace(",", ", "), copy.copies, copy.note]  # fmt: skip


def print_copies(copies: Sequence[Copy], output: Output) -> None:
    """`collection --copies`: one row per holding (the JSON objects are `Copy.to_dict`)."""
    if output is Output.json:
        print_json([copy.to_dict() for copy in copies])
        return
    if output is Output.csv:
        from cardbase.query.copies import COPY_KEYS

        # the names apart, as the JSON keys have them: name, then local_name last
        print_csv(COPY_KEYS, ([c.code_shown, c.name, *_copy_values(c)[2:], c.local_name]
                              for c in copies))  # fmt: skip
        return
    rows = [_copy_values(copy) for copy in copies]
    for row in rows:
        row[2], row[7] = FINISHES[row[2]], str(row[7])
    print_table(COPY_HEADERS, rows)


def print_card_detail(card: Card) -> None:
    lines = [(label, visible(value, keep="\n")) for label, value in detail_lines(card)]
    if use_rich():
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        title = Text(visible(card.name))
        table = Table(show_header=False, box=None, title=title, title_style="bold")
        table.add_column(style="bold")
        table.add_column(overflow="fold")
        for label, value in lines:
            table.add_row(label, Text(value))
        Console().print(table)
        return
    width = max(len(label) for label, _ in lines)
    indent = "\n" + " " * (width + 2)  # a value's later lines under its first, as rich has them
    sys.stdout.write(
        "".join(
            f"{label.ljust(width)}  {value.replace(chr(10), indent)}\n" for label, value in lines
        )
    )


PROGRESS_DELAY = 2.0  # seconds of work before a bar appears: quick commands never show one


class DelayedProgress:
    """A progress bar on stderr that appears only once work has taken `delay` seconds: each
    stage's name, its bar, steps done of all, and the time left.

    Quick commands stay quiet; long jobs show where they are. Nothing is drawn when stderr
    is not a terminal (unless a `console` is given, as tests give one to capture).
    """

    def __init__(self, delay: float | None = None, console: Any = None) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._delay = PROGRESS_DELAY if delay is None else delay
        self._console = console
        self._bar: Any = None
        self._task: Any = None
        self._stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._bar is None and not self._begin():
            return
        if stage != self._stage or self._task is None:
            if self._task is not None:
                self._bar.remove_task(self._task)
            self._task = self._bar.add_task(stage, total=max(total, 1))
            self._stage = stage
        self._bar.update(self._task, completed=done, total=max(total, 1))

    def _begin(self) -> bool:
        if self._console is None and not sys.stderr.isatty():
            return False
        if self._clock() - self._start < self._delay:
            return False
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())  # fmt: skip
        console = self._console or Console(stderr=True)
        self._bar = Progress(*columns, console=console, transient=True)
        self._bar.start()
        return True

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


@contextmanager
def progress_bar() -> Iterator[DelayedProgress]:
    """A `DelayedProgress` for one long command, taken down however the command ends."""
    bar = DelayedProgress()
    try:
        yield bar
    finally:
        bar.close()
