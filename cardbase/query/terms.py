"""Field terms into query nodes: one builder per kind of field.

The parser calls a builder for each ``field op value`` term; plain options (``--cost 2..4``)
call the same builders through `option_node`, so both forms always mean the same and an
option's value is only ever one term's value: ``--trait '"a" or t:trick'`` searches traits
for those words, it cannot add a clause. Errors point at the value's `Span` in whichever
text it came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cardbase import fields
from cardbase.codes import parse_code
from cardbase.db import tables
from cardbase.errors import CardbaseError, CodeError, QueryError, Remedy, Suggestion, shorten
from cardbase.fields import FIELD_BY_NAME, CardField, Kind
from cardbase.fieldtypes import GEM_COLOURS, Gems
from cardbase.games import GAMES
from cardbase.limits import MAX_QUERY_CHARS, MAX_QUERY_NUMBER
from cardbase.query import nodes as q
from cardbase.query.holdings import HOLDING_BUILDERS
from cardbase.query.spans import Errors, Span
from cardbase.similar import closest

_NUMBER = re.compile(r"-?[0-9]+")
ORDER_OPS = (">", "<", ">=", "<=")
OPERATORS = (">=", "<=", "!=", ">", "<", "=")
# Other words for a choice's values: a type's from the games' files ([types.Resource]
# synonyms = ["item"], so t:item is t:resource; Pixie Duel's t:spell is t:charm), and
# sphere:hero for the Heroes, who have no sphere.
CHOICE_SYNONYMS: dict[str, dict[str, str]] = {
    "type": {word: name.lower() for game in GAMES.values()
             for word, name in game.type_synonyms.items()},
    "sphere": {"hero": fields.NO_SPHERE, "heroes": fields.NO_SPHERE},
}  # fmt: skip


def _unquote(value: str) -> tuple[str, bool]:
    if len(value) >= 1 and value.startswith('"'):
        return value[1:-1] if value.endswith('"') and len(value) > 1 else value[1:], True
    return value, False


def _fts_string(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def unreadable(text: str) -> tuple[int, str] | None:
    """The first character of `text` that a query cannot hold, and why: control characters,
    and bytes that were not UTF-8 (Python hands them on as lone surrogates, which SQLite's
    UTF-8 cannot take)."""
    for position, ch in enumerate(text):
        if (ch < " " and not ch.isspace()) or ch == "\x7f":
            return position, f"control character {ch!r} in the query"
        if "\ud800" <= ch <= "\udfff":
            return position, "bytes that are not UTF-8 text in the query"
    return None


def text_match(
    field: CardField | None, value: str, phrase: bool, at: Span, errors: Errors, raw: str
) -> q.Node:
    """Words for the full-text index: bare words search name, traits and text together.

    `raw` is the value as typed, which is what `describe()` gives back: it parsed to this
    node once, so it parses to it again.
    """
    if '"' in value:
        # A quote inside a word (0", name:a"b) closes nothing; the unicode61 tokenizer splits
        # there anyway, so the parts are a phrase, shown as one to read back the same.
        value = " ".join(value.replace('"', " ").split())
        phrase, raw = True, f'"{value}"'
    prefix = value.endswith("*") and not phrase
    words = value.rstrip("*") if prefix else value
    if not any(ch.isalnum() for ch in words):
        raise errors.error(f"'{shorten(value)}' has no letters or digits to search for", at)
    if field is not None and field.name == "name" and not phrase:
        prefix = True  # name:chug finds Chugawug, as the game client's search box did
    fts = _fts_string(words) + ("*" if prefix else "")
    if field is not None:
        columns = tables.NAME_FTS_COLUMNS if field.key == "name" else (str(field.key),)
        fts = f"{{{' '.join(columns)}}} : {fts}"
    shown = f"{field.name}:{raw}" if field else raw
    return q.TextMatch(fts, shown, words, prefix, field.key if field else None)


def regex(field: CardField, pattern: str, at: Span, errors: Errors) -> q.Node:
    """A /regex/ term, compiled now by the engine SQLite will run it with, so a pattern that
    cannot run is refused here with a caret under the part RE2 named. `at` spans the
    pattern with its slashes."""
    from cardbase.db.regex import PatternError, compile_pattern  # loads RE2: only for /re/

    try:
        compile_pattern(pattern)
    except PatternError as exc:
        offset = pattern.find(exc.fragment) if exc.fragment else -1
        start = at.start + 1 + offset
        where = at if offset < 0 else Span(start, start + len(exc.fragment))
        raise errors.error(f"bad regular expression: {exc.message}", where, exc.hint) from None
    return q.Regex(field, pattern)


def code_term(value: str, at: Span, errors: Errors) -> q.Node:
    try:
        code = parse_code(value)
    except CodeError as exc:
        raise errors.error(str(exc), at) from None
    return q.CodeIs(code.series, code.rarity, code.number)


def _number(text: str, at: Span, errors: Errors, offset: int = 0) -> int:
    """A number of the query, within what SQLite holds (and Python's int() reads: a number
    of thousands of digits is refused before int() would refuse it with a ValueError)."""
    sub = Span(at.start + offset, at.start + offset + max(1, len(text)))
    if not _NUMBER.fullmatch(text):
        raise errors.error(f"expected a number, not '{shorten(text, 20)}'", sub)
    if len(text.lstrip("-").lstrip("0")) > len(str(MAX_QUERY_NUMBER)) or (
        abs(int(text)) > MAX_QUERY_NUMBER
    ):
        raise errors.error(
            f"{shorten(text, 20)} is out of range: a number in a query is at most "
            f"{MAX_QUERY_NUMBER:,} either side of 0",
            sub,
        )
    return int(text)


def build_number(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    other = FIELD_BY_NAME.get(value.lower())
    if other is not None and other.kind is Kind.NUMBER:
        return q.CompareFields(field, "=" if op == ":" else op, other)
    if ".." in value and op in (":", "="):
        low_text, _, high_text = value.partition("..")
        if not low_text and not high_text:
            raise errors.error("a range needs at least one end, e.g. cost:2..4 or atk:5..", at)
        low = _number(low_text, at, errors) if low_text else None
        high = _number(high_text, at, errors, len(low_text) + 2) if high_text else None
        if low is not None and high is not None and low > high:
            shown = f"{field.name}:{low}..{high}"
            return q.Empty(
                shown,
                f"{shown} is an empty range ({low} is more than {high}), so no card matches",
                _fix(errors, at, f"{high}..{low}", field),
            )
        return q.Range(field, low, high)
    return q.Compare(field, "=" if op == ":" else op, _number(value, at, errors))


def suggestion(replacement: str, value: str, at: Span, shown: str | None = None) -> str:
    """ "Did you mean ...?" for a value: a `Suggestion` that can replace the value where the
    error's span is the value as typed (not a part of it, nor inside quotes)."""
    said = f"Did you mean {shown or replacement}?"
    return Suggestion(said, replacement) if at.end - at.start == len(value) else said


