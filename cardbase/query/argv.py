"""Query words as the shell delivers them, back into query text.

A shell removes the quotes a person typed: `cardbase search o:"draw a card"` arrives as the
one argument `o:draw a card`, and joined with its neighbours by spaces it would become three
terms, finding 41 cards instead of 26. So, as beets reads `title:draw a card`, an argument
that holds spaces and is one field term (or one `!Exact Name`) is that one term, its value
quoted again. An argument that is query text of its own (`'o:stun -s:chaos'`, `'s:chaos
dragon'`) is left as typed: it holds syntax, or its field takes no value with spaces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from cardbase.fields import FIELD_BY_NAME, NEGATED_ALIASES, Kind

# Fields whose values may hold spaces: words and phrases, codes ("1 U 132"), conditions
# ("near mint"), languages, locations and tags. A sphere, a number or a rarity never does.
_SPACED_KINDS = frozenset(
    {Kind.WORDS, Kind.CODE, Kind.CONDITION, Kind.LANGUAGE, Kind.LOCATION, Kind.TAG}
)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A field term and an exact name, compiled only when an argument holds a space: most
    searches' arguments do not, and each start would pay for them."""
    return (
        re.compile(r"(-?)([A-Za-z]+)(>=|<=|!=|:|=|>|<)(.*)", re.DOTALL),
        re.compile(r"(-?!)(.*)", re.DOTALL),
    )


def _is_syntax(word: str) -> bool:
    """Whether a word of an argument is query syntax rather than part of one value: a field
    term, an exclusion, a group, a phrase or a /regex/ of its own."""
    if word.startswith(("-", "!", "/")) or any(ch in word for ch in '"()'):
        return True
    term = _patterns()[0].fullmatch(word)
    return term is not None and term[2].lower() in (*FIELD_BY_NAME, *NEGATED_ALIASES)


def _one_value(value: str) -> bool:
    words = value.split()
    return len(words) > 1 and not any(_is_syntax(word) for word in words)


def argument_term(argument: str) -> str:
    """One shell argument as query text: `o:draw a card` is `o:"draw a card"`, `!Chugawug
    Cook` is `!"Chugawug Cook"`; anything else is returned as it is."""
    text = argument.strip()
    if len(text.split(maxsplit=1)) < 2:  # no space inside: found in C, not a Python loop
        return argument
    term_pattern, exact_pattern = _patterns()
    term = term_pattern.fullmatch(text)
    if term is not None:
        sign, name, op, value = term.groups()
        field = FIELD_BY_NAME.get(name.lower())
        if field is not None and field.kind in _SPACED_KINDS and _one_value(value):
            return f'{sign}{name}{op}"{value.strip()}"'
        return argument
    exact = exact_pattern.fullmatch(text)
    if exact is not None and _one_value(exact[2]):
        return f'{exact[1]}"{exact[2].strip()}"'
    return argument


def query_text(arguments: Sequence[str]) -> str:
    """The shell's arguments as one query: `search s:chaos dragon` and `search 's:chaos
    dragon'` mean the same; `search o:"draw a card"` and `search 'o:"draw a card"'` too."""
    return " ".join(argument_term(argument) for argument in arguments)
