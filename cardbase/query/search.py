"""Running searches: a parsed `Query` (plus plain options) becomes one SQL statement.

Positive full-text terms at the top level are merged into one FTS5 MATCH joined to the card
table, so results come ranked by relevance (bm25) unless the query asks for another order;
every other term becomes part of the WHERE clause through its node's `clause()`.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from cardbase.catalog.cards import (
    CARD_COLUMNS_SQL,
    CARD_FROM_SQL,
    CATALOGUE_ORDER,
    OWNERSHIP_JOIN_SQL,
    Card,
    card_from_row,
)
from cardbase.db.engine import Connection, Engine
from cardbase.db.interrupt import interruptible, step_budget
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import FIELD_BY_NAME, SORT_INDEXED
from cardbase.limits import MAX_RESULTS
from cardbase.query import nodes as q
from cardbase.query.parse import parse_query
from cardbase.query.terms import flag_node, option_node

if TYPE_CHECKING:
    from cardbase.collection.stats import Totals
    from cardbase.query.copies import Copy


# A sorted page whose cards, with every earlier page's, number up to this many may be read
# in the order of a sort index (`fields.SORT_INDEXED`): a walk that stops at the last card
# wanted. When the filter is narrow, the walk reads most of the table a row at a time,
# dearer than a scan and a sort (55 ms against 10 on 100k cards), and SQLite, without
# STAT4, cannot tell beforehand. So the walk gets WALK_STEPS plus WALK_STEPS_PER_ROW per
# card read (steps of SQLite's VM, 16-90 ns each), and past them the scan-and-sort
# statement runs instead. Measured on 100k cards, page 100 of 50 (5,001 cards read):
# `order:cost` walks in 0.6 ms against a 58 ms scan and sort, `t:creature order:cost` in
# 7 ms against 45, `s:chaos t:creature order:cost` in 20 against 34; the walk loses where
# the page hardly exists: `is:hero order:cost` (3 cards in 100, so no page 100) runs out
# of steps after about 25 ms, then sorts in 18. On a first page the most lost is about
# 2 ms. The limit was 1,000, from when later pages were read whole and sliced in Python,
# and page 20 of a sort by cost took 41 ms on the web page, which reads 1,001 cards (one
# more than its page holds, to know whether a next page exists): hence the 1 here.
WALK_LIMIT = 5_001
WALK_STEPS = 20_000
WALK_STEPS_PER_ROW = 40


class SearchPlan(NamedTuple):
    query: q.Query
    sql: str
    params: list[Any]
    fallback: str | None = None  # with `sql` a walk of a sort index: the scan-and-sort one
    limit: int | None = None  # the rows a walk reads: the page's and every earlier page's

    def to_dict(self) -> dict[str, Any]:
        """`--explain -o json`: the query as understood, its SQL and the SQL's parameters."""
        found = {"query": self.query.describe(), "sql": self.sql, "params": self.params}
        return found | ({"fallback": self.fallback} if self.fallback else {})

    def explain(self) -> str:
        lines = [f"query:  {self.query.describe() or '(everything)'}", f"sql:    {self.sql}"]
        if self.fallback:
            lines.append(f"or, if walking the index reads too many rows: {self.fallback}")
        return "\n".join([*lines, f"params: {self.params!r}"])

    def rows(self, conn: Connection) -> list[tuple[Any, ...]]:
        """The statement's rows as tuples: the walk within its budget, else the fallback."""
        cursor = conn.cursor()
        cursor.row_factory = None  # plain tuples: thousands of rows on a broad search
        if self.fallback is None:
            return cursor.execute(self.sql, self.params).fetchall()
        steps = WALK_STEPS + WALK_STEPS_PER_ROW * (self.limit or 0)
        assert isinstance(conn, sqlite3.Connection)  # only SQLite is offered a walk
        with step_budget(conn, steps) as budget:
            try:
                return cursor.execute(self.sql, self.params).fetchall()
            except sqlite3.OperationalError:
                if not budget.spent:
                    raise
        return cursor.execute(self.fallback, self.params).fetchall()


def option_nodes(options: Mapping[str, str | bool | None]) -> list[q.Node]:
    """Plain options as query nodes: a value option per query field, a flag per ``is:`` term."""
    nodes: list[q.Node] = []
    for option, value in options.items():
        if value is None or value is False:
            continue
        if value is True:
            nodes.append(flag_node(option))
        else:
            nodes.append(option_node(FIELD_BY_NAME[option], str(value)))
    return nodes


def build_query(
    text: str = "",
    options: Mapping[str, str | bool | None] | None = None,
    sort: str | None = None,
    descending: bool = False,
) -> q.Query:
    """The query text, ANDed with the plain options; `sort` overrides any order: in the text."""
    parsed = parse_query(text)
    # One level of AND: the text's terms and the options' side by side, so `cond:nm
    # --language fr` asks about one copy, and text terms rank the same with options or not.
    nodes = list(_conjuncts(parsed.root)) + option_nodes(options or {})
    root = nodes[0] if len(nodes) == 1 else q.And(tuple(nodes)) if nodes else None
    order = parsed.sort
    if sort:
        sort_query = parse_query(f"order:{'-' if descending else ''}{sort}")
        order = sort_query.sort
    return q.Query(root, order)


