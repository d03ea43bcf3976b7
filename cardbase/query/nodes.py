"""The query language's nodes. Each node knows how to become SQL.

Nodes compose: `And`, `Or` and `Not` wrap others, and every node's `clause()` returns
``(sql, params)`` with user values only ever in params. `describe()` gives the node back as
normalised query text (aliases resolved), which `--explain` shows and tests compare.
The fields a node reads are `cardbase.fields.CardField`s; their column expressions refer to
the card table as ``c`` and ownership as ``o`` (see `cardbase.catalog.cards.SELECT_CARDS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from cardbase import fields
from cardbase.db import tables
from cardbase.db.engine import Engine, TextTerm
from cardbase.fields import CardField
from cardbase.naming import label_key

Clause = tuple[str, list[Any]]


class Node(Protocol):
    """What every query node does. Nodes are NamedTuples: cheap to define, which matters
    because this module is imported on every search's cold start."""

    def clause(self, engine: Engine) -> Clause: ...

    def describe(self) -> str: ...


class And(NamedTuple):
    children: tuple[Node, ...]

    def clause(self, engine: Engine) -> Clause:
        return _join(_same_copy(self.children), " AND ", engine)

    def describe(self) -> str:
        return " ".join(_grouped(child, Or) for child in self.children)


class Or(NamedTuple):
    children: tuple[Node, ...]

    def clause(self, engine: Engine) -> Clause:
        return _join(self.children, " OR ", engine)

    def describe(self) -> str:
        return " or ".join(_grouped(child, And) for child in self.children)


class Not(NamedTuple):
    child: Node

    def clause(self, engine: Engine) -> Clause:
        sql, params = self.child.clause(engine)
        # A comparison with a missing value (a resource's attack) is NULL, and NOT NULL is
        # NULL again: coalesce makes "-atk>3" include the cards that have no attack.
        return f"NOT coalesce({sql}, FALSE)", params

    def describe(self) -> str:
        return "-" + _grouped(self.child, And, Or)


def _grouped(node: Node, *kinds: type) -> str:
    text = node.describe()
    return f"({text})" if isinstance(node, kinds) else text


def _join(children: tuple[Node, ...], glue: str, engine: Engine) -> Clause:
    parts: list[str] = []
    params: list[Any] = []
    for child in children:
        sql, child_params = child.clause(engine)
        parts.append(f"({sql})")
        params.extend(child_params)
    return glue.join(parts), params


class Compare(NamedTuple):
    """A number field against a number: cost>=2, gems=3."""

    field: CardField
    op: str
    value: int

    def clause(self, engine: Engine) -> Clause:
        if self.field.value:  # a game's own field: its rows that compare so
            return fields.value_test(self.field.name, "number", f"{self.op} ?"), [self.value]
        return f"{self.field.sql} {self.op} ?", [self.value]

    def describe(self) -> str:
        return f"{self.field.name}{self.op}{self.value}"


class CompareFields(NamedTuple):
    """One number field against another: atk>def."""

    left: CardField
    op: str
    right: CardField

    def clause(self, engine: Engine) -> Clause:
        return f"{self.left.sql} {self.op} {self.right.sql}", []

    def describe(self) -> str:
        return f"{self.left.name}{self.op}{self.right.name}"


class Range(NamedTuple):
    """A number field in an inclusive range, open at either end: cost:2..4, atk:5.."""

    field: CardField
    low: int | None
    high: int | None

    def clause(self, engine: Engine) -> Clause:
        params: list[Any]
        if self.low is not None and self.high is not None:
            test, params = "BETWEEN ? AND ?", [self.low, self.high]
        elif self.low is not None:
            test, params = ">= ?", [self.low]
        else:
            test, params = "<= ?", [self.high]
        if self.field.value:  # a game's own field: its rows in the range
            return fields.value_test(self.field.name, "number", test), params
        return f"{self.field.sql} {test}", params

    def describe(self) -> str:
        low = "" if self.low is None else self.low
        high = "" if self.high is None else self.high
        return f"{self.field.name}:{low}..{high}"


class Fix(NamedTuple):
    """A correction of a value as typed: `replacement` in place of `start:end` of the query
    text (`option` None) or of that plain option's value; `shown` is the corrected term."""

    option: str | None
    start: int
    end: int
    replacement: str
    shown: str

    def applied(self, text: str) -> str:
        return text[: self.start] + self.replacement + text[self.end :]


