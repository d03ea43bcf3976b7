"""Warnings for queries that parse but cannot mean what was typed.

`cost:4..2`, `r:p..c`, `series:7` when the catalogue has series 1 and 2: each is a valid
query that matches no card (or, excluded with `-`, every card), and "No cards match." alone
would leave the user guessing. `check` walks the query once, against the catalogue where it
must (only for series and code terms, so other searches pay nothing), and says why; the
command still runs and exits 0. A code with the wrong rarity letter (`1C132` for the card
printed `1 U 132`) is searched as the card it names, as `show` and `code` find it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.query import nodes as q

_TESTS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda a, b: a == b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
}


class Note(NamedTuple):
    """A warning: `said` as the command line prints it; `message` without the correction,
    which a page offers as a link instead (`fix`, where there is one)."""

    said: str
    message: str
    fix: q.Fix | None = None


class _Checker:
    """One walk over a query with one connection: the catalogue's series are read once, and
    only when a series term asks."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.notes: list[Note] = []
        self._series: list[int] | None = None

    def series(self) -> list[int]:
        if self._series is None:
            rows = self.conn.execute(f"SELECT DISTINCT series FROM {tables.CARD_TABLE}")
            self._series = sorted(row[0] for row in rows)
        return self._series

    def note(self, message: str, negated: bool, shown: str, fix: q.Fix | None = None) -> None:
        excludes = f" (-{shown} excludes nothing)" if negated else ""
        said = f"{message}; did you mean {fix.shown}?" if fix else message
        self.notes.append(Note(said + excludes, message + excludes, fix))

    def walk(self, node: q.Node, negated: bool = False) -> q.Node:
        if isinstance(node, q.And | q.Or):
            children = tuple(self.walk(child, negated) for child in node.children)
            return type(node)(children)
        if isinstance(node, q.Not):
            return q.Not(self.walk(node.child, not negated))
        if isinstance(node, q.Empty):
            self.note(node.why, negated, node.shown, node.fix)
        elif isinstance(node, q.Compare | q.Range) and node.field.name == "series":
            self.check_series(node, negated)
        elif isinstance(node, q.CodeIs):
            return self.check_code(node, negated)
        return node

    def check_series(self, node: q.Compare | q.Range, negated: bool) -> None:
        known = self.series()
        if isinstance(node, q.Compare):
            found = [s for s in known if _TESTS[node.op](s, node.value)]
        else:
            low = node.low if node.low is not None else min(known, default=0)
            high = node.high if node.high is not None else max(known, default=0)
            found = [s for s in known if low <= s <= high]
        if not found:
            self.note(no_series(node.describe(), known), negated, node.describe())

    def check_code(self, node: q.CodeIs, negated: bool) -> q.Node:
        from cardbase.codes import CollectorCode

        rows = self.conn.execute(
            f"SELECT rarity, name FROM {tables.CARD_TABLE} WHERE series = ? AND number = ? "
            "ORDER BY game",
            (node.series, node.number),
        ).fetchall()
        code = CollectorCode(node.series, node.rarity, node.number)
        if not rows:
            self.note(f"no card has the code {code}", negated, node.describe())
            return node
        if any(rarity == node.rarity for rarity, _ in rows):
            return node
        if len(rows) > 1:
            named = " or ".join(
                f"{CollectorCode(node.series, rarity, node.number)} ({name})"
                for rarity, name in rows
            )
            self.note(
                f"{code}: card {code.number} of series {code.series} is no {code.rarity_name}: "
                f"that number is {named}; name one of them",
                negated,
                node.describe(),
            )
            return node
        right = CollectorCode(node.series, rows[0][0], node.number)
        said = (
            f"{code}: card {code.number} of series {code.series} is {right.rarity_name}, "
            f"not {code.rarity_name}; searching for {right} ({rows[0][1]})"
        )
        self.notes.append(Note(said, said))
        return node._replace(rarity=right.rarity)


def check(conn: Connection, query: q.Query) -> tuple[q.Query, list[str]]:
    """The query to run (codes with a wrong rarity letter put right) and what to warn of."""
    query, notes = check_notes(conn, query)
    return query, [note.said for note in notes]


def check_notes(conn: Connection, query: q.Query) -> tuple[q.Query, list[Note]]:
    """`check`, with each warning's correction apart from its words."""
    if query.root is None:
        return query, []
    checker = _Checker(conn)
    root = checker.walk(query.root)
    return query._replace(root=root), checker.notes


def no_series(term: str, known: list[int]) -> str:
    """The warning for a series term (or option) that names no series of the catalogue."""
    has = ", ".join(map(str, known)) or "none"
    return f"{term}: the catalogue has no such series (it has series {has}), so no card matches"


def catalogue_series(conn: Connection) -> list[int]:
    """The series numbers the catalogue holds (for `trade list --complete-series`)."""
    return _Checker(conn).series()
