"""The one rule for names people give: collector names, deck names, locations and tags.

A name is typed on a phone, pasted from a chat or a spreadsheet, or written by another app,
so one name can arrive in several spellings that look alike. `clean` gives each name its one
stored spelling:

1. Characters nobody can see are refused, naming the first one (U+XXXX) and where it is:
   control characters (Cc: tabs and newlines too), format characters (Cf: zero width
   spaces and joiners, bidi controls, soft hyphens, byte order marks), line and paragraph
   separators (Zl, Zp), surrogates, private use and unassigned code points (Cs, Co, Cn),
   the blank letters of `INVISIBLE`, and a variation selector that does not follow a symbol
   (after an emoji it picks the emoji's look; after a letter it only hides a difference).
2. The name is put in Unicode NFC, so 'Café' typed with a precomposed é and with e plus a
   combining accent is one name, one holding and one row in `stats`.
3. Runs of spaces (any Zs: no-break, em, ideographic ...) become one space; the ends are
   trimmed.

Names that look alike but are not the same letters are for collectors and decks, whose
names say who or which: `skeleton` folds compatibility forms (NFKD: fullwidth and
mathematical letters), the Cyrillic and Greek letters of `LOOKALIKES` to the Latin ones they
look like, case, accents, spaces and punctuation, so 'Alice' spelt with a Cyrillic A
(U+0410) has the skeleton of 'Alice'; `mixed_script` finds a word that mixes Latin letters
with Cyrillic or Greek ones, which a real name almost never does and a spoof often does.
"""

from __future__ import annotations

import re
import unicodedata

from cardbase.errors import CardbaseError, shorten

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Characters of other categories that show nothing: the combining grapheme joiner, the
# Hangul fillers, the Khmer inherent vowels, the Mongolian free variation selectors and the
# blank Braille pattern (letters and symbols that a font draws as empty space).
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
_VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_CONTROL_NAMES = {
    "\t": "CHARACTER TABULATION (a tab)", "\n": "LINE FEED (a newline)",
    "\r": "CARRIAGE RETURN", "\x0b": "LINE TABULATION", "\x0c": "FORM FEED",
    "\x1b": "ESCAPE", "\x7f": "DELETE", "\x85": "NEXT LINE",
}  # fmt: skip

# The common look-alikes of Latin letters, each to the Latin letter in the same case (the map
# runs before case is folded: Greek capital nu, U+039D, looks like N, its small letter U+03BD
# like v). A letter is here only if it passes for the Latin one in a sans-serif font. Each
# pair of lines is the look-alikes (as escapes: the letters themselves would be exactly the
# trap this table is for, to a reader too) and, letter for letter, what they pass for.
_LOOKALIKE_ROWS = (
    # Cyrillic capitals: A VE IE KA EM EN O ER ES TE HA U, STRAIGHT U, DZE, BYELORUSSIAN-
    # UKRAINIAN I, JE, PALOCHKA, QA, WE, SHHA
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0423"
    "\u04ae\u0405\u0406\u0408\u04c0\u051a\u051c\u04ba",
    "ABEKMHOPCTXYYSIJIQWH",
    # Cyrillic small: a ie o er es u, straight u, ha, i, je, dze, shha, qa, we, palochka
    "\u0430\u0435\u043e\u0440\u0441\u0443\u04af\u0445\u0456\u0458\u0455\u04bb\u051b\u051d\u04cf",
    "aeopcyyxijshqwl",
    # Greek capitals: ALPHA BETA EPSILON ZETA ETA IOTA KAPPA MU NU OMICRON RHO TAU UPSILON CHI
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7",
    "ABEZHIKMNOPTYX",
    # Greek small: alpha iota kappa nu omicron rho upsilon
    "\u03b1\u03b9\u03ba\u03bd\u03bf\u03c1\u03c5",
    "aikvopu",
)
LOOKALIKES: dict[str, str] = {
    fake: latin
    for fakes, latins in zip(_LOOKALIKE_ROWS[::2], _LOOKALIKE_ROWS[1::2], strict=True)
    for fake, latin in zip(fakes, latins, strict=True)
}
_LOOKALIKE_TABLE = str.maketrans(LOOKALIKES)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")  # the alphabets whose letters pass for each other
_LETTERS = re.compile(r"[^\W\d_]+")


