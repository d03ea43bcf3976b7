"""What a card field's values are, beets' `dbcore.types` in small: how the schema stores one,
how a catalogue cell becomes one, how a `Card` holds it, and how a file or a screen shows it.

The registry (`cardbase.fields`) says which fields a card has; each field's type here says
how it behaves. The schema's card columns, the row reader that makes a `Card`, the catalogue
reader, the detail view, JSON and the exports all ask the type, so a new field of a known
kind (the real catalogue's artist was one) is one entry in the registry.

Foundation: plain Python, imported on every start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.games import all_colours

TRAIT_SEPARATOR = ", "
# The games' gem colours (letter -> name) and the most gems a card has, from their files.
GEM_COLOURS, MAX_GEMS = all_colours()
# Colours that read as each sphere and gem on the printed cards (see card-anatomy.md): the
# web pages' card faces and the proxy PDFs draw with them.
SPHERE_COLOURS = {
    "Chaos": "#8b2f8f",
    "Nature": "#2e7d32",
    "Machine": "#4f6677",
    "Order": "#966d09",  # dark enough for the white name on it (4.7:1, WCAG AA)
}
HERO_COLOUR = "#a33a2f"
GEM_HEX = {"R": "#d32f2f", "G": "#388e3c", "B": "#1e63c4", "Y": "#f2c200"}
MAX_STAT = 999
TRUE_WORDS = frozenset({"yes", "y", "true", "t", "1", "x", "hero"})
FALSE_WORDS = frozenset({"", "no", "n", "false", "f", "0"})


class RowError(CardbaseError):
    """One bad value in one catalogue row; collected with the row's number, never shown
    alone."""


class FieldType:
    """A field's values. `load` is a template of Python source (``{}`` is the stored value)
    rather than a method: `cardbase.catalog.cards` compiles every field's into one function
    that makes a `Card` from a row, since a search can make thousands on a cold start."""

    python: type = str  # the schema column's type
    nullable = False
    default: object = ""
    load = "({} or '')"  # stored value -> the Card's attribute
    # Catalogues repeat these values thousands of times: the reader checks each once.
    repeats = False
    keyed = False  # the table keeps a folded copy too (`Words`)

    def parse(self, text: str, column: str) -> Any:
        """A catalogue cell as the card table stores it; `RowError` names what is wrong."""
        return text.strip()

    def json(self, value: Any) -> Any:
        """The Card's attribute as the JSON card object has it."""
        return value

    def cell(self, value: Any) -> Any:
        """The JSON value (`json`'s) in a spreadsheet or CSV cell."""
        return value

    def shown(self, value: Any) -> str:
        """The Card's attribute as a table or the detail view shows it ('' when it has none)."""
        return "" if value is None else str(value)

    def detail(self, value: Any) -> str:
        """The detail view's wording, where it says more than `shown`."""
        return self.shown(value)


class Text(FieldType):
    """Prose (game text, lore): kept as written, line breaks included."""


class Words(FieldType):
    """A short name (a card's, an artist's): its spacing made single. `empty=False`: a row
    must give one; `keyed`: the table keeps it folded too, in ``<column>_key``, for exact
    lookups whatever the case, accents and spacing (`cardbase.catalog.cards.name_key`)."""

    def __init__(self, empty: bool = True, keyed: bool = False) -> None:
        self.empty = empty
        self.keyed = keyed

    def parse(self, text: str, column: str) -> str:
        words = " ".join(text.split())
        if not words and not self.empty:
            raise RowError(f"the {column} is empty")
        return words


class Choice(FieldType):
    """One of a game's words (type, sphere, game). Which words depends on the row's game and
    on its other cells (a Hero has no sphere), so `cardbase.catalog.values` decides them
    together; `nullable`: the choice may be none."""

    load = "{}"

    def __init__(self, nullable: bool = False) -> None:
        self.nullable = nullable
        self.default = None if nullable else ""


