"""Terms about the collector's copies: condition, language, location and tags.

`cond>=lp`, `lang:fr`, `in:"binder 1"` and `tag:trade` read their value with the parsers the
write side uses (`cardbase.collection.attributes`), so a term accepts every spelling `add`
does and refuses a bad one with the same words, and build a `HoldingTerm` whose test is one
condition on a holding ``h``. Of a card the term asks whether the collector has such a copy;
in `collection --copies` it filters the copies (see `cardbase.query.nodes.per_holding`).

The attribute parsers load only when a query holds such a term: searches start as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardbase.errors import CardbaseError, shorten
from cardbase.fields import CardField, Kind
from cardbase.naming import label_key
from cardbase.query import nodes as q

if TYPE_CHECKING:
    from cardbase.query.spans import Errors, Span

NONE = "none"  # in:none, tag:none: copies with no location, no tags
_EQUALITY = (":", "=", "!=")


def _only_equality(field: CardField, op: str, at: Span, errors: Errors) -> None:
    if op not in _EQUALITY:
        raise errors.error(f"{field.name} takes ':' or '!=', not '{op}'", at)


def _parsed(parse: Callable[[str], str], value: str, at: Span, errors: Errors) -> str:
    """`parse(value)`, its one-line refusal pointed at the value."""
    try:
        return parse(value)
    except CardbaseError as exc:
        raise errors.error(exc.message, at, exc.hint) from None


def _unquote(value: str) -> tuple[str, bool]:
    if value.startswith('"'):
        return value[1:-1] if value.endswith('"') and len(value) > 1 else value[1:], True
    return value, False


def _label(field: CardField, value: str, at: Span, errors: Errors) -> tuple[str, bool]:
    """A location's or tag's text, and whether it was quoted. A double quote inside has no
    spelling the query could read back (quotes do not nest), so it is refused."""
    text, quoted = _unquote(value)
    if '"' in text:
        raise errors.error(f"a {field.name} in a query cannot hold a double quote", at)
    return text, quoted


def _term(field: CardField, op: str, shown: str, test: str, params: tuple[object, ...]) -> q.Node:
    """`cond!=nm` is a copy that is not Near Mint (of a card: you have one); `-cond:nm` is a
    card you have no Near Mint copy of."""
    if op == "!=":
        test = f"NOT ({test})"
    return q.HoldingTerm(f"{field.name}{op}{shown}", test, params)


def _label_term(field: CardField, op: str, shown: str, column: str, names: list[str]) -> q.Node:
    """A location or tags term: its test is made from the stored spellings (`q.Label`)."""
    label = q.Label(column, tuple(label_key(name) for name in names), negated=op == "!=")
    return q.HoldingTerm(f"{field.name}{op}{shown}", "", (), label=label)


def _quoted(text: str) -> str:
    """A value as a query can read it back: quoted when it has spaces, ( ) or quotes, starts
    as a /regex/ would, or is 'none'."""
    plain = (
        text and not text.startswith("/") and not any(ch.isspace() or ch in '()"' for ch in text)
    )
    return text if plain and text.lower() != NONE else f'"{text}"'


def build_condition(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    """cond:nm, cond>=lp: `>=` is "as good or better", on the scale M > NM > ... > DMG."""
    from cardbase.collection.attributes import CONDITIONS, parse_condition

    text = _unquote(value)[0]
    if text.startswith(("<", ">", "=", "!")):  # cond<>lp: the fold would read 'lp'
        raise errors.error(f"{field.name}{op} takes a condition, not '{shorten(text, 20)}'", at)
    if ".." in text:  # cond:lp..: the fold would read 'lp', one condition, not a range
        raise errors.error(
            f"{field.name}{op} takes one condition, not a range: cond>=lp is LP or better, "
            "cond<=lp LP or worse",
            at,
        )
    code = _parsed(parse_condition, text, at, errors)
    rank = CONDITIONS.index(code)
    if op in _EQUALITY:
        return _term(field, ":" if op == "=" else op, code.lower(), "h.condition = ?", (code,))
    chosen = {
        ">=": CONDITIONS[: rank + 1],
        ">": CONDITIONS[:rank],
        "<=": CONDITIONS[rank:],
        "<": CONDITIONS[rank + 1 :],
    }[op]
    marks = ", ".join("?" * len(chosen))
    return _term(field, op, code.lower(), f"h.condition IN ({marks})", tuple(chosen))


def build_language(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    """lang:fr, lang:French; a language without a variant covers its variants (lang:zh is
    Simplified and Traditional Chinese)."""
    from cardbase.collection.attributes import parse_language

    _only_equality(field, op, at, errors)
    code = _parsed(parse_language, _unquote(value)[0], at, errors)
    op = ":" if op == "=" else op
    if "-" in code:
        return _term(field, op, code, "h.language = ?", (code,))
    return _term(field, op, code, "(h.language = ? OR h.language LIKE ?)", (code, f"{code}-%"))


def build_location(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    """in:"binder 1": the location of that whole name in any case; in:none, no location (a
    location called none is in:"none")."""
    from cardbase.collection.attributes import parse_location

    _only_equality(field, op, at, errors)
    text, quoted = _label(field, value, at, errors)
    op = ":" if op == "=" else op
    if not quoted and text.lower() == NONE:
        return _term(field, op, NONE, "h.location = ''", ())
    name = _parsed(parse_location, text, at, errors)
    if not name:
        raise errors.error(f"expected a location's name, or {field.name}:{NONE}", at)
    return _label_term(field, op, _quoted(name), "location", [name])


def build_tag(field: CardField, op: str, value: str, at: Span, errors: Errors) -> q.Node:
    """tag:trade, tag:"deck: bog stew"; tag:trade,signed has both; tag:none, no tags."""
    from cardbase.collection.attributes import parse_tags, tag_list

    _only_equality(field, op, at, errors)
    text, quoted = _label(field, value, at, errors)
    op = ":" if op == "=" else op
    if not quoted and text.lower() == NONE:
        return _term(field, op, NONE, "h.tags = ''", ())
    tags = tag_list(_parsed(lambda text: parse_tags([text]), text, at, errors))
    if not tags:
        raise errors.error(f"expected a tag, or {field.name}:{NONE}", at)
    return _label_term(field, op, _quoted(",".join(tags)), "tags", tags)


HOLDING_BUILDERS: dict[Kind, Callable[[CardField, str, str, Span, Errors], q.Node]] = {
    Kind.CONDITION: build_condition,
    Kind.LANGUAGE: build_language,
    Kind.LOCATION: build_location,
    Kind.TAG: build_tag,
}
