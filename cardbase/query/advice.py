"""What a page says beside a search's results, each suggestion with the search that follows
it, so that the page can offer it as a link: the warnings the command line prints (an empty
range, a series the catalogue lacks, a code with the wrong letter), the names close to bare
words that matched nothing, and the correction a refused query's hint names.

The words are the command line's, without the suggestion, which the link says instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from cardbase.db.engine import Connection
from cardbase.errors import QueryError
from cardbase.query import nodes as q
from cardbase.query.checks import Note, check_notes
from cardbase.query.search import bare_words

MAX_NAMES = 5  # close names offered for words that matched nothing


class Suggested(NamedTuple):
    """A suggestion: what its link reads, and the fields of the search to change to run it
    (`q`, the query text, or a plain option's name, as the search form names them)."""

    shown: str
    search: dict[str, str]


class Advice(NamedTuple):
    message: str
    suggestions: tuple[Suggested, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message,
                "suggestions": [s._asdict() for s in self.suggestions]}  # fmt: skip


def warnings(
    conn: Connection, query: q.Query, text: str, options: Mapping[str, object]
) -> tuple[q.Query, list[Advice]]:
    """The query to run (as `checks.check` puts it right) and its warnings; `text` and
    `options` are the query text and the plain options it was built from."""
    query, notes = check_notes(conn, query)
    return query, [_advised(note, text, options) for note in notes]


def _advised(note: Note, text: str, options: Mapping[str, object]) -> Advice:
    fix = note.fix
    if fix is None:
        return Advice(note.message)
    source = text if fix.option is None else str(options.get(fix.option) or "")
    return Advice(note.message, (Suggested(fix.shown, {fix.option or "q": fix.applied(source)}),))


def no_match(conn: Connection, query: q.Query) -> list[Advice]:
    """For a query of bare words that matched nothing, the card names closest to them, as
    `cardbase search` suggests them; each link searches that name exactly."""
    words = bare_words(query)
    if not words:
        return []
    from cardbase.catalog.names import NameResolver  # loads rapidfuzz: only on no match

    names = NameResolver(conn).close_names(words)[:MAX_NAMES]
    if not names:
        return []
    return [Advice("No cards match", tuple(Suggested(n, {"q": f'!"{n}"'}) for n in names))]


def correction(error: QueryError, text: str) -> Suggested | None:
    """The query text with the correction a refused query's hint names ("Did you mean
    chaos?"), when the error is about that text and its hint is one."""
    fixed = error.corrected() if error.query == text else None
    return Suggested(fixed, {"q": fixed}) if fixed else None
