"""Turning what a person typed (a code or a name) into exactly one card, or a helpful refusal.

Every command resolves through one `NameResolver`, so one policy holds everywhere: a code is
looked up by code and its rarity letter must agree with the catalogue; a name must match
exactly once folded by `cards.name_key` (case, accents, spaces and punctuation do not count);
anything else is refused with the closest names as suggestions, never guessed. A wrong guess
would put the wrong card in somebody's collection, deck or trade; a refusal costs one retyped
line. The same text gets the same suggestions from every command, because they all ask here.

A resolver lives for one command and remembers its answers. It looks a handful of names up
through the `name_key` index, and reads the whole catalogue once when a command resolves
many (an import, a long list), where a query a name would cost more. Close names
(`catalog.closenames`, with the scorer and its thresholds) are read only when a name fails,
once for the command however many names fail.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from cardbase.catalog.cards import Card, cards_by_id, name_key
from cardbase.catalog.entries import Entry
from cardbase.codes import (
    CollectorCode,
    game_code,
    in_some_game,
    looks_like_code,
    no_card_with_code,
    parse_code,
)
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import (
    AmbiguousError,
    CardbaseError,
    CodeError,
    NotFoundError,
    Remedy,
    first_few,
    no_card_named,
)
from cardbase.games import GAMES, game_of_prefix, game_prefix

if TYPE_CHECKING:
    from cardbase.catalog.closenames import CloseNames

NOTHING_CHANGED = " Nothing was changed."
SHOWN_PROBLEMS = 5  # entries quoted when several name no card
BULK_LOOKUPS = 1_000  # names looked up one query at a time before reading the whole catalogue

_PRINTINGS_SQL = f"SELECT id, game, series, rarity, number, name FROM {tables.CARD_TABLE}"
_ORDER_SQL = " ORDER BY game, series, number, rarity"


class Printing(NamedTuple):
    """Just enough of a card to choose it and name it: an import holds 100k of these."""

    id: int
    game: str
    series: int
    rarity: str
    number: int
    name: str

    @property
    def code(self) -> CollectorCode:
        return CollectorCode(self.series, self.rarity, self.number)


_make_printing = functools.partial(tuple.__new__, Printing)  # skips NamedTuple's __new__


def _catalogue_order(printing: Printing) -> tuple[str, int, int, str]:
    return (printing.game, printing.series, printing.number, printing.rarity)


class NameMatch(NamedTuple):
    """The printings a name means exactly (maybe several), else suggestions."""

    printings: list[Printing]
    suggestions: list[str]


def did_you_mean(suggestions: list[str]) -> str | None:
    return f"Did you mean: {', '.join(suggestions)}?" if suggestions else None


def _in_game(printings: list[Printing], game: str | None, only: bool = False) -> list[Printing]:
    """Printings of the preferred game, when there are any (a deck checks one game's cards);
    `only`: that game's or none."""
    if only:
        return [p for p in printings if p.game == game]
    if game is None:
        return printings
    return [p for p in printings if p.game == game] or printings


class Catalogue:
    """Every printing in memory, for commands that resolve thousands of rows."""

    def __init__(
        self,
        printings: list[Printing],
        keys: list[str],
        translated: dict[str, list[Printing]] | None = None,
    ) -> None:
        """`printings` in catalogue order, and their folded names; `translated`, folded
        names in other languages and the printings they name."""
        self.printings = printings
        self.by_key: dict[str, list[Printing]] = {}
        for printing, key in zip(printings, keys, strict=True):
            found = self.by_key.get(key)
            if found is None:
                self.by_key[key] = [printing]
            else:
                found.append(printing)
        self.translated = translated or {}
        self._by_number: dict[tuple[int, int], list[Printing]] | None = None

    @classmethod
    def load(cls, conn: Connection) -> Catalogue:
        cursor = conn.cursor()
        cursor.row_factory = None  # plain tuples: twice as fast as sqlite3.Row on 100k rows
        rows = cursor.execute(
            f"SELECT id, game, series, rarity, number, name, name_key "
            f"FROM {tables.CARD_TABLE}{_ORDER_SQL}"
        )
        printings, keys = [], []
        for row in rows:
            printings.append(_make_printing(row[:6]))
            keys.append(row[6])
        by_id = {printing.id: printing for printing in printings}
        translated: dict[str, list[Printing]] = {}
        for card_id, key in cursor.execute(
            f"SELECT DISTINCT card_id, name_key FROM {tables.CARD_NAME_TABLE} ORDER BY card_id"
        ):
            translated.setdefault(key, []).append(by_id[card_id])
        for found in translated.values():
            found.sort(key=_catalogue_order)
        return cls(printings, keys, translated)

    def printings_named(self, key: str) -> list[Printing]:
        """The printings whose folded name is `key`; failing that, whose name in another
        language is (Hochfliegender Adler is Soaring Eagle)."""
        return self.by_key.get(key) or self.translated.get(key, [])

    def numbered(self, series: int, number: int) -> list[Printing]:
        if self._by_number is None:
            self._by_number = {}
            for printings in self.by_key.values():
                for p in printings:
                    self._by_number.setdefault((p.series, p.number), []).append(p)
            for found in self._by_number.values():
                found.sort(key=lambda p: p.game)  # as the database orders them
        return self._by_number.get((series, number), [])


class NameResolver:
    """Codes and names to printings for one command, by the one policy, remembering answers."""

    def __init__(
        self,
        conn: Connection,
        game: str | None = None,
        catalogue: Catalogue | None = None,
    ) -> None:
        """`game` is preferred where a name or code is in several games (else the game the
        connection's user chose, if any); `catalogue` is the whole catalogue when the caller
        has read it already (an import reads it meanwhile)."""
        self.conn = conn
        self.game = game if game is not None else getattr(conn, "game", None)
        self.catalogue = catalogue
        self.only = False  # only `game`'s cards (a code given with its game's prefix)
        self._by_key: dict[str, list[Printing]] = {}
        self._suggested: dict[str, list[str]] = {}
        self._close: CloseNames | None = None

    def load(self) -> None:
        """Read the whole catalogue now: cheaper than a query a name past a thousand names."""
        if self.catalogue is None:
            self.catalogue = Catalogue.load(self.conn)

    def named(self, name: str) -> list[Printing]:
        """The printings whose folded name is the name's (the preferred game's, if any)."""
        return _in_game(self._printings(name_key(name)), self.game)

    def _printings(self, key: str) -> list[Printing]:
        if self.catalogue is not None:
            return self.catalogue.printings_named(key)
        found = self._by_key.get(key)
        if found is None:
            if len(self._by_key) >= BULK_LOOKUPS:
                self.load()
                return self._printings(key)
            found = self._query(f"WHERE name_key = ?{_ORDER_SQL}", (key,)) or self._query(
                f"WHERE id IN (SELECT card_id FROM {tables.CARD_NAME_TABLE} WHERE name_key = ?)"
                f"{_ORDER_SQL}",
                (key,),
            )
            self._by_key[key] = found
        return found

    def numbered(self, series: int, number: int) -> list[Printing]:
        """Every printing numbered `series`/`number`, whatever its rarity letter."""
        if self.catalogue is not None:
            return self.catalogue.numbered(series, number)
        return self._query(f"WHERE series = ? AND number = ?{_ORDER_SQL}", (series, number))

    def _query(self, where: str, params: tuple[Any, ...]) -> list[Printing]:
        cursor = self.conn.cursor()
        cursor.row_factory = None  # plain tuples: a deck check looks a name up a line
        return [_make_printing(row) for row in cursor.execute(f"{_PRINTINGS_SQL} {where}", params)]

    def suggestions(self, text: str) -> list[str]:
        """The closest names as 'Name (codes)', best first: what every refusal offers."""
        text = " ".join(text.split())
        known = self._suggested.get(text)
        if known is None:
            known = self._suggested[text] = [
                f"{name} ({', '.join(str(p.code) for p in self._printings(name_key(name)))})"
                for name in self._close_names().search(text)
            ]
        return known

    def close_names(self, text: str) -> list[str]:
        """The closest names alone, best first: for a link that searches one of them."""
        return list(self._close_names().search(" ".join(text.split())))

    def _close_names(self) -> CloseNames:
        """Read once, on the first name that fails; a command whose names all match exactly
        (most of them) never imports the search. The names are in catalogue order either way."""
        if self._close is None:
            from cardbase.catalog.closenames import CloseNames

            if self.catalogue is not None:
                self._close = CloseNames([p.name for p in self.catalogue.printings])
            else:
                self._close = CloseNames.load(self.conn)
        return self._close

    def match(self, name: str) -> NameMatch:
        printings = self.named(name)
        return NameMatch(printings, [] if printings else self.suggestions(name))

    def find(self, text: str, *, any_printing: bool = False) -> Printing:
        """The printing a code or a name means. `any_printing` takes a name's first printing
        where the caller counts by name (a deck); otherwise several printings are refused."""
        shown = " ".join(text.split())
        if not shown:
            raise NotFoundError("empty card name or code")
        resolver, code_text = self.in_game(shown)
        if resolver is not self and looks_like_code(code_text):
            return resolver.by_code(resolver.read_code(code_text))
        if looks_like_code(shown):
            try:
                code = self.read_code(shown)
            except CodeError:
                # '1 X 5' is a bad code, but could also be a card's name; names get the last word.
                if not self.named(shown):
                    raise
            else:
                return self.by_code(code)
        printings = self.named(shown)
        if len(printings) == 1 or (printings and any_printing):
            return printings[0]
        if printings:
            codes = ", ".join(str(p.code) for p in printings)
            raise AmbiguousError(
                f"'{printings[0].name}' is printed as {codes}", "Name one by its code"
            )
        raise no_card_named(shown, self.suggestions(shown))

    def by_code(self, code: CollectorCode) -> Printing:
        """The printing with `code`: series, rarity letter and number (in the real numbering
        `1 U 5` and `1 P 5` are two cards). A wrong letter is refused, naming the card or
        cards that series and number do have."""
        printings = _in_game(self.numbered(code.series, code.number), self.game, self.only)
        if not printings:
            only = self.game if self.only else None
            raise no_card_with_code(code, only, only is None or self._has_cards(only))
        exact = [p for p in printings if p.rarity == code.rarity]
        if not exact:
            raise wrong_letter(code, printings)
        if len(exact) > 1:
            # Codes repeat across games: never one picked silently, the prefix is the answer.
            cards = ", ".join(f"{p.name} ({GAMES[p.game].title if p.game in GAMES else p.game})"
                              for p in exact)  # fmt: skip
            raise AmbiguousError(f"{code} is a card in several games: {cards}",
                                 several_games_remedy(code, [p.game for p in exact]))  # fmt: skip
        return exact[0]

    def _has_cards(self, game: str) -> bool:
        """Whether any of `game`'s cards are in the catalogue (a game's may not be loaded)."""
        if self.catalogue is not None:
            return any(p.game == game for p in self.catalogue.printings)
        sql = f"SELECT 1 FROM {tables.CARD_TABLE} WHERE game = ? LIMIT 1"
        return self.conn.execute(sql, (game,)).fetchone() is not None

    def read_code(self, text: str) -> CollectorCode:
        """A code as typed, read and checked against its game's pattern (`game_code`): the
        game its prefix named (this resolver's, then), else any game's it fits."""
        code = parse_code(text)
        if self.only and self.game:
            return game_code(text, code, self.game)
        return in_some_game(text, code, self.game)

    def in_game(self, text: str) -> tuple[NameResolver, str]:
        """A code's game prefix (``wh:1 C 41``) read off: the resolver of that game only and
        the code; this resolver and the text as they are when there is none."""
        prefix, colon, rest = text.partition(":")
        game = game_of_prefix(prefix.strip()) if colon else None
        if game is None:
            return self, text
        strict = NameResolver(self.conn, game, self.catalogue)
        strict.only = True
        return strict, rest.strip()

    def card(self, text: str, *, any_printing: bool = False) -> Card:
        return self.fetch(self.find(text, any_printing=any_printing))

    def fetch(self, printing: Printing) -> Card:
        return cards_by_id(self.conn, [printing.id])[printing.id]

    def line(
        self, card: str, whole: str, copies: int, *, any_printing: bool = False
    ) -> tuple[Card, int]:
        """The card a list line names and its count (see `line_printing`)."""
        printing, copies = self.line_printing(card, whole, copies, any_printing=any_printing)
        return self.fetch(printing), copies

    def line_printing(
        self, card: str, whole: str, copies: int, *, any_printing: bool = False
    ) -> tuple[Printing, int]:
        """The printing a list line names and its count.

        A leading number is taken as a count ("3 Chugawug Cook"), unless that leaves no card
        and the whole line names one exactly ("2 Headed Troll"), which is then one copy.
        """
        try:
            return self.find(card, any_printing=any_printing), copies
        except NotFoundError:
            named = self.named(whole) if whole != card else []
            if len(named) == 1 or (named and any_printing):
                return named[0], 1
            raise


def several_games_remedy(code: CollectorCode, games: list[str]) -> Remedy:
    """The way past a code several games print, in each face's words: the prefix, or the
    game chosen once (the command line's --game or the config file's `game`; a server's
    `serve --game`) so that every bare code means that game's card."""
    prefixed = " or ".join(f"{game_prefix(game)}:{code}" for game in games)
    first = game_prefix(games[0])
    return Remedy(
        cli=f"Name one with its game: {prefixed}; or choose the game for every code with "
        f"--game (such as --game {first}) or 'cardbase config set game {first}'",
        web=f"Name one with its game: {prefixed}",
    )


def wrong_letter(code: CollectorCode, printings: list[Printing]) -> CodeError:
    """The refusal of a code whose rarity letter no card numbered so has: the one card it
    most likely means, or every card it could."""
    where = f"{code}: card {code.number} of series {code.series}"
    if len(printings) == 1:
        right = printings[0]
        return CodeError(
            f"{where} is {right.code.rarity_name}, not {code.rarity_name}",
            f"Did you mean {right.code} ({right.name})?",
        )
    named = " or ".join(f"{p.code} ({p.name})" for p in printings)
    return CodeError(
        f"{where} is no {code.rarity_name}: that number is {named}", "Name one of them by its code"
    )


@dataclass(frozen=True)
class CodeLookup:
    """A parsed code and the card it names, if any; `note` says when the letter was wrong."""

    code: CollectorCode
    card: Card | None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.code.to_dict(),
            "card": self.card.to_dict() if self.card else None,
            "note": self.note,
        }