class Empty(NamedTuple):
    """A term that no card can match, kept as typed (cost:4..2, r:p..c): it matches nothing,
    as it says, and `why` is the warning `cardbase.query.checks` gives for it, with `fix`
    (the range the right way round) where there is one."""

    shown: str
    why: str
    fix: Fix | None = None

    @property
    def reason(self) -> str:
        return f"{self.why}; did you mean {self.fix.shown}?" if self.fix else self.why

    def clause(self, engine: Engine) -> Clause:
        return "FALSE", []  # both engines: PostgreSQL takes no integer for a condition

    def describe(self) -> str:
        return self.shown


class RarityCompare(NamedTuple):
    """rarity>=r: by the ordered rarities C < U < R < E."""

    op: str
    letter: str

    def clause(self, engine: Engine) -> Clause:
        if self.op in ("=", "!="):
            return f"c.rarity {self.op} ?", [self.letter]
        sql, params = self.by_order(fields.RANKED_RARITIES)
        others = fields.RANKED_OTHERWISE
        if not others:
            return sql, params
        parts = [f"(c.game NOT IN ({', '.join('?' * len(others))}) AND {sql})"]
        params = [*others, *params]
        for game, ranked in others.items():
            if self.letter in ranked:
                own, own_params = self.by_order(ranked)
                parts.append(f"(c.game = ? AND {own})")
                params += [game, *own_params]
        return f"({' OR '.join(parts)})", params

    def by_order(self, ranked: str) -> Clause:
        """The comparison in one game's order of its letters (lowest first)."""
        rank_sql = fields.letter_rank("c.rarity", ranked)
        return f"{rank_sql} > 0 AND {rank_sql} {self.op} ?", [ranked.index(self.letter) + 1]

    def describe(self) -> str:
        op = ":" if self.op == "=" else self.op
        return f"rarity{op}{self.letter.lower()}"


class Choice(NamedTuple):
    """sphere:chaos, type:creature; sphere:none matches Heroes (no sphere). `s!=chaos` is
    `Not` of one, like every card field's `!=` (`cardbase.query.terms.build_term`)."""

    field: CardField
    value: str | None

    def clause(self, engine: Engine) -> Clause:
        if self.value is None:
            return f"{self.field.sql} IS NULL", []
        if self.field.value:  # a game's own field: its rows of that word
            return fields.value_test(self.field.name, "word", "= ?"), [self.value]
        return f"{self.field.sql} = ?", [self.value]

    def describe(self) -> str:
        return f"{self.field.name}:{(self.value or fields.NO_SPHERE).lower()}"


class TextMatch(NamedTuple):
    """Full-text words or a phrase, in every indexed column or in one (name:, text:, trait:).

    `fts` is an FTS5 expression built only from quoted strings, so nothing a user types
    (or, not, near, a stray quote) is read as FTS syntax.
    """

    fts: str
    shown: str
    words: str = ""  # the words or phrase, as typed (PostgreSQL's text search reads these)
    prefix: bool = False
    column: str | None = None  # name, traits or text; None: all three

    @property
    def term(self) -> TextTerm:
        return TextTerm(self.fts, self.words, self.prefix, self.column)

    def clause(self, engine: Engine) -> Clause:
        return engine.text_match(self.term)

    def describe(self) -> str:
        return self.shown


class Regex(NamedTuple):
    field: CardField
    pattern: str

    def clause(self, engine: Engine) -> Clause:
        return engine.regex(self.field.sql, self.pattern)

    def describe(self) -> str:
        return f"{self.field.name}:/{self.pattern}/"


class ExactName(NamedTuple):
    name: str
    key: str

    def clause(self, engine: Engine) -> Clause:
        return "c.name_key = ?", [self.key]

    def describe(self) -> str:
        return f'!"{self.name}"'


class CodeIs(NamedTuple):
    series: int
    rarity: str
    number: int

    def clause(self, engine: Engine) -> Clause:
        return "c.series = ? AND c.rarity = ? AND c.number = ?", [
            self.series,
            self.rarity,
            self.number,
        ]

    def describe(self) -> str:
        return f'code:"{self.series} {self.rarity} {self.number}"'


