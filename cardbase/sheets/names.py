"""File names as text any encoder takes, for messages, summaries and the database.

A name on disk is bytes; Python hands over the bytes that are not UTF-8 (``out\\xff.csv``, a
name from an old Latin-1 system or a damaged archive) as lone surrogates (PEP 383), which the
file system takes back but a terminal, SQLite or a workbook refuses with a UnicodeEncodeError.
So the path itself is kept for opening the file, and `shown` is what is printed or stored:
each byte that is not UTF-8 written as a ``\\xff`` escape, as ``ls -b`` shows it.
"""

from __future__ import annotations

import os
from pathlib import PurePath

from cardbase.text import bytes_escaped


def shown(name: str | PurePath) -> str:
    """`name` with every byte that is not UTF-8 as a ``\\xNN`` escape; other text as it is."""
    text = os.fspath(name)
    return text if text.isprintable() else bytes_escaped(text)