def look_up_code(conn: Connection, text: str) -> CodeLookup:
    """Parse `text` as a code and find its card; a missing card is an answer, not an error."""
    resolver = NameResolver(conn)
    code = resolver.read_code(text)
    try:
        return CodeLookup(code, resolver.fetch(resolver.by_code(code)))
    except NotFoundError as exc:
        return CodeLookup(code, None, exc.message)
    except CodeError as exc:
        candidates = _in_game(resolver.numbered(code.series, code.number), None)
        if len(candidates) > 1:
            raise  # several cards have that number: which one is for the user to say
        return CodeLookup(code, resolver.fetch(candidates[0]), str(exc))


class ResolvedEntry(NamedTuple):
    entry: Entry
    card: Card
    copies: int


def resolve_entries(
    conn: Connection, entries: list[Entry], source: str = ""
) -> list[ResolvedEntry]:
    """Resolve every entry, or raise one error that lists every entry that names no card."""
    resolver = NameResolver(conn)
    resolved: list[ResolvedEntry] = []
    problems: list[str] = []
    for entry in entries:
        try:
            card, copies = resolver.line(entry.card, entry.whole, entry.copies)
        except CardbaseError as exc:
            problems.append(f"{source}{exc}")
            continue
        resolved.append(ResolvedEntry(entry, card, copies))
    if problems:
        shown = first_few(problems, SHOWN_PROBLEMS)
        raise CardbaseError(" ".join(_sentence(p) for p in shown) + NOTHING_CHANGED)
    return resolved


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."