class Number(FieldType):
    """A whole number a card may lack (a trick's attack): none stays none, never 0.
    `nullable=False`: every card has one (its series, its number)."""

    python = int
    load = "{}"
    repeats = True

    def __init__(self, nullable: bool = True) -> None:
        self.nullable = nullable
        self.default = None if nullable else 0

    def parse(self, text: str, column: str) -> int | None:
        text = text.strip()
        if not text:
            return None
        try:
            number = int(text)
        except ValueError:
            raise RowError(f"{column} '{text}' is not a whole number") from None
        if not 0 <= number <= MAX_STAT:
            raise RowError(f"{column} {number} is out of range (0 to {MAX_STAT})")
        return number


class Flag(FieldType):
    """Yes or no, as lists write it (yes, y, x, true, 1; no, empty)."""

    python = bool
    default = False
    load = "bool({})"
    repeats = True

    def parse(self, text: str, column: str) -> bool:
        word = text.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise RowError(f"{column} '{text.strip()}' is not yes or no")

    def cell(self, value: Any) -> str:
        return "yes" if value else ""

    def shown(self, value: Any) -> str:
        return "yes" if value else ""


class Traits(FieldType):
    """Traits, stored joined by `TRAIT_SEPARATOR` and held as a tuple; a list may separate
    them with commas or semicolons."""

    load = f"(tuple({{0}}.split({TRAIT_SEPARATOR!r})) if {{0}} else ())"
    repeats = True

    def parse(self, text: str, column: str) -> str:
        traits = (" ".join(t.split()) for t in text.replace(";", ",").split(",") if t.strip())
        return TRAIT_SEPARATOR.join(traits)

    def json(self, value: Any) -> list[str]:
        return list(value)

    def cell(self, value: Any) -> str:
        return TRAIT_SEPARATOR.join(value)

    def shown(self, value: Any) -> str:
        return TRAIT_SEPARATOR.join(value)


class Gems(FieldType):
    """Gem colours, a letter each (RRG), at most `MAX_GEMS`; lists space or punctuate them.
    A game's colours field of its own has its own letters and most (`colours`, `most`)."""

    repeats = True

    def __init__(self, colours: dict[str, str] | None = None, most: int | None = None) -> None:
        self.colours = GEM_COLOURS if colours is None else colours
        self.most = MAX_GEMS if most is None else most
        self.word = "gems" if colours is None else ""  # what a message calls them

    def parse(self, text: str, column: str) -> str:
        column = self.word or column
        letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch not in ",;-/")
        bad = sorted({ch for ch in letters if ch not in self.colours})
        if bad:
            raise RowError(f"{column} '{text.strip()}' has {', '.join(bad)}; {column} are "
                           f"{', '.join(self.colours)}")  # fmt: skip
        if len(letters) > self.most:
            raise RowError(f"{column} '{text.strip()}' has {len(letters)} {column}; a card has "
                           f"at most {self.most}")  # fmt: skip
        return letters

    def detail(self, value: Any) -> str:
        return f"{value} ({len(value)})" if value else "none"


class Names(FieldType):
    """A card's names in the client's other languages (`cardbase.fields.NAME_LANGUAGES`),
    stored a line each in that order for the full-text index; a catalogue gives them a
    column each (name_de ...), which `cardbase.catalog.values` reads."""

    def __init__(self, languages: Sequence[str]) -> None:
        self.languages = tuple(languages)

    def json(self, value: Any) -> dict[str, str]:
        """language -> name, for the languages the card has a name in."""
        lines = value.split("\n") if value else ()
        return {lang: name for lang, name in zip(self.languages, lines, strict=False) if name}

    def joined(self, names: Iterable[str]) -> str:
        """The stored value of names given in `languages`' order ('' where there is none),
        without the empty lines at the end."""
        return "\n".join([" ".join(name.split()) for name in names]).rstrip("\n")
