"""The project's own error types.

Every error a user can cause by what they type or feed in is a `CardbaseError`. The CLI turns
one into a single line on stderr and exit code 2; anything else is a bug and keeps its
traceback. Each error carries its message and, where we can tell, a hint for the fix, so the
library decides what to say and the CLI only decides how to show it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

QUOTED_CHARS = 80  # of the user's text in one error line: enough to recognise it
Face = Literal["cli", "web"]


class Remedy(NamedTuple):
    """The way forward in each face's words: the command line names its options (`--force`),
    the page its buttons ("Replace it"). One fact, said where the person is."""

    cli: str
    web: str

    def said(self, face: Face) -> str:
        return self.web if face == "web" else self.cli


def _hint_said(hint: str | Remedy | None, face: Face) -> str | None:
    """The hint as `face` says it; a page starts it as a sentence (the command line's line
    runs on in lower case, as a terminal's messages do)."""
    said = hint.said(face) if isinstance(hint, Remedy) else hint
    return said[:1].upper() + said[1:] if said and face == "web" else said


class CardbaseError(Exception):
    """Bad input from the user: a code, a name, a file, a query."""

    exit_code = 2

    def __init__(self, message: str, hint: str | Remedy | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def said(self, face: Face = "cli") -> str:
        """The error as `face` says it; `str()` is the command line's. A hint in lower case
        (the command line's) runs on after a semicolon, never as a sentence after a full
        stop starting small."""
        hint = _hint_said(self.hint, face)
        if not hint:
            return self.message
        return f"{self.message}{'; ' if hint[:1].islower() else '. '}{hint}"

    def __str__(self) -> str:
        return self.said()


class CodeError(CardbaseError):
    """A collector code that cannot be parsed or does not agree with the catalogue."""


class NotFoundError(CardbaseError):
    """A name or code that names no card."""


class UnknownCollectorError(CardbaseError):
    """A collector this database does not have; the CLI adds where the name came from."""


class AmbiguousError(CardbaseError):
    """A name that names several printings where one is needed."""


class RowsError(CardbaseError):
    """A file whose rows have problems, each listed on a line of its own."""

    def __init__(
        self, message: str, problems: list[str] | None = None, hint: str | Remedy | None = None
    ) -> None:
        super().__init__(message, hint)
        self.problems = problems or []

    def said(self, face: Face = "cli") -> str:
        """The message, the fix in brackets, then a line for each problem row."""
        hint = _hint_said(self.hint, face)
        head = f"{self.message} ({hint})" if hint else self.message
        return "\n".join([head + (":" if hint and self.problems else ""), *self.problems])


class CatalogueError(RowsError):
    """A catalogue file with bad rows, or one that cannot be read."""


class SheetError(CardbaseError):
    """A file that cannot be read as a spreadsheet, or cannot be written (any file we write)."""


class DatabaseError(CardbaseError):
    """A database file that is not ours, is damaged, or was made by a newer cardbase."""


class Suggestion(str):
    """A hint that is a correction ("Did you mean chaos?"): said as the hint it is, and
    carrying the text to put in place of the error's span, so a page can offer the
    corrected query as a link to run."""

    replacement: str

    def __new__(cls, said: str, replacement: str) -> Suggestion:
        hint = super().__new__(cls, said)
        hint.replacement = replacement
        return hint


class QueryError(CardbaseError):
    """A search query that cannot be understood; knows where in the query the problem is.

    `incomplete`: the text ended where the query needed more (a quote or a '(' never closed,
    `cost>` with no value yet, a value that is the start of a known one), so typing on can
    mend it; every other error is wrong whatever follows it."""

    def __init__(
        self,
        message: str,
        query: str,
        start: int,
        end: int,
        hint: str | Remedy | None = None,
        *,
        incomplete: bool = False,
    ) -> None:
        super().__init__(message, hint)
        self.query = query
        self.start = max(0, min(start, len(query)))
        self.end = max(self.start + 1, min(end, len(query) + 1))
        self.incomplete = incomplete

    def corrected(self) -> str | None:
        """The query with its hint's correction in place of the problem, if it has one."""
        if not isinstance(self.hint, Suggestion):
            return None
        return self.query[: self.start] + self.hint.replacement + self.query[self.end :]

    def said(self, face: Face = "cli") -> str:
        """The message, then the query with a caret under the problem: all of a short query,
        and of a long one the 80 characters around the caret, between ellipses."""
        length = len(self.query)
        # The caret may stand just past the end ("expected a value after 'cost:'").
        first = max(0, min(self.start - QUOTED_CHARS // 3, length + 1 - QUOTED_CHARS))
        last = first + QUOTED_CHARS
        before = "..." if first > 0 else ""
        after = "..." if last < length else ""
        shown = "".join(_shown(ch) for ch in self.query[first:last])
        caret = " " * (len(before) + self.start - first) + "^" * (min(self.end, last) - self.start)
        return f"{super().said(face)}\n  {before}{shown}{after}\n  {caret}"


def shorten(text: str, width: int = QUOTED_CHARS) -> str:
    """User text as an error line quotes it: one line, and at most `width` of its characters.

    A message is read by a person: a 10 MB query or a 5,000-digit number pasted by mistake
    must not become a 10 MB line, and a newline in a value must not start a second one.
    """
    visible = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text[: width + 1])
    if len(text) <= width and len(visible) <= width:
        return visible
    return f"{visible[:width]}... ({len(text):,} characters)"


def _shown(ch: str) -> str:
    """A query character as the caret line shows it: never a control character."""
    if ch.isspace():
        return " "
    return ch if ch.isprintable() else "\ufffd"


def no_card_named(name: str, suggestions: Sequence[str]) -> NotFoundError:
    """The one refusal of a card name that names no card, wherever it was given (add, show,
    a deck or trade list, an import's row): the closest names, with their codes, as the
    hint ("no card named 'Chugawug Cok'. Did you mean Chugawug Cook (1 C 143)?")."""
    hint = f"Did you mean {', '.join(suggestions)}?" if suggestions else None
    return NotFoundError(f"no card named '{shorten(name)}'", hint)


def first_few(lines: Sequence[str], limit: int, what: str = "more") -> list[str]:
    """The first `limit` lines, then one saying how many more there are.

    A message that lists problems must stay readable when a 100k-row file has thousands.
    """
    shown = list(lines[:limit])
    if len(lines) > limit:
        shown.append(f"... and {len(lines) - limit:,} {what}")
    return shown


class InvalidDeckError(CardbaseError):
    """A deck that breaks its format's rules where a legal one is needed (a registration
    sheet): exit 1, as `deck check` exits for an invalid deck, not 2 for unreadable input."""

    exit_code = 1
