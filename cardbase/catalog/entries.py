"""One line of a card list, as people write them: a count, a card and maybe a finish.

Collection commands (``cardbase add 3x"1 C 14"``), pasted lists and deck lists all use this
shape: ``3 Chugawug Cook``, ``3x Chugawug Cook``, ``Chugawug Cook x3``, ``2 1 U 132 foil``,
or a bare name or code for one copy. Parsing here is pure text; which card the text names
is decided later by `cardbase.catalog.names`, which can also retry a line whose leading number
turned out to be part of the card's name.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cardbase.codes import looks_like_code
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import FOIL, NONFOIL
from cardbase.limits import MAX_COUNT

# Words that say which finish a line means, folded to lower case.
FINISH_WORDS: dict[str, str] = {
    "foil": FOIL, "foils": FOIL, "holo": FOIL, "(foil)": FOIL, "*f*": FOIL,
    "nonfoil": NONFOIL, "non-foil": NONFOIL, "normal": NONFOIL, "regular": NONFOIL,
    "(nonfoil)": NONFOIL, "(non-foil)": NONFOIL,
}  # fmt: skip

# A line of a list of entries (a deck list, `add -`) that starts so is a comment; a comment
# after an entry is not one (a card's name may hold "#").
COMMENTS = ("#", "//")
_TIMES = "[x\u00d7]"  # 3x, or the multiplication sign some sheets use
# "3x Cook", '3x"1 C 14"', "3x1 C 14", "3 x Cook"; not "1 Xylophone Yeti" (one Xylophone Yeti).
_COUNT_FIRST = re.compile(rf"(\d+)\s*{_TIMES}(?=[\s\"\d])\s*(.+)", re.IGNORECASE | re.DOTALL)
# "Cook x3", "Cook x 3"; not "Box3".
_COUNT_LAST = re.compile(rf"(.+?)\s+{_TIMES}\s*(\d+)", re.IGNORECASE | re.DOTALL)
_LEADING_NUMBER = re.compile(r"(\d+)\s+(.+)", re.DOTALL)


class Entry(NamedTuple):
    copies: int
    card: str  # a name or a code, still to be resolved
    finish: str | None  # None: the line did not say
    text: str  # the line as written, for messages
    whole: str  # the line without its finish: the card text if the count guess was wrong
    counted: bool = True  # False: no count was written (one copy, or "all" to `move`)


class EntryError(CardbaseError):
    """A line that is not a card entry; `reason` is the message without the line quoted, for
    reports that quote the line themselves (a deck check's "line 3 '...': reason")."""

    def __init__(self, line: str, reason: str, joiner: str = ": ") -> None:
        super().__init__(f"'{shorten(line)}'{joiner}{reason}")
        self.reason = reason


def parse_entry(text: str, minimum: int = 1) -> Entry:
    """Split a line into count, card text and finish; raise `CardbaseError` if it has no card.

    `minimum` is 0 where a count of nothing makes sense (``cardbase set "1 C 14" x0``).
    """
    line = " ".join(text.split())
    rest, finish = _strip_finish(line)
    digits, card = _split_count(rest)
    counted = bool(digits)
    digits = digits or "1"
    card = card.strip().strip('"').strip()
    if not card:
        raise EntryError(line, "names no card", " ")
    # Digits first: int() refuses numbers of over 4,300 digits, and SQLite past 2**63.
    if len(digits.lstrip("0")) > len(str(MAX_COUNT)) or not minimum <= int(digits) <= MAX_COUNT:
        raise EntryError(
            line, f"the count must be {minimum} to {MAX_COUNT}, not {shorten(digits, 20)}"
        )
    return Entry(int(digits), card, finish, line, rest.strip('"'), counted)


def _strip_finish(line: str) -> tuple[str, str | None]:
    words = line.split(" ")
    if len(words) > 1 and words[-1].lower() in FINISH_WORDS:
        return " ".join(words[:-1]), FINISH_WORDS[words[-1].lower()]
    if len(words) > 1 and words[0].lower() in FINISH_WORDS:
        return " ".join(words[1:]), FINISH_WORDS[words[0].lower()]
    return line, None


def _split_count(text: str) -> tuple[str, str]:
    """The count's digits (not yet a number: they may be thousands; "" when the line has no
    count) and the card's text."""
    if looks_like_code(text):  # "1 X 132" is a code with a wrong letter, not "1x card 132"
        return "", text
    match = _COUNT_FIRST.fullmatch(text)
    if match:
        return match.group(1), match.group(2)
    match = _COUNT_LAST.fullmatch(text)
    if match:
        return match.group(2), match.group(1)
    match = _LEADING_NUMBER.fullmatch(text)
    if match:
        return match.group(1), match.group(2)
    return "", text


def format_entry(count: int, card: str, finish: str | None = None) -> str:
    """The canonical line for an entry, which `parse_entry` reads back to the same entry."""
    line = f"{count} {card}"
    return f"{line} {finish}" if finish else line
