"""Text as a terminal shows it: never a control character.

Catalogue text, deck and file names come from files anyone can write; what cardbase prints
of them must never reach the terminal as a control sequence. Every table, view and message
line goes through `visible`.

File names, for messages, summaries and the database: a name on disk is bytes; Python hands
over the bytes that are not UTF-8 (``out\\xff.csv``, a name from an old Latin-1 system or a
damaged archive) as lone surrogates (PEP 383), which the file system takes back but a
terminal, SQLite or a workbook refuses with a UnicodeEncodeError. So the path itself is kept
for opening the file, and `shown` is what is printed or stored: each byte that is not UTF-8
written as a ``\\xff`` escape, as ``ls -b`` shows it.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import PurePath

# What a terminal would act on rather than show: C0 and C1 controls and DEL (ESC starts
# sequences that recolour, move the cursor or retitle the window; CR overwrites the line),
# and the bidirectional overrides that make text read in another order than it is stored.
UNSEEN = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
UNSEEN_IN_JSON = r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]"  # JSON escapes C0 itself


@functools.cache
def pattern(pattern: str) -> re.Pattern[str]:
    """Compiled on first use: most commands print only text that needs none (0.6 ms)."""
    return re.compile(pattern)


def visible(text: str, keep: str = "") -> str:
    """`text` safe for a terminal: each control character shown as an escape (``\\x1b``).

    Catalogue text comes from files anyone can write, so nothing printed from it may reach
    the terminal as a control sequence. `keep` names the ones a layout means (a newline).
    Printable text (``str.isprintable``, in C) is all there is to check almost always.
    """
    if text.isprintable():
        return text
    text = bytes_escaped(text)
    return pattern(UNSEEN).sub(lambda m: m[0] if m[0] in keep else _escape(m[0]), text)


def bytes_escaped(text: str) -> str:
    """`text` with each byte that was not UTF-8 (a lone surrogate, as Python hands over such
    bytes of a file name, PEP 383) written as a ``\\xff`` escape, as ``ls -b`` shows it."""
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name produced: shown as its code
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards', '1 copy', '3 copies' (`many` for a plural not made with -s):
    a message reads as a person would write it, whatever the count."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


def a(word: str) -> str:
    """'a Hero', 'an Ally', 'an Adventure': the article a person would write before `word`
    (by its first letter, which serves the games' words)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def shown(name: str | PurePath) -> str:
    """`name` with every byte that is not UTF-8 as a ``\\xNN`` escape; other text as it is."""
    text = os.fspath(name)
    return text if text.isprintable() else bytes_escaped(text)
