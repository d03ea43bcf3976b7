"""What `add`, `remove` and `set` do with what a person typed: items into one change.

An item is a card by code or name with an optional count, finish, condition and language
("Chugawug Cook x2", "2 1 U 132 foil", "1 U 132 x2 foil lp fr"); ``-`` stands for a pasted
list, one item a line, with ``#`` and ``//`` comments. Every item must name a card, or
nothing changes. Options (`--condition`, `--location`, `--tag` ...) apply to every item; what
an item says of itself wins.
"""

from __future__ import annotations

import shlex
from typing import IO, Any

from cardbase.catalog.entries import COMMENTS, FINISH_WORDS, parse_entry
from cardbase.catalog.names import resolve_entries
from cardbase.collection.attributes import CONDITION_SYNONYMS, parse_language, parse_note
from cardbase.collection.changes import ANY, Change, Mode, Request, Selector
from cardbase.collection.plan import Defaults
from cardbase.collection.store import change_collection
from cardbase.db.engine import Database
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL
from cardbase.limits import MAX_ITEM_LINE, MAX_PASTED
from cardbase.text import plural

STDIN = "-"


def read_pasted(stream: IO[Any]) -> str:
    """What `add -` reads from standard input: at most `MAX_PASTED` bytes, no line longer
    than `MAX_ITEM_LINE` characters, decoded as files are (UTF-8, else Windows-1252).

    Reading stops at the cap, so `< /dev/zero` or an endless pipe is refused, not read.
    """
    from cardbase.fileio.reading import decode

    raw = getattr(stream, "buffer", stream).read(MAX_PASTED + 1)
    if isinstance(raw, str):
        raw = raw.encode()
    if len(raw) > MAX_PASTED:
        raise CardbaseError(
            f"standard input: more than {MAX_PASTED:,} bytes, more than a list of cards; "
            "is it the right input? Split it if it is"
        )
    text = decode(raw, "standard input")
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_ITEM_LINE:
            raise CardbaseError(
                f"standard input, line {number}: {len(line):,} characters; an item is a card "
                f"and a count (at most {MAX_ITEM_LINE:,} characters)"
            )
    return text


def item_lines(items: list[str], pasted: str = "") -> list[str]:
    """The items, with each '-' replaced by the non-blank, non-comment lines of `pasted`."""
    lines: list[str] = []
    for item in items:
        if item == STDIN:
            lines += [
                line.strip()
                for line in pasted.splitlines()
                if line.strip() and not line.lstrip().startswith(COMMENTS)
            ]
        else:
            lines.append(item)
    return lines


# Condition words an item may end with: the short ones; longer names go in --condition.
_ITEM_CONDITIONS = {word: code for word, code in CONDITION_SYNONYMS.items() if len(word) <= 3}


def split_attributes(line: str) -> tuple[str, Selector]:
    """'1 U 132 x2 foil lp fr' -> ('1 U 132 x2 foil', condition LP, language fr): trailing
    condition codes and ISO 639-1 language codes, among finish words, in any order."""
    words = line.split()
    kept_finish: list[str] = []
    found: dict[str, str] = {}
    while len(words) > 1:
        word = words[-1].lower()
        if word in FINISH_WORDS and not kept_finish:
            kept_finish.append(words.pop())
        elif word in _ITEM_CONDITIONS and "condition" not in found:
            found["condition"] = _ITEM_CONDITIONS[words.pop().lower()]
        elif len(word) == 2 and word.isalpha() and "language" not in found and _is_code(word):
            found["language"] = parse_language(words.pop())
        else:
            break
    if not found:
        return line, ANY
    return " ".join(words + kept_finish), Selector(**found)


def _is_code(word: str) -> bool:
    from cardbase.collection.languages import ISO_639_1

    return word in ISO_639_1


def change_items(
    db: Database,
    items: list[str],
    mode: Mode,
    *,
    pasted: str = "",
    foil: bool = False,
    selector: Selector = ANY,
    note: str | None = None,
    defaults: Defaults | None = None,
    dry_run: bool = False,
) -> list[Change]:
    """Apply the items as `collector` in one transaction; items that do not say their finish
    are `foil` or not, and take `selector`'s attributes where they do not say theirs.

    History names the change as it was typed, or by its number of lines when pasted.
    """
    note = None if note is None else parse_note(note)
    lines = item_lines(items, pasted)
    if not lines:
        raise CardbaseError(f"nothing to {mode}: name at least one card")
    split = [split_attributes(line) for line in lines]
    entries = [parse_entry(text, minimum=0 if mode is Mode.SET else 1) for text, _ in split]
    with db.reading() as conn:
        resolved = resolve_entries(conn, entries)
    default = FOIL if foil else NONFOIL
    requests = [
        Request(r.card, r.entry.finish or default, r.copies, _overlay(selector, own), note)
        for r, (_, own) in zip(resolved, split, strict=True)
    ]
    typed = f"({plural(len(lines), 'line')})" if STDIN in items else shlex.join(items)
    return change_collection(
        db, requests, mode, f"{mode} {typed}", defaults=defaults,
        dry_run=dry_run,
    )  # fmt: skip


def _overlay(options: Selector, item: Selector) -> Selector:
    return Selector(
        *(own if own is not None else given for given, own in zip(options, item, strict=True))
    )
