"""`search` and `collection`: one query engine, two commands.

Both take the same query words and filter options; `collection` looks only at owned cards
and adds totals. One factory builds both, so their options can never drift apart.
"""

import sqlite3

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.paging import print_hidden, search_page
from cardbase.cli.queryargs import QueryCommand
from cardbase.cli.root import STATE, Output, OutputOption, app, command


def _close_names(conn: sqlite3.Connection, words: str) -> str:
    """The " Did you mean: ..." for words that matched nothing; rapidfuzz loads only then."""
    from cardbase.catalog.names import NameResolver, did_you_mean

    suggestions = NameResolver(conn).suggestions(words)
    return f" {did_you_mean(suggestions)}" if suggestions else ""


def _register(name: str, owned_only: bool, doc: str) -> None:
    def run(
        words: opt.QueryWords = None,
        sort: opt.Sort = None,
        desc: opt.Desc = False,
        limit: opt.Limit = None,
        show_all: opt.ShowAll = False,
        count: opt.Count = False,
        explain: opt.Explain = False,
        output: OutputOption = Output.table,
        *,
        filters: dict[str, str | bool | None],
    ) -> None:
        from cardbase.query import search as lib

        if owned_only:
            filters["owned"] = True
        query = lib.build_query(lib.search_words(words or []), filters, sort, desc)
        if explain:
            render.echo(lib.plan(query, limit, count).explain())
            return
        with STATE.connect() as conn:
            if count:
                render.echo(lib.count(conn, query))
                return
            cards, hidden = search_page(conn, query, limit, show_all, output)
            totals = lib.owned_totals(conn, query) if owned_only else None
            bare = lib.bare_words(query) if not cards and not owned_only else None
            hint = _close_names(conn, bare) if bare else ""
        if output is not Output.table or cards:
            render.print_cards(cards, output)
            print_hidden(hidden)
        else:
            render.echo(
                ("You own no cards that match." if owned_only else "No cards match.") + hint,
                err=True,
            )
        if totals is not None and output is Output.table:
            render.echo(
                f"{totals.cards} cards ({totals.nonfoil} non-foil, {totals.foil} foil), "
                f"{totals.distinct} distinct"
            )

    run.__doc__ = doc
    command(app, name, cls=QueryCommand)(opt.with_filters(run))


_register(
    "search",
    owned_only=False,
    doc="""Search the catalogue: bare words, field terms, or plain options; no query lists all.

    Example: cardbase search 'chug* s:nature cost<=2' --sort attack --desc
    """,
)
_register(
    "collection",
    owned_only=True,
    doc="""List the cards you own, with totals; takes the same query and options as search.

    Example: cardbase collection sphere:chaos --sort name
    """,
)
