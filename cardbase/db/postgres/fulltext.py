"""PostgreSQL's full-text index of the cards: a tsvector per searched column, and what each
reads of the card row. The schema's trigger, a bulk fill and the doctor's check build the
same vectors from here.

Accents on Latin letters do not tell words apart, as in SQLite's index (FTS5's
``remove_diacritics 2``, which leaves other scripts' accents as they are): 'café' finds
'Cafe'. The text is decomposed and the combining accents after a Latin letter dropped, in
the vectors (`ACCENTLESS`) and, the same way, in the words searched for (`accentless`).
"""

from __future__ import annotations

import re
import unicodedata

from cardbase.db import tables

# Combining diacritical marks (U+0300 to U+036F) after a Latin letter, once decomposed.
_ACCENTED = re.compile("([A-Za-z])[\u0300-\u036f]+")
ACCENTLESS = "regexp_replace(normalize({text}, NFD), U&'([A-Za-z])[\\0300-\\036F]+', '\\1', 'g')"


def accentless(text: str) -> str:
    """`text` as the vectors hold it: decomposed, a Latin letter's accents dropped."""
    return _ACCENTED.sub(r"\1", unicodedata.normalize("NFD", text))


FTS_COLUMNS = {"name": "name_v", "traits": "traits_v", "text": "text_v"}
# What each vector reads of the card row: a name term finds the card by its name in any
# language, so name_v holds them all (SQLite's FTS5 has a column for the others' names).
_SOURCES = {"name": ("name", "names"), "traits": ("traits",), "text": ("text",)}
TEXT_SEARCH_CONFIG = tables.PG_TEXT_SEARCH


def fts_vector(row: str, column: str) -> str:
    """The tsvector of one searched column (`FTS_COLUMNS`) of `row`, a name for a card row."""
    sources = " || ' ' || ".join(f"coalesce({row}.{source}, '')" for source in _SOURCES[column])
    return f"to_tsvector('{TEXT_SEARCH_CONFIG}', {ACCENTLESS.format(text=sources)})"


def fts_vectors(row: str) -> str:
    """Every searched column's tsvector of `row`, in `FTS_COLUMNS` order: what the trigger
    stores, and a bulk fill (`postgres.bulk`) and the doctor's check too."""
    return ", ".join(fts_vector(row, column) for column in FTS_COLUMNS)
