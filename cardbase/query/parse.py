"""Reading query text into `cardbase.query.nodes`.

The grammar, loosest binding first::

    query := or_expr
    or_expr := and_expr ("or" and_expr)*
    and_expr := unary+                      terms side by side are ANDed
    unary := "-" unary | "(" or_expr ")" | term
    term := field op value | !"Exact Name" | "a phrase" | /regex/ | 1U132 | word[*]

Every token keeps its position, so an error can point at the exact part of the query.
"""

from __future__ import annotations

import re
from enum import Enum, auto
from typing import NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.codes import looks_like_code, parse_code
from cardbase.errors import CodeError, QueryError, Remedy, Suggestion, shorten
from cardbase.fields import FIELD_BY_NAME, NEGATED_ALIASES, NOT_IN_DATA
from cardbase.limits import MAX_NESTING, MAX_QUERY_CHARS, MAX_TERMS
from cardbase.query import nodes as q
from cardbase.query.terms import (
    Span,
    build_term,
    code_term,
    may_continue,
    regex,
    text_match,
    unreadable,
)
from cardbase.similar import closest

_FIELD_TERM = re.compile(r"([A-Za-z]+)(>=|<=|!=|:|=|>|<)(.*)", re.DOTALL)


class T(Enum):
    LPAREN = auto()
    RPAREN = auto()
    NEG = auto()
    OR = auto()
    AND = auto()
    WORD = auto()
    PHRASE = auto()
    EXACT = auto()
    REGEX = auto()


class Token(NamedTuple):
    kind: T
    text: str  # the value: a word, the inside of quotes or slashes
    start: int
    end: int


class Tokenizer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.tokens: list[Token] = []

    def error(
        self, message: str, start: int, end: int | None = None, incomplete: bool = False
    ) -> QueryError:
        end = end if end is not None else start + 1
        return QueryError(message, self.text, start, end, incomplete=incomplete)

    def run(self) -> list[Token]:
        text = self.text
        bad = unreadable(text)
        if bad:
            raise self.error(bad[1], bad[0])
        while self.pos < len(text):
            ch, start = text[self.pos], self.pos
            if ch.isspace():
                self.pos += 1
            elif ch in "()":
                self.pos += 1
                self.tokens.append(Token(T.LPAREN if ch == "(" else T.RPAREN, ch, start, self.pos))
            elif ch == "-":
                self.pos += 1
                if self.pos >= len(text) or text[self.pos].isspace():
                    raise self.error(
                        "'-' must stand right before what it excludes, e.g. -s:chaos",
                        start,
                        incomplete=not text[self.pos :].strip(),
                    )
                self.tokens.append(Token(T.NEG, ch, start, self.pos))
            elif ch == '"':
                value = self._quoted()
                self.tokens.append(Token(T.PHRASE, value, start, self.pos))
            elif ch == "!":
                self.pos += 1
                value = self._quoted() if text[self.pos : self.pos + 1] == '"' else self._word()
                value = value.replace('"', "")  # card names have no double quotes
                if not value.strip():
                    raise self.error(
                        'expected a card name after !, e.g. !"Chugawug Cook"',
                        start,
                        incomplete=not text[self.pos :].strip(),
                    )
                self.tokens.append(Token(T.EXACT, value, start, self.pos))
            elif ch == "/":
                value = self._regex()
                self.tokens.append(Token(T.REGEX, value, start, self.pos))
            else:
                word = self._word()
                lowered = word.lower()
                kind = T.OR if lowered == "or" else T.AND if lowered == "and" else T.WORD
                self.tokens.append(Token(kind, word, start, self.pos))
        return self.tokens

    def _quoted(self) -> str:
        """The inside of "...", from the opening quote. A quote never closed is refused like
        a '(' never closed: read to the end, `name:"open` would quietly find nothing."""
        close = self.text.find('"', self.pos + 1)
        if close < 0:
            raise self.error(
                'this quote is never closed; add a " (or remove this one)',
                self.pos,
                len(self.text),
                incomplete=True,
            )
        value = self.text[self.pos + 1 : close]
        self.pos = close + 1
        return value

    def _regex(self) -> str:
        start = self.pos
        i = self.pos + 1
        while i < len(self.text):
            if self.text[i] == "\\":
                i += 2
                continue
            if self.text[i] == "/":
                self.pos = i + 1
                return self.text[start + 1 : i]
            i += 1
        raise self.error("this /regex/ has no closing /", start, len(self.text), incomplete=True)

    def _word(self) -> str:
        """A word, which may hold a quoted or /regex/ value after field: (name:"a b")."""
        start = self.pos
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch.isspace() or ch in "()":
                break
            if ch == '"':
                self._quoted()
                continue
            if ch == "/" and self.text[self.pos - 1 : self.pos] == ":":
                self._regex()
                continue
            self.pos += 1
        return self.text[start : self.pos]


