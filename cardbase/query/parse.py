"""Reading query text into `cardbase.query` nodes.

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
from collections.abc import Callable
from enum import Enum, auto
from typing import NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.codes import looks_like_code, parse_code
from cardbase.errors import CodeError, QueryError
from cardbase.query import nodes as q

_FIELD_TERM = re.compile(r"([A-Za-z]+)(>=|<=|!=|:|=|>|<)(.*)", re.DOTALL)
_NUMBER = re.compile(r"-?[0-9]+")
ORDER_OPS = (">", "<", ">=", "<=")
FTS_COLUMNS = {"name": "name", "text": "text", "trait": "traits"}
CHOICE_SYNONYMS = {"item": "resource", "items": "resource", "hero": "none", "heroes": "none"}


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

    def error(self, message: str, start: int, end: int | None = None) -> QueryError:
        return QueryError(message, self.text, start, end if end is not None else start + 1)

    def run(self) -> list[Token]:
        text = self.text
        for position, ch in enumerate(text):
            if (ch < " " and not ch.isspace()) or ch == "\x7f":
                raise self.error(f"control character {ch!r} in the query", position)
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
                        "'-' must stand right before what it excludes, e.g. -s:chaos", start
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
                    raise self.error('expected a card name after !, e.g. !"Chugawug Cook"', start)
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
        """The inside of "...", from the opening quote; an unclosed quote runs to the end."""
        close = self.text.find('"', self.pos + 1)
        end = len(self.text) if close < 0 else close
        value = self.text[self.pos + 1 : end]
        self.pos = end + 1 if close >= 0 else end
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
        raise self.error("this /regex/ has no closing /", start, len(self.text))

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
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = Tokenizer(text).run()
        self.index = 0
        self.sort: list[q.Sort] = []

    def error(
        self, message: str, token: Token | None = None, hint: str | None = None
    ) -> QueryError:
        if token is None:
            return QueryError(message, self.text, len(self.text), len(self.text) + 1, hint)
        return QueryError(message, self.text, token.start, token.end, hint)

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
                raise self.error("expected a term after 'or'", token)
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
        if token.kind is T.NEG:
            following = self.peek()
            if following is None or following.kind in (T.OR, T.RPAREN, T.AND):
                raise self.error("expected a term after '-'", token)
            child = self.unary(top=False)
            return q.Not(child) if child is not None else None
        if token.kind is T.LPAREN:
            inner = self.or_expr(top=False)
            closing = self.peek()
            if closing is None:
                raise self.error("this '(' is never closed; add a ')'", token)
            self.take()
            if inner is None:
                raise self.error("empty parentheses", token)
            return inner
        if token.kind is T.RPAREN:  # pragma: no cover - and_expr stops before ')'
            raise self.error("unexpected ')'", token)
        return self.term(token, top)

    def term(self, token: Token, top: bool) -> q.Node | None:
        if token.kind is T.PHRASE:
            raw = '"' + token.text + '"'
            return text_match(None, token.text, phrase=True, token=token, parser=self, raw=raw)
        if token.kind is T.EXACT:
            return q.ExactName(" ".join(token.text.split()), name_key(token.text))
        if token.kind is T.REGEX:
            return regex(q.FIELD_BY_NAME["name"], token.text, token, self)
        if token.kind is T.OR:  # pragma: no cover - or_expr consumes it
            raise self.error("unexpected 'or'", token)
        match = _FIELD_TERM.fullmatch(token.text)
        if match:
            return self.field_term(token, match.group(1), match.group(2), match.group(3), top)
        if looks_like_code(token.text):
            return code_term(token.text, token, self)
        return text_match(None, token.text, False, token, self, raw=token.text)

    def field_term(self, token: Token, name: str, op: str, value: str, top: bool) -> q.Node | None:
        field = q.FIELD_BY_NAME.get(name.lower())
        name_end = token.start + len(name)
        if field is None:
            known = sorted({f.name for f in q.FIELDS})
            close = _close(name.lower(), list(q.FIELD_BY_NAME))
            hint = f"Did you mean {close}? " if close else ""
            raise QueryError(
                f"unknown field '{name}'",
                self.text,
                token.start,
                name_end,
                f"{hint}Fields: {', '.join(known)}",
            )
        value_token = Token(T.WORD, value, name_end + len(op), token.end)
        if not value:
            raise self.error(f"expected a value after '{name}{op}'", token)
        builder = BUILDERS[field.kind]
        node = builder(field, op, value, value_token, self)
        if isinstance(node, q.Sort):
            if not top:
                raise self.error(
                    "order: goes at the top level of a query, not inside - or ( )", token
                )
            self.sort.append(node)
            return None
        return node


def _close(word: str, choices: list[str]) -> str | None:
    from rapidfuzz import fuzz, process

    found = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=60)
    return found[0] if found else None


def _unquote(value: str) -> tuple[str, bool]:
    if len(value) >= 1 and value.startswith('"'):
        return value[1:-1] if value.endswith('"') and len(value) > 1 else value[1:], True
    return value, False


def _fts_string(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def text_match(
    field: q.Field | None, value: str, phrase: bool, token: Token, parser: Parser, raw: str
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
        raise parser.error(f"'{value}' has no letters or digits to search for", token)
    if field is not None and field.name == "name" and not phrase:
        prefix = True  # name:chug finds Chugawug, as the game client's search box did
    fts = _fts_string(words) + ("*" if prefix else "")
    if field is not None:
        fts = f"{FTS_COLUMNS[field.name]} : {fts}"
    return q.TextMatch(fts, f"{field.name}:{raw}" if field else raw)


def regex(field: q.Field, pattern: str, token: Token, parser: Parser) -> q.Node:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise parser.error(f"bad regular expression: {exc}", token) from None
    return q.Regex(field, pattern)


def code_term(value: str, token: Token, parser: Parser) -> q.Node:
    try:
        code = parse_code(value)
    except CodeError as exc:
        raise parser.error(str(exc), token) from None
    return q.CodeIs(code.series, code.rarity, code.number)


def _number(text: str, token: Token, parser: Parser, offset: int = 0) -> int:
    if not _NUMBER.fullmatch(text):
        sub = Token(T.WORD, text, token.start + offset, token.start + offset + max(1, len(text)))
        raise parser.error(f"expected a number, not '{text}'", sub)
    return int(text)


def build_number(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    other = q.FIELD_BY_NAME.get(value.lower())
    if other is not None and other.kind is q.Kind.NUMBER:
        return q.CompareFields(field, "=" if op == ":" else op, other)
    if ".." in value and op in (":", "="):
        low_text, _, high_text = value.partition("..")
        if not low_text and not high_text:
            raise parser.error("a range needs at least one end, e.g. cost:2..4 or atk:5..", token)
        low = _number(low_text, token, parser) if low_text else None
        high = _number(high_text, token, parser, len(low_text) + 2) if high_text else None
        return q.Range(field, low, high)
    return q.Compare(field, "=" if op == ":" else op, _number(value, token, parser))


def _rarity_letter(value: str, token: Token, parser: Parser) -> str:
    word = value.lower()
    for letter, name in q.RARITY_NAMES.items():
        if word in (letter.lower(), name):
            return letter
    close = _close(word, list(q.RARITY_NAMES.values()))
    raise parser.error(
        f"unknown rarity '{value}'",
        token,
        f"Did you mean {close}?" if close else "Use c, u, r, e, p, s or a rarity's name",
    )


def build_rarity(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    if ".." in value and op in (":", "="):
        low_text, _, high_text = value.partition("..")
        parts = []
        if low_text:
            parts.append(build_rarity(field, ">=", low_text, token, parser))
        if high_text:
            parts.append(build_rarity(field, "<=", high_text, token, parser))
        if not parts:
            raise parser.error("a range needs at least one end, e.g. r:u..r", token)
        return parts[0] if len(parts) == 1 else q.And(tuple(parts))
    letter = _rarity_letter(value, token, parser)
    op = "=" if op == ":" else op
    if op in ORDER_OPS and letter not in q.RARITY_ORDER:
        raise parser.error(
            f"{q.RARITY_NAMES[letter]} cards have no place in the rarity order C < U < R < E",
            token,
            f"Use rarity:{letter.lower()}",
        )
    return q.RarityCompare(op, letter)


def build_choice(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    if op not in (":", "=", "!="):
        raise parser.error(f"{field.name} takes ':' or '!=', not '{op}'", token)
    word = CHOICE_SYNONYMS.get(value.lower(), value.lower())
    if field.name != "sphere" and word == q.NO_SPHERE:
        word = value.lower()
    folded = {choice.lower(): choice for choice in field.choices}
    matches = [choice for key, choice in folded.items() if key.startswith(word)]
    chosen = folded.get(word) or (matches[0] if len(matches) == 1 else None)
    if chosen is None:
        close = _close(word, list(folded))
        hint = f"Did you mean {close}?" if close else f"Choose from {', '.join(folded)}"
        raise parser.error(f"unknown {field.name} '{value}'", token, hint)
    return q.Choice(field, None if chosen == q.NO_SPHERE else chosen, negated_op=op == "!=")


def build_words(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    if op not in (":", "="):
        raise parser.error(f"{field.name} takes ':', not '{op}'", token)
    if value.startswith("/") and value.endswith("/") and len(value) >= 2:
        return regex(field, value[1:-1], token, parser)
    text, quoted = _unquote(value)
    raw = f'"{text}"' if quoted else value
    return text_match(field, text, phrase=quoted, token=token, parser=parser, raw=raw)


def build_gem(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    if op not in (":", "="):
        raise parser.error(f"gem takes ':', not '{op}'; for a count of gems use gems{op}N", token)
    letters = q.GEM_NAMES.get(value.lower()) or value.upper()
    if not letters or any(ch not in "RGBY" for ch in letters):
        raise parser.error(
            f"unknown gem colours '{value}'", token, "Use letters R G B Y, e.g. gem:rr"
        )
    return q.GemColours(letters)


def build_flag(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    word = value.lower()
    if op != ":" or word not in q.FLAGS:
        close = _close(word, list(q.FLAGS))
        hint = f"Did you mean is:{close}?" if close else f"Use one of {', '.join(q.FLAGS)}"
        raise parser.error(f"unknown is:{value}", token, hint)
    return q.Flag(word)


def build_code(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Node:
    return code_term(_unquote(value)[0], token, parser)


def build_sort(field: q.Field, op: str, value: str, token: Token, parser: Parser) -> q.Sort:
    descending = value.startswith("-")
    key = value.lstrip("-").lower()
    known = q.FIELD_BY_NAME.get(key)
    name = known.name if known else key
    if name not in q.SORT_KEYS:
        close = _close(key, list(q.SORT_KEYS))
        hint = f"Did you mean {close}?" if close else f"Sort by {', '.join(q.SORT_KEYS)}"
        raise parser.error(f"cannot sort by '{key}'", token, hint)
    return q.Sort(name, descending)


BUILDERS: dict[q.Kind, Callable[[q.Field, str, str, Token, Parser], q.Node | q.Sort]] = {
    q.Kind.NUMBER: build_number,
    q.Kind.RARITY: build_rarity,
    q.Kind.CHOICE: build_choice,
    q.Kind.WORDS: build_words,
    q.Kind.GEM: build_gem,
    q.Kind.FLAG: build_flag,
    q.Kind.CODE: build_code,
    q.Kind.SORT: build_sort,
}
