"""What sets copies of one card apart: condition, language, location and tags, as people write
them and as they are stored.

Conditions are the grading scale collection apps share (M, NM, LP, MP, HP, DMG), with the
words TCGplayer and Cardmarket print; languages are ISO 639-1 codes or their English names;
locations are names the user makes up; tags are free labels. Every parser here returns the
stored spelling or raises a one-line `CardbaseError` that names the accepted values.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardbase.db import tables
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import CONDITIONS
from cardbase.naming import clean, label_key
from cardbase.similar import closest

if TYPE_CHECKING:
    from cardbase.db.engine import Connection

# Best first: cond>=lp means LP or better.
CONDITION_NAMES: dict[str, str] = {
    "M": "Mint", "NM": "Near Mint", "LP": "Lightly Played", "MP": "Moderately Played",
    "HP": "Heavily Played", "DMG": "Damaged",
}  # fmt: skip
# The other words apps and people use, folded (lower case, letters and digits only).
CONDITION_SYNONYMS: dict[str, str] = {
    "m": "M", "mint": "M", "mt": "M", "gemmint": "M",
    "nearmint": "NM", "nm": "NM", "nmm": "NM", "nearmintmint": "NM", "nmmint": "NM",
    "lp": "LP", "ex": "LP", "excellent": "LP", "lightlyplayed": "LP", "lightplayed": "LP",
    "slightlyplayed": "LP", "sp": "LP", "exnm": "LP", "vf": "LP",
    "mp": "MP", "gd": "MP", "good": "MP", "moderatelyplayed": "MP", "vg": "MP",
    "verygood": "MP",
    "hp": "HP", "pl": "HP", "played": "HP", "heavilyplayed": "HP", "heavyplayed": "HP",
    "dmg": "DMG", "damaged": "DMG", "poor": "DMG", "po": "DMG",
}  # fmt: skip
# ... and in the client's other languages, as German and French collectors write them.
_LOCAL_CONDITIONS: dict[str, str] = {
    "Neuwertig": "M", "Nahezu neuwertig": "NM", "Exzellent": "LP", "Leicht bespielt": "LP",
    "Gut": "MP", "Sehr gut": "MP", "Bespielt": "HP", "Stark bespielt": "HP",
    "Beschädigt": "DMG", "Neuf": "M", "Quasi neuf": "NM", "Presque neuf": "NM", "Bon": "MP",
    "Très bon": "MP", "Joué": "HP", "Abîmé": "DMG", "Casi nuevo": "NM", "Excelente": "LP",
    "Bueno": "MP", "Dañado": "DMG",
}  # fmt: skip
DEFAULT_CONDITION = "NM"
DEFAULT_LANGUAGE = "en"
NO_LOCATION = ""
TAG_SEPARATOR = ","  # how tags are stored: sorted, case-insensitively unique
MAX_LABEL = 100  # characters of a location or a tag
MAX_NOTE = 1_000  # characters of a note: a sentence or a few, not a file

_FOLD = re.compile(r"[^0-9a-z]+")
_LANGUAGE_TAG = re.compile(r"([a-z]{2})(?:[-_]([a-z]{2}|[a-z]{4}))?", re.IGNORECASE)


def _fold(text: str) -> str:
    return _FOLD.sub("", text.casefold())


def _accentless(text: str) -> str:
    """Folded as `_fold` folds, accents dropped first (Beschädigt -> beschadigt), so the
    words of other languages keep every letter."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return _fold("".join(ch for ch in decomposed if not unicodedata.combining(ch)))


_LOCAL_CONDITION_KEYS = {_accentless(word): code for word, code in _LOCAL_CONDITIONS.items()}


def parse_condition(text: str) -> str:
    """'nm', 'Near Mint', 'NearMint', 'Excellent' -> the stored code (NM, LP ...)."""
    found = (
        CONDITION_SYNONYMS.get(_fold(text))
        or CONDITION_SYNONYMS.get(text.strip().lower())
        or _LOCAL_CONDITION_KEYS.get(_accentless(text))
    )
    if found:
        return found
    codes = {**{code: code for code in CONDITIONS}, **{n: c for c, n in CONDITION_NAMES.items()}}
    guess = closest(text, list(codes))
    hint = f"; did you mean {codes[guess]}?" if guess else ""
    raise CardbaseError(
        f"unknown condition '{shorten(text, 30)}': use one of {', '.join(CONDITIONS)} "
        f"(or their names, such as Near Mint){hint}"
    )


def condition_rank(code: str) -> int:
    """0 for Mint, larger for worse: what cond>=lp compares."""
    return CONDITIONS.index(code)


def _language_names() -> dict[str, str]:
    from cardbase.collection.languages import ISO_639_1, LOCAL_NAMES, VARIANTS

    names = {_name_key(name): code for code, words in LOCAL_NAMES.items() for name in words}
    names.update({_fold(name): code for code, words in ISO_639_1.items() for name in words})
    names.update({_fold(name): code for code, words in VARIANTS.items() for name in words})
    return names


