"""One page of results on a terminal.

rich takes seconds to draw thousands of rows that nobody scrolls back through, so a table on
a terminal shows `render.TERMINAL_PAGE` rows and says how many more there are; `--all` and
`--limit` ask for another number, and pipes, json and csv always get every match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from cardbase.cli import render
from cardbase.cli.root import Output
from cardbase.db.engine import Connection

if TYPE_CHECKING:
    from cardbase.catalog.cards import Card
    from cardbase.query.copies import Copy
    from cardbase.query.nodes import Query

T = TypeVar("T")


def _page(limit: int | None, show_all: bool, output: Output) -> int | None:
    """The rows to show when nothing says how many: one page of the table on a terminal;
    pipes, json and csv get every match."""
    if limit is not None or show_all or output is not Output.table or not render.on_terminal():
        return None
    return render.TERMINAL_PAGE


def search_page(
    conn: Connection, query: Query, limit: int | None, show_all: bool, output: Output
) -> tuple[list[Card], int]:
    """The cards to show, and how many more matched but are not shown."""
    from cardbase.query import search as lib

    page = _page(limit, show_all, output)
    return _paged(page, limit, lambda n: lib.search(conn, query, n), lambda: lib.count(conn, query))


def copies_page(
    conn: Connection, query: Query, limit: int | None, show_all: bool, output: Output
) -> tuple[list[Copy], int]:
    """`search_page` for `collection --copies`: the holdings to show, and how many more."""
    from cardbase.query import search as lib

    page = _page(limit, show_all, output)
    return _paged(
        page,
        limit,
        lambda n: lib.search_copies(conn, query, n),
        lambda: lib.count(conn, query, copies=True),
    )


def _paged(
    page: int | None,
    limit: int | None,
    fetch: Callable[[int | None], list[T]],
    count: Callable[[], int],
) -> tuple[list[T], int]:
    """One more than a page fetched, so that only a page that overflows pays for a count."""
    found = fetch(page + 1 if page else limit)
    if not page or len(found) <= page:
        return found, 0
    return found[:page], count() - page


def print_hidden(hidden: int) -> None:
    if hidden:
        render.echo(f"... and {hidden:,} more: --all shows every match.", err=True)
