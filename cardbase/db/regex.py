"""The engine behind /regex/ terms: RE2, whose matching time grows only with the text's length.

Python's `re` backtracks, so ``name:/(a+)+$/`` takes time exponential in a name's length, and
it runs inside SQLite's regexp() where nothing can stop it. RE2 never backtracks: every
search ends quickly, whatever the pattern. The price is RE2's syntax, which has no
backreferences and no lookaround; a pattern that uses them is a query error with a caret.
The parser compiles each pattern here first, so SQLite only ever runs patterns that compile.
Search is case-insensitive, as the query language always was.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

PROGRAM_BYTES = 8 << 20  # RE2's memory for one pattern (its default): a bigger one is refused
HINT = (
    "Regular expressions are RE2's, which leaves out backreferences and lookaround so that "
    "every search ends quickly"
)
_BACKREFERENCE = re.compile(r"\\[1-9]")
_REPEAT = re.compile(r"\{([0-9]+)(?:,([0-9]*))?\}")
MAX_REPEAT = 1_000  # RE2's own limit on a{n}


class PatternError(ValueError):
    """A pattern RE2 cannot compile; `fragment` is the part it complained about."""

    def __init__(self, message: str, fragment: str, hint: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.fragment = fragment
        self.hint = hint


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> Callable[[str], bool]:
    """A case-insensitive search for `pattern`; raise `PatternError` if RE2 refuses it.

    re2 is imported here, not at the top: most commands never see a /regex/, and every
    command's start-up time counts.
    """
    import re2

    huge = _huge_repeat(pattern)
    if huge:
        raise PatternError("invalid repetition size", huge, f"At most {MAX_REPEAT:,} repeats")
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # RE2 would print its own line to stderr
    options.max_mem = PROGRAM_BYTES
    try:
        compiled = re2.compile(pattern, options)
    except re2.error as exc:
        raise _pattern_error(pattern, exc.args[0] if exc.args else str(exc)) from None
    except UnicodeEncodeError as exc:  # undecodable bytes from the command line
        raise PatternError("the pattern is not valid text", exc.object[exc.start], None) from None
    return _searcher(compiled)


def _searcher(compiled: Any) -> Callable[[str], bool]:
    """The search SQLite calls once a row. The RE2 object's own Match() answers 4x faster
    than the Python wrapper's search(), which also works out every group's offsets in
    characters; the wrapper stays as the fallback should a google-re2 release rename it."""
    import re2

    raw = getattr(compiled, "_regexp", None)
    anchor = getattr(re2, "_Anchor", None)
    if raw is None or anchor is None or not hasattr(raw, "Match"):  # pragma: no cover
        return lambda text: compiled.search(text) is not None
    unanchored, no_match = anchor.UNANCHORED, re2._NULL_SPAN

    def search(text: str) -> bool:
        data = text.encode()
        return bool(raw.Match(unanchored, data, 0, len(data))[0] != no_match)

    return search


def _pattern_error(pattern: str, reason: bytes | str) -> PatternError:
    """RE2's complaint ("invalid perl operator: (?=") as a message, the fragment it names
    (for the caret) and, for what RE2 leaves out on purpose, the reason why."""
    text = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
    what, _, fragment = text.partition(": ")
    missing = _unsupported(fragment, pattern)
    if missing:
        shown = "(?P=" if fragment == "(?P" else fragment  # RE2 names "(?P" of (?P=name)
        return PatternError(f"RE2 has no {missing}", shown, HINT)
    if what.startswith("pattern too large"):
        what = f"the pattern is too large (RE2 allows {PROGRAM_BYTES >> 20} MB for one)"
    return PatternError(what, fragment if fragment in pattern else "", None)


def _unsupported(fragment: str, pattern: str) -> str | None:
    if fragment.startswith(("(?=", "(?!")):
        return "lookahead"
    if fragment.startswith(("(?<=", "(?<!")):
        return "lookbehind"
    if _BACKREFERENCE.fullmatch(fragment) or (fragment == "(?P" and "(?P=" in pattern):
        return "backreferences"
    return None


def _huge_repeat(pattern: str) -> str | None:
    """A repeat count RE2 would not refuse but read as text: a{1001} is an error in RE2, yet
    a{99999999999} (past its integers) silently searches for the characters "a{999...".
    Both are refused alike, as every other engine refuses them."""
    position, in_class = 0, False
    while position < len(pattern):
        ch = pattern[position]
        if ch == "\\":
            position += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            position += 2 if pattern[position + 1 : position + 2] == "]" else 1
            continue
        elif ch == "{" and (repeat := _REPEAT.match(pattern, position)):
            counts = [count for count in repeat.groups() if count]
            if any(len(count) > 4 or int(count) > MAX_REPEAT for count in counts):
                return repeat.group()
        position += 1
    return None