def _conjuncts(root: q.Node | None) -> tuple[q.Node, ...]:
    if root is None:
        return ()
    return root.children if isinstance(root, q.And) else (root,)


def missing_query(options: Mapping[str, str | bool | None], finish: str | None = None) -> q.Query:
    """Cards not owned (in `finish`, when given) among those the plain options pick."""
    nodes: list[q.Node] = [q.Not(flag_node(finish or "owned")), *option_nodes(options)]
    return q.Query(nodes[0] if len(nodes) == 1 else q.And(tuple(nodes)))


def _ranked_terms(root: q.Node | None) -> tuple[list[q.TextMatch], list[q.Node]]:
    """Split the top level into full-text terms (one ranked MATCH) and everything else."""
    children = _conjuncts(root)
    text = [child for child in children if isinstance(child, q.TextMatch)]
    rest = [child for child in children if not isinstance(child, q.TextMatch)]
    return text, rest


# The collector's copies (`OWNERSHIP_JOIN_SQL`'s alias) in a condition: `o.` as a word.
_OWNED = re.compile(r"\bo\.")


def plan(
    query: q.Query,
    limit: int | None = None,
    count: bool = False,
    copies: bool = False,
    engine: Engine | None = None,
    spellings: Callable[[str], Sequence[str]] | None = None,
    offset: int = 0,
) -> SearchPlan:
    """The statement for `query`, on `engine` (SQLite's when None): of cards, or with
    `copies` of the collector's holdings (one row each, copy terms testing each copy). A
    `limit` past `MAX_RESULTS` means every match, as that one does, and is read as it:
    SQLite holds no integer past 2**63. `offset`: the first that many rows are skipped in
    SQL (a later page), not fetched and dropped."""
    if engine is None:
        from cardbase.db.sqlite import SQLITE

        engine = SQLITE
    limit, offset = _bounds(limit, offset)
    read = None if limit is None else limit + offset  # the rows SQLite reads, skipped ones too
    if copies:  # loaded only for a listing of copies
        from cardbase.query import copies as listing
    root = q.with_labels(q.per_holding(query.root) if copies else query.root, engine, spellings)
    text_terms, rest = _ranked_terms(root)
    params: list[Any] = []
    columns = "count(*)" if count else listing.COLUMNS_SQL if copies else CARD_COLUMNS_SQL
    sql = f"SELECT {columns} FROM {CARD_FROM_SQL}"
    if text_terms:
        # With nothing else to filter or sort by, the best `limit` matches can be picked
        # inside the index, so only those rows are joined and fetched. bm25() rather than
        # FTS5's `rank` column: ORDER BY rank has FTS5 sort every match in full, where
        # ORDER BY bm25() LIMIT keeps SQLite's sorter to the best `limit` (the same order,
        # 12.4 ms against 17.4 for "draw a card"'s 10.8k matches on 100k cards).
        top = not rest and not query.sort and not count and limit is not None and not copies
        join, join_params = engine.ranked_text(
            [term.term for term in text_terms], read if top else None, rank=not count
        )
        sql += join
        params += join_params
    joined, where_params = _joined_where(rest, engine, count, copies)
    sql += joined
    params.extend(where_params)
    if count:
        return SearchPlan(query, sql, params)
    if limit is not None:
        params += [limit, offset] if offset else [limit]
    paged = (limit, offset)
    if not engine.walks_sort_index:  # PostgreSQL chooses a walk or a sort with its statistics
        return SearchPlan(
            query, _ordered(sql, query, engine, text_terms, copies, paged, walk=True), params
        )
    walk = bool(
        query.sort and query.sort[0].key in SORT_INDEXED and not (text_terms or copies)
    ) and (read is not None and read <= WALK_LIMIT)
    ordered = [
        _ordered(sql, query, engine, text_terms, copies, paged, walk=w) for w in (walk, False)
    ]
    return SearchPlan(query, ordered[0], params, ordered[1] if walk else None, read)


def _bounds(limit: int | None, offset: int) -> tuple[int | None, int]:
    """The limit within `MAX_RESULTS`, and the offset; an offset needs a limit in SQLite's
    SQL, so one without is every row after it."""
    for name, value in (("limit", limit), ("offset", offset)):
        if value is not None and value < 0:
            raise CardbaseError(f"the {name} must be 0 or more, not {shorten(str(value))}")
    if limit is None and offset:
        limit = MAX_RESULTS
    return (None if limit is None else min(limit, MAX_RESULTS)), min(offset, MAX_RESULTS)


