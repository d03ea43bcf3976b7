"""Full-text terms as each engine searches them: SQLite's FTS5 (`MATCH`, ranked by bm25)
or PostgreSQL's text search (`@@` on tsvectors, ranked by ts_rank).

Both rank with lower `fts_rank` first, so the statement around them is the same. The
engine is the one `plan` is building for (`ENGINE`), so that a term's `clause()`, deep in a
tree of AND, OR and NOT, needs no argument for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from cardbase.db import tables
from cardbase.query import nodes as q

ENGINE: ContextVar[str] = ContextVar("engine", default="sqlite")
_FTS = tables.CARD_FTS_TABLE
# PostgreSQL's card_fts: a tsvector per searched column, and all_v of all three
# (`cardbase.db.postgres.schema`).
_VECTORS = {"name": "name_v", "traits": "traits_v", "text": "text_v", None: "all_v"}


@contextmanager
def engine(name: str) -> Iterator[None]:
    token = ENGINE.set(name)
    try:
        yield
    finally:
        ENGINE.reset(token)


def _tsquery(term: q.TextMatch) -> tuple[str, list[Any]]:
    """PostgreSQL's query for one term: a prefix, or words that must come in order."""
    config = f"'{tables.PG_TEXT_SEARCH}'"
    if term.prefix:
        return f"to_tsquery({config}, quote_literal(?) || ':*')", [term.words]
    return f"phraseto_tsquery({config}, ?)", [term.words]


def match_clause(term: q.TextMatch) -> tuple[str, list[Any]]:
    """The cards one term finds, as a WHERE condition on `c`."""
    if ENGINE.get() == "postgresql":
        query, params = _tsquery(term)
        vector = _VECTORS[term.column]
        return f"c.id IN (SELECT id FROM {_FTS} WHERE {vector} @@ {query})", params
    return f"c.id IN (SELECT rowid FROM {_FTS} WHERE {_FTS} MATCH ?)", [term.fts]


def ranked_join(terms: list[q.TextMatch], top: int | None) -> tuple[str, list[Any]]:
    """A join `f` of the cards all `terms` find, each with its `fts_rank`; with `top`, only
    that many of the best are kept (the query has nothing else to filter or sort by)."""
    limit = " ORDER BY fts_rank LIMIT ?" if top is not None else ""
    tail = [top] if top is not None else []
    if ENGINE.get() == "postgresql":
        conditions, queries, params, ranking = [], [], [], []
        for term in terms:
            query, term_params = _tsquery(term)
            conditions.append(f"{_VECTORS[term.column]} @@ {query}")
            queries.append(query)
            params += term_params
            ranking += term_params
        rank = f"-ts_rank(all_v, {' && '.join(queries)})"
        return (
            f" JOIN (SELECT id AS fts_id, {rank} AS fts_rank FROM {_FTS}"
            f" WHERE {' AND '.join(conditions)}{limit}) AS f ON f.fts_id = c.id",
            [*ranking, *params, *tail],
        )
    words = " AND ".join(term.fts for term in terms)
    return (
        f" JOIN (SELECT rowid AS fts_id, bm25({_FTS}) AS fts_rank FROM {_FTS}"
        f" WHERE {_FTS} MATCH ?{limit}) AS f ON f.fts_id = c.id",
        [words, *tail],
    )