def _name_key(name: str) -> str:
    """A language's name folded for lookups; one in another script (中文) as it is."""
    return _fold(name) or name.strip()


def parse_language(text: str) -> str:
    """'fr', 'FR', 'French', 'Chinese Simplified', 'pt-br' -> 'fr', 'zh-Hans', 'pt-BR'."""
    from cardbase.collection.languages import ISO_639_1

    word = text.strip()
    match = _LANGUAGE_TAG.fullmatch(word)
    if match and match.group(1).lower() in ISO_639_1:
        code, variant = match.group(1).lower(), match.group(2) or ""
        if len(variant) == 2:
            return f"{code}-{variant.upper()}"
        return f"{code}-{variant.title()}" if variant else code
    named = _language_names().get(_fold(word) or word)
    if named:
        return named
    guess = closest(word, [name for words in ISO_639_1.values() for name in words])
    hint = f"; did you mean {guess} ({_language_names()[_fold(guess)]})?" if guess else ""
    raise CardbaseError(
        f"unknown language '{shorten(text, 30)}': use an ISO 639-1 code such as en, fr, de, "
        f"ja, or its English name{hint}"
    )


def language_name(code: str) -> str:
    from cardbase.collection.languages import ISO_639_1, VARIANTS

    words = VARIANTS.get(code) or ISO_639_1.get(code.split("-")[0])
    return words[0] if words else code


def _label(text: str, what: str) -> str:
    """A location's or a tag's stored spelling, by the rule for every name people give
    (`cardbase.naming.clean`: invisible characters refused, NFC, spaces folded)."""
    label = clean(text, what)
    if len(label) > MAX_LABEL:
        raise CardbaseError(
            f"{what} '{shorten(label, 40)}' is {len(label)} characters; at most {MAX_LABEL}"
        )
    if '"' in label:  # the query language could not name it: in:"..." and tag:"..."
        raise CardbaseError(
            f"{what} '{shorten(label, 40)}' has a double quote; use another mark, such as '"
        )
    return label


def parse_note(text: str) -> str:
    """A note as stored: its ends trimmed, its lines kept; at most `MAX_NOTE` characters,
    and no control characters but line breaks and tabs (they would go raw into exports)."""
    note = text.strip()
    if len(note) > MAX_NOTE:
        raise CardbaseError(
            f"note '{shorten(note, 40)}' is {len(note):,} characters; at most {MAX_NOTE:,}"
        )
    if any(not ch.isprintable() and ch not in "\n\t" and _is_control(ch) for ch in note):
        raise CardbaseError(f"note '{shorten(note, 40)}' has control characters")
    return note


def _is_control(character: str) -> bool:
    """Control, format, surrogate and unassigned characters (category C): what a note may
    not hold; spaces of any kind (the Ogham space mark, an ideographic space) it may."""
    return unicodedata.category(character).startswith("C")


def parse_location(text: str) -> str:
    """A location as stored: NFC, spaces collapsed, no invisible characters; '' is no
    location. 'Café' typed either way is one spelling, so one holding and one `stats` row."""
    return _label(text, "location")


def parse_tags(values: Iterable[str]) -> str:
    """Tags as stored: each value may hold several separated by commas; blanks dropped,
    repeats (ignoring case and Unicode form) kept once, sorted ignoring case, so one set
    has one spelling."""
    found: dict[str, str] = {}
    for value in values:
        for part in value.split(TAG_SEPARATOR):
            tag = _label(part, "tag")
            if tag:
                found.setdefault(label_key(tag), tag)
    return TAG_SEPARATOR.join(found[key] for key in sorted(found))


def tag_list(stored: str) -> list[str]:
    return stored.split(TAG_SEPARATOR) if stored else []


def stored_labels(conn: Connection, column: str) -> list[str]:
    """Each location (`column` ``location``) or each tag alone (``tags``) that the
    connection's collector's copies hold, as stored, once each: what a new label's spelling
    and a query's `in:` and `tag:` terms are matched against."""
    rows = conn.execute(f"SELECT DISTINCT {column} FROM {tables.MY_HOLDING} WHERE {column} <> ''")
    split = tag_list if column == "tags" else lambda text: [text]
    return list(dict.fromkeys(label for (text,) in rows for label in split(text)))


def with_tags(stored: str, added: str) -> str:
    return parse_tags([stored, added])


def without_tags(stored: str, removed: str) -> str:
    """`stored` less `removed`'s tags, compared by `label_key`: a tag stored in NFD by an
    older cardbase goes when its NFC spelling is named."""
    gone = {label_key(tag) for tag in tag_list(removed)}
    return TAG_SEPARATOR.join(tag for tag in tag_list(stored) if label_key(tag) not in gone)


def has_tags(stored: str, wanted: str) -> bool:
    """Whether a holding's tags include every one of `wanted`'s (by `label_key`, so an NFD
    tag an older cardbase stored counts as its NFC spelling)."""
    have = {label_key(tag) for tag in tag_list(stored)}
    return all(label_key(tag) in have for tag in tag_list(wanted))