def _joined_where(
    rest: list[q.Node], engine: Engine, count: bool, copies: bool
) -> tuple[str, list[Any]]:
    """The joins after the cards (the collector's copies) and the WHERE of `rest`."""
    where: str = ""
    params: list[Any] = []
    if rest:
        where, params = (rest[0] if len(rest) == 1 else q.And(tuple(rest))).clause(engine)
    joined = ""
    if copies:
        from cardbase.query import copies as listing

        joined = f" {listing.JOIN_SQL} {OWNERSHIP_JOIN_SQL}"
    elif not count or _OWNED.search(where):
        # A count that asks nothing of the collector's copies skips their join: at most one
        # row a card, it changes no count, and it cost 18 ms of the 19 a count of 100k took.
        joined = f" {OWNERSHIP_JOIN_SQL}"
    return joined + (f" WHERE {where}" if where else ""), params


def _ordered(
    sql: str,
    query: q.Query,
    engine: Engine,
    text_terms: list[q.TextMatch],
    copies: bool,
    paged: tuple[int | None, int],
    walk: bool,
) -> str:
    """`sql` with its ORDER BY, LIMIT and OFFSET (`paged`); `walk` lets SQLite read a sort
    index in order."""
    order = [key.sql(engine, walk) for key in query.sort]
    if text_terms and not order:
        order.append("f.fts_rank")
    order.append(CATALOGUE_ORDER)
    if copies:
        from cardbase.query.copies import ORDER

        order.append(ORDER)
    sql += f" ORDER BY {', '.join(order)}"
    limit, offset = paged
    if limit is None:
        return sql
    return sql + (" LIMIT ? OFFSET ?" if offset else " LIMIT ?")


def stored_spellings(conn: Connection) -> Callable[[str], list[str]]:
    """The spellings the collector's copies hold in a column, read once per column: each
    location, and each tag alone (a copy's tags are stored joined by commas)."""
    read: dict[str, list[str]] = {}

    def spellings(column: str) -> list[str]:
        if column not in read:
            from cardbase.collection.attributes import stored_labels  # with a copy term only

            read[column] = sorted(stored_labels(conn, column))
        return read[column]

    return spellings


def plan_on(
    conn: Connection, query: q.Query, limit: int | None = None, **options: Any
) -> SearchPlan:
    """`plan` for the database `conn` is open on: its engine, its stored spellings."""
    return plan(query, limit, engine=conn.engine, spellings=stored_spellings(conn), **options)


def search(
    conn: Connection, query: q.Query, limit: int | None = None, offset: int = 0
) -> list[Card]:
    """The cards `query` finds, best first: `limit` of them after the first `offset`."""
    found = plan_on(conn, query, limit, offset=offset)
    with interruptible():
        return [card_from_row(row) for row in found.rows(conn)]


def count(conn: Connection, query: q.Query, copies: bool = False) -> int:
    """How many cards match (with `copies`, how many of the collector's holdings)."""
    found = plan_on(conn, query, count=True, copies=copies)
    with interruptible():
        return int(conn.execute(found.sql, found.params).fetchone()[0])


def search_copies(conn: Connection, query: q.Query, limit: int | None = None) -> list[Copy]:
    """The collector's holdings of the cards `query` matches, those its copy terms pass."""
    from cardbase.query.copies import copy_from_row

    found = plan_on(conn, query, limit, copies=True)
    cursor = conn.cursor()
    cursor.row_factory = None
    with interruptible():
        return [copy_from_row(row) for row in cursor.execute(found.sql, found.params)]


def run_query(conn: Connection, text: str, limit: int | None = None) -> list[Card]:
    """Parse and run query text in one call (for scripts and the benchmarks)."""
    return search(conn, parse_query(text), limit)


def bare_words(query: q.Query) -> str | None:
    """The words of a query made only of bare words: what to suggest names for on no match."""
    terms, rest = _ranked_terms(query.root)
    if rest or not terms or any(":" in term.shown for term in terms):
        return None
    return " ".join(term.shown.strip('"').rstrip("*") for term in terms)


def owned_totals(conn: Connection, query: q.Query) -> Totals:
    """Copies and distinct cards owned among everything the query matches (ignoring limits)."""
    from cardbase.collection.stats import Totals

    found = plan_on(conn, query)
    with interruptible():
        row = conn.execute(
            f"SELECT coalesce(sum(nonfoil), 0), coalesce(sum(foil), 0), "
            f"coalesce(sum(CASE WHEN nonfoil + foil > 0 THEN 1 ELSE 0 END), 0) "
            f"FROM ({found.sql}) AS found",
            found.params,
        ).fetchone()
    return Totals(row[0] + row[1], row[0], row[1], row[2])


def copies_totals(conn: Connection, query: q.Query) -> tuple[Totals, int]:
    """Copies, distinct cards and holdings among the holdings a copies search matches."""
    from cardbase.collection.stats import Totals

    found = plan_on(conn, query, copies=True)
    with interruptible():
        row = conn.execute(
            "SELECT coalesce(sum(CASE WHEN finish = 'nonfoil' THEN copies END), 0), "
            "coalesce(sum(CASE WHEN finish = 'foil' THEN copies END), 0), "
            f"count(DISTINCT id), count(*) FROM ({found.sql}) AS found",
            found.params,
        ).fetchone()
    return Totals(row[0] + row[1], row[0], row[1], row[2]), row[3]