def refused_character(text: str) -> tuple[int, str] | None:
    """The first character a name may not hold and its position (from 1), or None."""
    if text.isascii() and text.isprintable():  # most names: a sheet's 60k tags stay quick
        return None
    for index, ch in enumerate(text):
        if unicodedata.category(ch) in REFUSED_CATEGORIES or ch in INVISIBLE:
            return index + 1, ch
        if _VARIATION_SELECTORS.fullmatch(ch) and not _after_symbol(text, index):
            return index + 1, ch
    return None


def _after_symbol(text: str, index: int) -> bool:
    return index > 0 and unicodedata.category(text[index - 1]).startswith("S")


def describe(ch: str) -> str:
    """'U+200B ZERO WIDTH SPACE': what an error line calls a character it cannot show."""
    name = _CONTROL_NAMES.get(ch) or unicodedata.name(ch, "") or "a control character"
    if unicodedata.category(ch) in ("Cn", "Co", "Cs") and not unicodedata.name(ch, ""):
        name = "an unassigned or private-use code point"
    return f"U+{ord(ch):04X} {name}"


def clean(text: str, what: str) -> str:
    """`text` as stored: invisible characters refused (see the module's rule), NFC, spaces
    folded and trimmed. `what` ('location', "a deck's name") starts the refusal's one line.
    The check reads the text as given, so the position is the one the user typed."""
    found = refused_character(text)
    if found is not None:
        where, ch = found
        raise CardbaseError(
            f"{what} '{shorten(text, 40)}' has {describe(ch)} at character {where}: names "
            "may not hold control, format or invisible characters"
        )
    return " ".join(unicodedata.normalize("NFC", text).split())


def label_key(text: str) -> str:
    """What tells two locations or two tags apart: their NFC form, case folded. A spelling
    stored before names were normalised (NFD, from a Mac or an import) has the key of the
    NFC one, so comparisons made in Python treat them as one."""
    return unicodedata.normalize("NFC", text).casefold()


def skeleton(name: str) -> str:
    """What a name looks like: equal for 'Alice', for 'Alice' with a Cyrillic A (U+0410),
    in fullwidth letters (U+FF21 ...) and for 'alice'. Compatibility forms decomposed
    (NFKD, so an accented Cyrillic letter shows its base letter to the map), `LOOKALIKES`
    mapped to Latin, case folded, then as the card `name_key` folds: accents, spaces and
    punctuation dropped."""
    mapped = unicodedata.normalize("NFKD", name).translate(_LOOKALIKE_TABLE).casefold()
    return "".join(ch for ch in unicodedata.normalize("NFKD", mapped) if ch.isalnum())


def script_of(ch: str) -> str | None:
    """'LATIN', 'CYRILLIC' or 'GREEK' for a letter of those alphabets, else None."""
    words = unicodedata.name(ch, "").split()
    return next((word for word in words[:2] if word in _SCRIPTS), None)


def mixed_script(name: str) -> str | None:
    """The first word (run of letters) whose letters come from more than one of Latin,
    Cyrillic and Greek, or None: 'Alice' with a Cyrillic A (U+0410) is one; 'Alice' then
    'Alisa' in Cyrillic letters is two words of one alphabet each."""
    for word in _LETTERS.findall(name):
        if len({script_of(ch) for ch in word} - {None}) > 1:
            return word
    return None


def refuse_mixed_script(name: str, what: str) -> None:
    """Refuse a new name with a word of mixed alphabets, naming the letters that are not
    Latin so the user can see what looked like a Latin letter and was not."""
    word = mixed_script(name)
    if word is None:
        return
    odd = [ch for ch in word if script_of(ch) not in (None, "LATIN")]
    letters = ", ".join(f"{ch} ({describe(ch)})" for ch in dict.fromkeys(odd))
    raise CardbaseError(
        f"{what} '{shorten(name, 40)}' mixes alphabets in '{shorten(word, 30)}': {letters}",
        "Type the name in one alphabet",
    )