def parse_query(text: str) -> q.Query:
    """Parse query text; raise `QueryError` pointing at the first part that makes no sense."""
    return Parser(text).parse()


class Parser:
    """A recursive-descent parser, held to `MAX_NESTING` and `MAX_TERMS` so that Python's
    recursion and SQLite's expression depth never run out whatever the query."""

    option: str | None = None  # what it reads is query text, not a plain option's value

    def __init__(self, text: str) -> None:
        self.text = text
        if len(text) > MAX_QUERY_CHARS:
            raise QueryError(
                f"the query is {len(text):,} characters long; at most {MAX_QUERY_CHARS:,}",
                text,
                MAX_QUERY_CHARS,
                len(text),
            )
        self.tokens = _spaced_codes(Tokenizer(text).run(), text)
        self.index = 0
        self.sort: list[q.Sort] = []
        self.depth = 0
        self.terms = 0

    def error(
        self,
        message: str,
        token: Token | Span | None = None,
        hint: str | Remedy | None = None,
        incomplete: bool = False,
    ) -> QueryError:
        if token is None:
            start, end = len(self.text), len(self.text) + 1
        else:
            start, end = token.start, token.end
        return QueryError(message, self.text, start, end, hint, incomplete=incomplete)

    def at_end(self, token: Token) -> bool:
        """`token` is the last of the text: what it lacks may still be typed after it."""
        return self.peek() is None and not self.text[token.end :].strip()

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> q.Query:
        root = self.or_expr(top=True) if self.tokens else None
        token = self.peek()
        if token is not None:
            raise self.error("unexpected ')': there is no '(' before it", token)
        return q.Query(root, tuple(self.sort))

    def or_expr(self, top: bool = False) -> q.Node | None:
        children = [self.and_expr(top)]
        or_tokens: list[Token] = []
        while (token := self.peek()) is not None and token.kind is T.OR:
            or_tokens.append(self.take())
            following = self.peek()
            if following is None or following.kind in (T.OR, T.RPAREN):
                raise self.error("expected a term after 'or'", token, incomplete=following is None)
            children.append(self.and_expr(top))
        if len(children) == 1:
            return children[0]
        for position, child in enumerate(children):
            if child is None:
                raise self.error("'or' needs a term on each side", or_tokens[max(0, position - 1)])
        return q.Or(tuple(child for child in children if child is not None))

    def and_expr(self, top: bool) -> q.Node | None:
        """Terms side by side, up to an 'or' or a ')'; None when there were only order: terms."""
        children: list[q.Node] = []
        while (token := self.peek()) is not None and token.kind not in (T.OR, T.RPAREN):
            if token.kind is T.AND:
                self.take()
                continue
            node = self.unary(top)
            if node is not None:
                children.append(node)
        if not children:
            return None
        return children[0] if len(children) == 1 else q.And(tuple(children))

    def unary(self, top: bool) -> q.Node | None:
        token = self.take()
        if token.kind in (T.NEG, T.LPAREN):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise self.error(
                    f"more than {MAX_NESTING} levels of ( ) and - inside one another", token
                )
            node = self.group(token) if token.kind is T.LPAREN else self.negation(token)
            self.depth -= 1
            return node
        if token.kind is T.RPAREN:  # pragma: no cover - and_expr stops before ')'
            raise self.error("unexpected ')'", token)
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise self.error(f"a query has at most {MAX_TERMS} terms", token)
        return self.term(token, top)

    def negation(self, token: Token) -> q.Node | None:
        following = self.peek()
        if following is None or following.kind in (T.OR, T.RPAREN, T.AND):
            raise self.error("expected a term after '-'", token, incomplete=following is None)
        child = self.unary(top=False)
        return q.Not(child) if child is not None else None

    def group(self, token: Token) -> q.Node:
        inner = self.or_expr(top=False)
        closing = self.peek()
        if closing is None:
            raise self.error("this '(' is never closed; add a ')'", token, incomplete=True)
        self.take()
        if inner is None:
            raise self.error("empty parentheses", token)
        return inner

    def term(self, token: Token, top: bool) -> q.Node | None:
        span = Span(token.start, token.end)
        if token.kind is T.PHRASE:
            raw = '"' + token.text + '"'
            return text_match(None, token.text, phrase=True, at=span, errors=self, raw=raw)
        if token.kind is T.EXACT:
            return q.ExactName(" ".join(token.text.split()), name_key(token.text))
        if token.kind is T.REGEX:
            return regex(FIELD_BY_NAME["name"], token.text, span, self)
        if token.kind is T.OR:  # pragma: no cover - or_expr consumes it
            raise self.error("unexpected 'or'", token)
        match = _FIELD_TERM.fullmatch(token.text)
        if match:
            return self.field_term(token, match.group(1), match.group(2), match.group(3), top)
        if looks_like_code(token.text):
            return code_term(token.text, span, self)
        return text_match(None, token.text, False, span, self, raw=token.text)

    def field_term(self, token: Token, name: str, op: str, value: str, top: bool) -> q.Node | None:
        key = name.lower()
        field = FIELD_BY_NAME.get(NEGATED_ALIASES.get(key, key))
        name_end = token.start + len(name)
        if field is None:
            message, hint = unknown_field(name)
            raise QueryError(message, self.text, token.start, name_end, hint)
        value_span = Span(name_end + len(op), token.end)
        if not value:
            raise self.error(
                f"expected a value after '{shorten(name)}{op}'", token,
                incomplete=self.at_end(token),
            )  # fmt: skip
        try:
            node = build_term(field, op, value, value_span, self)
        except QueryError as exc:
            exc.incomplete = exc.incomplete or (self.at_end(token) and may_continue(field, value))
            raise
        if key in NEGATED_ALIASES and not isinstance(node, q.Sort):
            node = q.Not(node)  # not:foil is -is:foil
        if isinstance(node, q.Sort):
            if not top:
                raise self.error(
                    "order: goes at the top level of a query, not inside - or ( )", token
                )
            self.sort.append(node)
            return None
        return node


