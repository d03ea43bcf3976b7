"""Close matches for what a person mistyped, with one scorer and the thresholds named once.

Used for the small vocabularies a person types: spheres, types, field names, rarities,
spreadsheet headers, saved decks' names. Card names have their own resolver
(`cardbase.catalog.names`), which must search a hundred thousand names.
"""

from __future__ import annotations

from collections.abc import Sequence

WORD_CUTOFF = 60.0  # a keyword: 'chaoss' -> chaos, 'typ' -> type, 'Creeture' -> Creature
NAME_CUTOFF = 70.0  # a saved deck's name: 'bog stw' -> bog stew
# A spreadsheet header: stricter, since a wrong guess would read the wrong column silently.
HEADER_CUTOFF = 88.0


def closest(word: str, choices: Sequence[str], cutoff: float = WORD_CUTOFF) -> str | None:
    """The choice nearest to `word` (ignoring case and punctuation), or None if none is close."""
    if not word or not choices:
        return None
    from rapidfuzz import fuzz, process, utils  # only when something was mistyped

    found = process.extractOne(
        word, choices, scorer=fuzz.ratio, processor=utils.default_process, score_cutoff=cutoff
    )
    return found[0] if found else None
