"""`search` and `collection`: one query engine, two commands.

Both take the same query words and filter options; `collection` looks only at owned cards
and adds totals, or with `--copies` lists the holdings themselves. One factory builds both, so
their options can never drift apart.
"""

import inspect
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.paging import copies_page, print_hidden, search_page
from cardbase.cli.queryargs import QueryCommand
from cardbase.cli.root import STATE, Output, OutputOption, app, command
from cardbase.db.engine import Connection
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.catalog.cards import Card
    from cardbase.query.nodes import Query

Copies = Annotated[
    bool,
    typer.Option(
        "--copies",
        help="One row per holding (finish, condition, language, location, tags, copies, note); "
        "copy terms such as tag:trade pick the copies themselves.",
    ),
]


def _close_names(conn: Connection, words: str) -> str:
    """The " Did you mean: ..." for words that matched nothing; rapidfuzz loads only then."""
    from cardbase.catalog.names import NameResolver, did_you_mean

    suggestions = NameResolver(conn).suggestions(words)
    return f" {did_you_mean(suggestions)}" if suggestions else ""


def checked(conn: Connection, query: "Query") -> "Query":
    """The query to run, after its warnings (a term no card can match) went to stderr."""
    from cardbase.query.checks import check

    query, notes = check(conn, query)
    for note in notes:
        render.echo(f"cardbase: warning: {note}", err=True)
    return query


def _explain(query: "Query", limit: int | None, count: bool, copies: bool, output: Output) -> None:
    from cardbase.query import search as lib

    with STATE.connect() as conn:
        found = lib.plan_on(conn, query, limit, count=count, copies=copies)
    if output is Output.json:
        render.print_json(found.to_dict())
    else:
        render.echo(found.explain())


def _copies(query: "Query", limit: int | None, show_all: bool, output: Output) -> None:
    """`collection --copies`: the collector's holdings the query picks, with their totals."""
    from cardbase.query import search as lib

    with STATE.connect() as conn:
        query = checked(conn, query)
        copies, hidden = copies_page(conn, query, limit, show_all, output)
        totals, holdings = lib.copies_totals(conn, query) if output is Output.table else (None, 0)
    if output is not Output.table or copies:
        render.print_copies(copies, output)
        print_hidden(hidden)
    else:
        render.echo("You own no copies that match.", err=True)
    if totals is not None:
        render.echo(
            f"{plural(totals.cards, 'card')} ({totals.nonfoil:,} non-foil, {totals.foil:,} foil), "
            f"{totals.distinct:,} distinct, in {plural(holdings, 'holding')}"
        )


def _in_decks(conn: Connection, cards: "list[Card]") -> dict[int, int]:
    from cardbase.collection.sleeved import in_decks_by_card

    return in_decks_by_card(conn, (card.id for card in cards))


def _register(name: str, owned_only: bool, doc: str) -> None:
    def run(
        words: opt.QueryWords = None,
        sort: opt.Sort = None,
        desc: opt.Desc = False,
        limit: opt.Limit = None,
        show_all: opt.ShowAll = False,
        count: opt.Count = False,
        explain: opt.Explain = False,
        copies: Copies = False,
        output: OutputOption = Output.table,
        *,
        filters: dict[str, str | bool | None],
    ) -> None:
        from cardbase.query import search as lib

        if owned_only and not copies:  # a copy is owned: its join says so
            filters["owned"] = True
        from cardbase.query.argv import query_text

        query = lib.build_query(query_text(words or []), filters, sort, desc)
        if explain:
            _explain(query, limit, count, copies, output)
            return
        if count:
            with STATE.connect() as conn:
                render.echo(lib.count(conn, checked(conn, query), copies))
            return
        if copies:
            _copies(query, limit, show_all, output)
            return
        with STATE.connect() as conn:
            query = checked(conn, query)
            cards, hidden = search_page(conn, query, limit, show_all, output)
            totals = lib.owned_totals(conn, query) if owned_only else None
            bare = lib.bare_words(query) if not cards and not owned_only else None
            hint = _close_names(conn, bare) if bare else ""
            in_decks = _in_decks(conn, cards) if owned_only else None
        if output is not Output.table or cards:
            render.print_cards(cards, output, in_decks)
            print_hidden(hidden)
        else:
            render.echo(
                ("You own no cards that match." if owned_only else "No cards match.") + hint,
                err=True,
            )
        if totals is not None and output is Output.table:
            render.echo(
                f"{plural(totals.cards, 'card')} ({totals.nonfoil:,} non-foil, "
                f"{totals.foil:,} foil), {totals.distinct:,} distinct"
            )

    run.__doc__ = doc
    if not owned_only:  # --copies is collection's: a search's cards may have none
        own = inspect.signature(run)
        kept = [param for param in own.parameters.values() if param.name != "copies"]
        run.__signature__ = own.replace(parameters=kept)  # type: ignore[attr-defined]
    command(app, name, cls=QueryCommand)(opt.with_filters(run))


_register(
    "search",
    owned_only=False,
    doc="""Search the catalogue: bare words, field terms, or plain options; no query lists all.

    \b
    Example: cardbase search 'chug* s:nature cost<=2' --sort attack --desc
    """,
)
_register(
    "collection",
    owned_only=True,
    doc="""List the cards you own, with totals; takes the same query and options as search.

    --copies lists the copies instead, one row per holding.

    \b
    Example: cardbase collection sphere:chaos --sort name
    Example: cardbase collection --copies tag:trade
    """,
)
