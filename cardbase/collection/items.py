"""What `add`, `remove` and `set` do with what a person typed: items into one change.

An item is a card by code or name with an optional count and finish ("Chugawug Cook x2",
"2 1 U 132 foil"); ``-`` stands for a pasted list, one item a line, with ``#`` and ``//``
comments. Every item must name a card, or nothing changes.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import IO, Any

from cardbase.catalog.entries import parse_entry
from cardbase.catalog.names import resolve_entries
from cardbase.collection.changes import Change, Mode, Request
from cardbase.collection.store import change_collection
from cardbase.db.connect import open_db
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL
from cardbase.limits import MAX_ITEM_LINE, MAX_PASTED

STDIN = "-"
COMMENTS = ("#", "//")


def read_pasted(stream: IO[Any]) -> str:
    """What `add -` reads from standard input: at most `MAX_PASTED` bytes, no line longer
    than `MAX_ITEM_LINE` characters, decoded as files are (UTF-8, else Windows-1252).

    Reading stops at the cap, so `< /dev/zero` or an endless pipe is refused, not read.
    """
    from cardbase.sheets.files import decode

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


def change_items(
    db_path: Path,
    items: list[str],
    mode: Mode,
    *,
    pasted: str = "",
    foil: bool = False,
    dry_run: bool = False,
) -> list[Change]:
    """Apply the items in one transaction; items that do not say their finish are `foil` or not.

    History names the change as it was typed, or by its number of lines when pasted.
    """
    lines = item_lines(items, pasted)
    if not lines:
        raise CardbaseError(f"nothing to {mode}: name at least one card")
    entries = [parse_entry(line, minimum=0 if mode is Mode.SET else 1) for line in lines]
    conn = open_db(db_path)
    try:
        resolved = resolve_entries(conn, entries)
    finally:
        conn.close()
    default = FOIL if foil else NONFOIL
    requests = [Request(r.card, r.entry.finish or default, r.copies) for r in resolved]
    typed = f"({len(lines)} lines)" if STDIN in items else shlex.join(items)
    return change_collection(db_path, requests, mode, f"{mode} {typed}", dry_run=dry_run)