def _spaced_codes(tokens: list[Token], text: str) -> list[Token]:
    """Three bare words that are a code as the catalogue writes it ('1 U 139') as one word,
    a code term: `search '1 U 999'` is the code 1U999, warned of as unknown as it is."""
    joined: list[Token] = []
    index = 0
    while index < len(tokens):
        three = tokens[index : index + 3]
        if len(three) == 3 and all(t.kind is T.WORD for t in three):
            first, middle, last = (t.text for t in three)
            if first.isdigit() and last.isdigit() and len(middle) == 1 and middle.isalpha():
                word = text[three[0].start : three[2].end]
                try:
                    parse_code(word)
                except CodeError:
                    pass
                else:
                    joined.append(Token(T.WORD, word, three[0].start, three[2].end))
                    index += 3
                    continue
        joined.append(tokens[index])
        index += 1
    return joined


def unknown_field(name: str) -> tuple[str, str | Remedy]:
    """The message and hint for a field the language does not have: Scryfall's terms this
    game has no data for say so and what there is instead; any other names the nearest
    field (by its aliases too: `powr` is attack), then every field."""
    key = name.lower()
    known = sorted({f.name for f in FIELD_BY_NAME.values()})
    if key in NOT_IN_DATA:
        instead = NOT_IN_DATA[key]
        fields = f". Fields: {', '.join(known)}"
        said = instead if isinstance(instead, Remedy) else Remedy(instead, instead)
        remedy = Remedy(*(f"{words[0].upper()}{words[1:]}{fields}" for words in said))
        return f"'{shorten(name)}' is not in this game's data", remedy
    close = closest(key, [*FIELD_BY_NAME, *NEGATED_ALIASES])
    if close is None:
        close = next((k for k in sorted(FIELD_BY_NAME) if k.startswith(key) and len(key) > 1), None)
    message, fields = f"unknown field '{shorten(name)}'", f"Fields: {', '.join(known)}"
    if close is None:
        return message, fields
    canonical = FIELD_BY_NAME[close].name if close in FIELD_BY_NAME else close
    shown = f"{close}:" if close in NEGATED_ALIASES else close
    shown = shown if close == canonical else f"{close} ({canonical})"
    return message, Suggestion(f"Did you mean {shown}? {fields}", close)