class CardIds(NamedTuple):
    """Only these cards (a deck's): not typed by people, added by the library to ask a
    query about a deck rather than the catalogue."""

    ids: tuple[int, ...]

    def clause(self, engine: Engine) -> Clause:
        if not self.ids:
            return "FALSE", []
        return f"c.id IN ({', '.join('?' for _ in self.ids)})", list(self.ids)

    def describe(self) -> str:
        return f"(one of {len(self.ids)} cards)"


class GemColours(NamedTuple):
    """gem:rry: at least two red and one yellow gem; `field`: a game's colours field of its
    own (aura:rr), whose letters are its value's."""

    colours: str
    field: CardField | None = None

    def clause(self, engine: Engine) -> Clause:
        # At least n gems of a colour is the pattern of n such letters with anything between
        # ('%R%R%'): a LIKE costs a third of counting them with length() and replace().
        parts, params = [], []
        column = self.field.sql if self.field else "c.gems"
        for colour in sorted(set(self.colours)):
            parts.append(f"{column} LIKE ?")
            params.append("%" + "%".join(colour * self.colours.count(colour)) + "%")
        return " AND ".join(parts), params

    def describe(self) -> str:
        return f"{self.field.name if self.field else 'gem'}:{self.colours.lower()}"


class Flag(NamedTuple):
    flag: str

    def clause(self, engine: Engine) -> Clause:
        if self.flag == "hero":
            return "c.hero = TRUE", []
        if self.flag in fields.FLAG_SQL:  # a game's flag of its own
            return fields.FLAG_SQL[self.flag], []
        if self.flag == "owned":
            return f"{fields.OWNED_SQL} > 0", []
        if self.flag == "playset":
            return (
                f"c.name_key IN (SELECT p.name_key FROM {tables.CARD_TABLE} AS p "
                f"JOIN {tables.MY_OWNERSHIP} AS po ON po.card_id = p.id "
                "GROUP BY p.name_key HAVING sum(po.nonfoil + po.foil) >= ?)",
                [fields.PLAYSET],
            )
        return f"coalesce(o.{self.flag}, 0) > 0", []

    def describe(self) -> str:
        return f"is:{self.flag}"


class Label(NamedTuple):
    """A location or tags term's names, as `cardbase.naming.label_key` keys them (any case,
    any Unicode form): `column` is ``location`` (one key) or ``tags`` (every key).

    Which stored spellings have those keys is asked of the database, in Python, before the
    statement is made (`with_labels`), so that both engines match by exactly the rule that
    the writes use, where SQL's own folding differs (PostgreSQL's lower() keeps 'ß')."""

    column: str
    keys: tuple[str, ...]
    negated: bool = False

    def test(self, engine: Engine, spellings: Sequence[str]) -> Clause:
        """The condition on a holding ``h`` for the stored `spellings` of the column."""
        if self.column == "location":
            found = [text for text in spellings if label_key(text) in self.keys]
            sql = f"h.location IN ({', '.join('?' * len(found))})" if found else "FALSE"
            return (f"NOT ({sql})" if self.negated else sql), found
        tests, params = [], []
        wrapped = "',' || h.tags || ','"
        for key in self.keys:
            found = [text for text in spellings if label_key(text) == key]
            each = [f"{engine.position(wrapped, '?')} > 0" for _ in found]
            tests.append(f"({' OR '.join(each)})" if each else "FALSE")
            params += [f",{text}," for text in found]
        sql = " AND ".join(tests)
        return (f"NOT ({sql})" if self.negated else sql), params


class HoldingTerm(NamedTuple):
    """A term about the collector's copies: cond>=lp, lang:fr, in:"binder 1", tag:trade.

    `test` is its condition on one holding ``h`` (built by `cardbase.query.holdings`). Of a
    card it asks "do you have a copy that passes?", an EXISTS over the collector's holdings
    that only a query with such a term pays for; in a listing of copies (`per_holding`,
    ``each``) it filters the copies themselves.
    """

    shown: str
    test: str
    params: tuple[Any, ...] = ()
    each: bool = False
    label: Label | None = None  # in:, tag:: `test` is made from the stored spellings

    def clause(self, engine: Engine) -> Clause:
        if self.label is not None:
            raise ValueError(f"{self.shown}: its label has not been looked up (with_labels)")
        if self.each:
            return self.test, list(self.params)
        return (
            f"EXISTS (SELECT 1 FROM {tables.MY_HOLDING} AS h "
            f"WHERE h.card_id = c.id AND {self.test})",
            list(self.params),
        )

    def describe(self) -> str:
        return self.shown


