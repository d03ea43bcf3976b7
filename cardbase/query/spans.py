"""Where a query's value came from, and what makes an error about it: shared by the parser,
the term builders and the copy terms, which all point a caret at the text they read."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from cardbase.errors import QueryError, Remedy


class Span(NamedTuple):
    """Where a value stands in the text it came from, for an error's caret."""

    start: int
    end: int


class Errors(Protocol):
    """What makes an error about a span of the text being read (the parser, or an option)."""

    @property
    def option(self) -> str | None:
        """The plain option whose value is read; None for query text."""

    def error(
        self, message: str, at: Span | None = None, hint: str | Remedy | None = None
    ) -> QueryError: ...