def _fix(errors: Errors, at: Span, replacement: str, field: CardField) -> q.Fix:
    """The value at `at` corrected to `replacement`, in the text `errors` reads."""
    return q.Fix(errors.option, at.start, at.end, replacement, f"{field.name}:{replacement}")


def _rarity_letter(value: str, at: Span, errors: Errors) -> str:
    word = value.lower()
    for letter, name in fields.RARITY_NAMES.items():
        if word in (letter.lower(), name.lower()):
            return letter
    close = closest(word, [name.lower() for name in fields.RARITY_NAMES.values()])
    raise errors.error(
        f"unknown rarity '{shorten(value)}'",
        at,
        suggestion(close, value, at) if close else "Use c, u, r, e, p, s or a rarity's name",
    )


def build_rarity(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    if ".." in value and op in (":", "="):
        low_text, _, high_text = value.partition("..")
        empty = _empty_rarity_range(field, low_text, high_text, at, errors)
        if empty is not None:
            return empty
        parts = []
        if low_text:
            parts.append(build_rarity(field, ">=", low_text, at, errors))
        if high_text:
            parts.append(build_rarity(field, "<=", high_text, at, errors))
        if not parts:
            raise errors.error("a range needs at least one end, e.g. r:u..r", at)
        return parts[0] if len(parts) == 1 else q.And(tuple(parts))
    letter = _rarity_letter(value, at, errors)
    op = "=" if op == ":" else op
    if op in ORDER_OPS and letter not in fields.RANKED_RARITIES:
        raise errors.error(
            f"{fields.RARITY_NAMES[letter].lower()} cards have no place in the rarity order "
            f"{' < '.join(fields.RANKED_RARITIES)}",
            at,
            f"Use rarity:{letter.lower()}",
        )
    return q.RarityCompare(op, letter)


def _empty_rarity_range(
    field: CardField, low_text: str, high_text: str, at: Span, errors: Errors
) -> q.Node | None:
    """r:r..c (the order upside down) or r:p..c (promos stand outside the order) as the term
    that matches nothing it is, with why (r:p..p is r:p); None for a range that can match."""
    if not low_text or not high_text:
        return None
    low, high = (_rarity_letter(text, at, errors) for text in (low_text, high_text))
    if low == high:
        return q.RarityCompare("=", low)
    shown = f"{field.name}:{low.lower()}..{high.lower()}"
    outside = [letter for letter in (low, high) if letter not in fields.RANKED_RARITIES]
    if outside:
        name = fields.RARITY_NAMES[outside[0]].lower()
        return q.Empty(
            shown,
            f"{name} cards have no place in the rarity order "
            f"{' < '.join(fields.RANKED_RARITIES)}, so {shown} matches no card",
            _fix(errors, at, outside[0].lower(), field),
        )
    ranks = [fields.RARITY_LETTERS.index(letter) for letter in (low, high)]
    if ranks[0] > ranks[1]:
        return q.Empty(
            shown,
            f"{shown} is an empty range ({fields.RARITY_NAMES[low]} is above "
            f"{fields.RARITY_NAMES[high]}), so no card matches",
            _fix(errors, at, f"{high.lower()}..{low.lower()}", field),
        )
    return None


def build_choice(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    if op not in (":", "=", "!="):
        raise errors.error(f"{field.name} takes ':' or '!=', not '{op}'", at)
    word = CHOICE_SYNONYMS.get(field.name, {}).get(value.lower(), value.lower())
    folded = {choice.lower(): choice for choice in field.choices}
    matches = [choice for key, choice in folded.items() if key.startswith(word)]
    chosen = folded.get(word) or (matches[0] if len(matches) == 1 else None)
    if chosen is None:
        close = closest(word, list(folded))
        hint = suggestion(close, value, at) if close else f"Choose from {', '.join(folded)}"
        raise errors.error(f"unknown {field.name} '{shorten(value)}'", at, hint)
    return q.Choice(field, None if chosen == fields.NO_SPHERE else chosen)


def build_words(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    if op not in (":", "="):
        raise errors.error(f"{field.name} takes ':', not '{op}'", at)
    if value.startswith("/") and value.endswith("/") and len(value) >= 2:
        return regex(field, value[1:-1], at, errors)
    text, quoted = _unquote(value)
    raw = f'"{text}"' if quoted else value
    return text_match(field, text, phrase=quoted, at=at, errors=errors, raw=raw)


def build_gem(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    own = field if field.value else None  # a game's colours field of its own (aura:rr)
    colours = _colours(field)
    if op not in (":", "="):
        count = "" if own else f"; for a count of gems use gems{op}N"
        raise errors.error(f"{field.name} takes ':', not '{op}'{count}", at)
    names = {name.lower(): letter for letter, name in colours.items()}
    letters = names.get(value.lower()) or value.upper()
    if not letters or any(ch not in colours for ch in letters):
        example = f"{field.name}:{2 * next(iter(colours), 'r').lower()}"
        raise errors.error(f"unknown {'gem' if own is None else field.name} colours "
                           f"'{shorten(value)}'", at,
                           f"Use letters {' '.join(colours)}, e.g. {example}")  # fmt: skip
    return q.GemColours(letters, own)


def _colours(field: CardField) -> dict[str, str]:
    """The colours (letter -> name) a colours term reads: the gems', or a game's own field's."""
    if field.value and isinstance(field.type, Gems):
        return field.type.colours
    return GEM_COLOURS


def build_flag(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    word = fields.FLAG_ALIASES.get(value.lower(), value.lower())
    if op != ":" or word not in fields.FLAGS:
        close = closest(word, list(fields.FLAGS))
        hint = (
            suggestion(close, value, at, f"is:{close}")
            if close
            else f"Use one of {', '.join(fields.FLAGS)}"
        )
        raise errors.error(f"unknown is:{shorten(value)}", at, hint)
    return q.Flag(word)


def build_code(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    return code_term(_unquote(value)[0], at, errors)


def build_sort(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Sort:
    descending = value.startswith("-")
    key = value.lstrip("-").lower()
    known = FIELD_BY_NAME.get(key)
    name = known.name if known else key
    if name not in fields.SORT_KEYS:
        close = closest(key, list(fields.SORT_KEYS))
        sign = "-" if descending else ""
        hint = (
            suggestion(f"{sign}{close}", value, at, close)
            if close
            else f"Sort by {', '.join(fields.SORT_KEYS)}"
        )
        raise errors.error(f"cannot sort by '{shorten(key)}'", at, hint)
    return q.Sort(name, descending)


_PARTIAL_NUMBERS = re.compile(r"-?[0-9]*(\.\.?-?[0-9]*)?")
_PARTIAL_TAG = re.compile(r"[a-z]{2}[-_][a-z]{0,3}")


def _vocabulary(field: CardField) -> list[str]:
    """The words a value of `field` may be (or start with), for `may_continue`."""
    if field.kind is Kind.NUMBER:
        return [f.name for f in FIELD_BY_NAME.values() if f.kind is Kind.NUMBER]
    if field.kind is Kind.RARITY:
        return [word.lower() for pair in fields.RARITY_NAMES.items() for word in pair]
    if field.kind is Kind.CHOICE:
        return [choice.lower() for choice in field.choices] + list(
            CHOICE_SYNONYMS.get(field.name, {})
        )
    if field.kind is Kind.FLAG:
        return list(fields.FLAGS)
    if field.kind is Kind.GEM:
        return [name.lower() for name in _colours(field).values()]
    if field.kind is Kind.SORT:
        return list(fields.SORT_KEYS)
    if field.kind is Kind.CONDITION:
        from cardbase.collection.attributes import CONDITION_NAMES, CONDITION_SYNONYMS

        return [*CONDITION_SYNONYMS, *(name.lower() for name in CONDITION_NAMES.values())]
    if field.kind is Kind.LANGUAGE:
        from cardbase.collection.languages import ISO_639_1

        return [*ISO_639_1, *(name.lower() for names in ISO_639_1.values() for name in names)]
    return []


def may_continue(field: CardField, value: str) -> bool:
    """Whether `value`, refused as it stands, is the start of one `field` takes: `cost:2.`
    on its way to `cost:2..4`, `is:ow` to `is:owned`, `r:com` to `r:common`. Only for the
    fields whose values are a known vocabulary; a word that starts no known one is wrong."""
    value = _unquote(value)[0].lower()
    if field.kind is Kind.NUMBER and _PARTIAL_NUMBERS.fullmatch(value):
        return True
    if field.kind is Kind.LANGUAGE and _PARTIAL_TAG.fullmatch(value):
        return True  # pt- on its way to pt-BR
    if field.kind is Kind.SORT:
        value = value.removeprefix("-")
    words = _vocabulary(field)
    *ends, last = value.split("..") if field.kind is Kind.RARITY else [value]
    return all(end in words for end in ends if end) and any(
        word.startswith(last.rstrip(".")) for word in words
    )


BUILDERS: dict[Kind, Callable[[CardField, str, str, Span, Errors], q.Node | q.Sort]] = {
    Kind.NUMBER: build_number,
    Kind.RARITY: build_rarity,
    Kind.CHOICE: build_choice,
    Kind.WORDS: build_words,
    Kind.GEM: build_gem,
    Kind.FLAG: build_flag,
    Kind.CODE: build_code,
    Kind.SORT: build_sort,
    **HOLDING_BUILDERS,
}


# Kinds whose values are one word of the language's own vocabulary (a number, a rarity, a
# sphere ...): quotes around one (t:"creature", as Scryfall accepts) mean nothing more.
_PLAIN_VALUE_KINDS = frozenset({Kind.NUMBER, Kind.RARITY, Kind.CHOICE, Kind.GEM, Kind.FLAG})


def build_term(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node | q.Sort:
    """One ``field op value`` term, for the parser and the plain options alike.

    Of a card field, ``!=`` is exactly the negation of ``=``: `s!=chaos` is `-s:chaos`, so
    Heroes (no sphere) are among its cards, and `def!=3` includes the cards with no defense,
    as `-def=3` does. Copy terms keep their own ``!=`` (`tag!=trade`: a copy without the
    tag), since of a card "a copy that is not" and "no copy that is" are different questions.
    """
    assert field.kind is not None  # only query fields reach here
    if field.kind in _PLAIN_VALUE_KINDS or field.kind is Kind.SORT:
        value = _unquote(value)[0]
        if not value:
            raise errors.error(f"expected a value inside the quotes after '{field.name}{op}'", at)
    builder = BUILDERS[field.kind]
    if op == "!=" and field.kind not in fields.HOLDING_KINDS and field.kind is not Kind.SORT:
        node = builder(field, ":", value, at, errors)
        assert not isinstance(node, q.Sort)
        return q.Not(node)
    return builder(field, op, value, at, errors)


class _OptionValue:
    """Errors about a plain option's value, pointing into the value itself."""

    def __init__(self, option: str, value: str) -> None:
        self.option = option
        self.value = value

    def error(
        self, message: str, at: Span | None = None, hint: str | Remedy | None = None
    ) -> QueryError:
        start, end = at if at is not None else (len(self.value), len(self.value) + 1)
        return QueryError(message, self.value, start, end, hint)


def option_node(field: CardField, value: str) -> q.Node:
    """A plain option's value (``--cost 2..4``, ``--attack '>=5'``) as the node its term makes.

    The value is one term's value, never query text; words with spaces are a phrase.
    """
    op = next((o for o in OPERATORS if value.startswith(o)), ":")
    rest = value[len(op) :] if op != ":" else value
    if field.kind is Kind.WORDS and not rest.startswith(('"', "/")) and " " in rest.strip():
        rest = f'"{rest.strip()}"'
    errors = _OptionValue(field.name, value)
    try:
        if len(value) > MAX_QUERY_CHARS:
            raise errors.error(
                f"the value is {len(value):,} characters long; at most {MAX_QUERY_CHARS:,}",
                Span(MAX_QUERY_CHARS, len(value)),
            )
        if not rest.strip():
            raise errors.error(f"--{field.name} needs a value, e.g. --{field.name} {field.example}")
        bad = unreadable(value)
        if bad:
            raise errors.error(bad[1], Span(bad[0], bad[0] + 1))
        start = len(op) if value.startswith(op) else 0  # ':' is the default, not typed
        node = build_term(field, op, rest, Span(start, len(value)), errors)
    except QueryError as exc:
        raise CardbaseError(f"--{field.name} {shorten(value)}: {exc.message}", exc.hint) from None
    assert not isinstance(node, q.Sort)  # order: has no plain option; --sort is its own
    return node


def flag_node(flag: str) -> q.Node:
    """A plain flag option (``--hero``) as its ``is:`` term."""
    if flag not in fields.FLAGS:
        raise ValueError(f"no flag option --{flag}")  # a programming error
    return q.Flag(flag)