def _same_copy(children: tuple[Node, ...]) -> tuple[Node, ...]:
    """Copy terms side by side ask about one copy: `cond:nm lang:fr` is a card you have a
    French Near Mint copy of, not one with a Near Mint copy and another in French. They
    become one EXISTS, in the place of the first."""
    terms = [c for c in children if isinstance(c, HoldingTerm) and not c.each]
    if len(terms) < 2:
        return children
    one = HoldingTerm(
        " ".join(term.shown for term in terms),
        " AND ".join(f"({term.test})" for term in terms),
        tuple(param for term in terms for param in term.params),
    )
    first = children.index(terms[0])
    rest = [child for child in children if not any(child is term for term in terms)]
    return (*rest[:first], one, *rest[first:])


def with_labels(
    node: Node | None, engine: Engine, spellings: Callable[[str], Sequence[str]] | None
) -> Node | None:
    """The tree with every location and tag term's test made from `spellings(column)`, the
    spellings stored in that column (each tag alone); without them (`--explain` with no
    database at hand), from the names as typed, folded."""
    if isinstance(node, HoldingTerm) and node.label is not None:
        label = node.label
        stored = spellings(label.column) if spellings else label.keys
        test, params = label.test(engine, stored)
        return node._replace(test=test, params=tuple(params), label=None)
    if isinstance(node, And | Or):
        children = tuple(with_labels(child, engine, spellings) for child in node.children)
        return type(node)(children)  # type: ignore[arg-type]
    if isinstance(node, Not):
        return Not(with_labels(node.child, engine, spellings))  # type: ignore[arg-type]
    return node


def per_holding(node: Node | None) -> Node | None:
    """The query as a filter of copies rather than cards (`collection --copies`): each copy
    term tests the copy itself, so `-tag:trade` lists the copies without that tag (of a card,
    it means no copy has it). `is:foil` and `is:nonfoil` pick the copies of that finish."""
    if isinstance(node, HoldingTerm):
        return node._replace(each=True)
    if isinstance(node, Flag) and node.flag in (fields.FOIL, fields.NONFOIL):
        return HoldingTerm(node.describe(), "h.finish = ?", (node.flag,), each=True)
    if isinstance(node, And | Or):
        return type(node)(tuple(per_holding(child) for child in node.children))  # type: ignore[misc]
    if isinstance(node, Not):
        return Not(per_holding(node.child))  # type: ignore[arg-type]
    return node


class Sort(NamedTuple):
    key: str
    descending: bool = False

    def sql(self, engine: Engine, walk: bool = False) -> str:
        """Missing values (a trick's attack, a Hero's sphere) sort last either way, on both
        engines. A key with indexes sorts by `(x IS NULL), -x` (descending for an ascending
        sort), which is how those indexes are written (`cardbase.db.models`), so that
        SQLite may walk one; without `walk`, the column as `+x` keeps it from doing so.
        Text sorts by its bytes on both engines (`fields.TEXT_SORT_PARTS`)."""
        if self.key in fields.SORT_INDEXED:
            column = ("" if walk else "+") + fields.SORT_KEYS[self.key][0]
            return f"({column} IS NULL), -{column}{'' if self.descending else ' DESC'}"
        suffix = (" DESC" if self.descending else "") + " NULLS LAST"
        return ", ".join(
            part + (engine.byte_order if part in fields.TEXT_SORT_PARTS else "") + suffix
            for part in fields.SORT_KEYS[self.key]
        )

    def describe(self) -> str:
        return f"order:{'-' if self.descending else ''}{self.key}"


class Query(NamedTuple):
    """A parsed query: an optional filter tree and the sort keys it asked for."""

    root: Node | None
    sort: tuple[Sort, ...] = ()

    def describe(self) -> str:
        parts = [self.root.describe()] if self.root else []
        parts += [key.describe() for key in self.sort]
        return " ".join(parts)
