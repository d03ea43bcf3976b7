"""Turning what a person typed (a code or a name) into exactly one card, or a helpful refusal.

Exact matches come first (names folded by `cards.name_key`); only when nothing matches
exactly does rapidfuzz look for close names, and those are offered as suggestions, never
taken silently: a wrong guess would put the wrong card in somebody's collection or deck.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, NamedTuple

from cardbase.catalog import cards as cardlib
from cardbase.catalog.cards import Card
from cardbase.catalog.entries import Entry
from cardbase.codes import CollectorCode, looks_like_code, parse_code
from cardbase.errors import AmbiguousError, CardbaseError, CodeError, NotFoundError
from cardbase.games import DEFAULT_GAME

NOTHING_CHANGED = " Nothing was changed."
SUGGESTION_CUTOFF = 70.0
SUGGESTION_LIMIT = 3
SUGGESTION_SPREAD = 5.0


def suggest_names(conn: sqlite3.Connection, text: str, limit: int = SUGGESTION_LIMIT) -> list[str]:
    """Close card names as 'Name (code)', best first, one entry per distinct name."""
    from rapidfuzz import fuzz, process, utils

    index = cardlib.name_index(conn)
    names = [name for name, _code in index]
    found = process.extract(
        text,
        names,
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=SUGGESTION_CUTOFF,
        limit=limit * 4,
    )
    # Keep only names about as close as the best one: 'Chugawug Cok' should offer
    # Chugawug Cook, not every Chugawug that shares a word with it.
    best = found[0][1] if found else 0.0
    suggestions: dict[str, list[str]] = {}
    for name, score, position in found:
        if score >= best - SUGGESTION_SPREAD:
            suggestions.setdefault(name, []).append(index[position][1])
    return [f"{name} ({', '.join(codes)})" for name, codes in suggestions.items()][:limit]


def did_you_mean(suggestions: list[str]) -> str | None:
    if not suggestions:
        return None
    return f"Did you mean: {', '.join(suggestions)}?"


def _in_game(printings: list[Card], game: str | None) -> list[Card]:
    """Printings of the preferred game, when there are any (a deck checks one game's cards)."""
    if game is None:
        return printings
    return [card for card in printings if card.game == game] or printings


def card_by_code(conn: sqlite3.Connection, code: CollectorCode, game: str | None = None) -> Card:
    """The card printed with `code`; its rarity letter must agree with the catalogue."""
    printings = _in_game(cardlib.cards_with_number(conn, code.series, code.number), game)
    if not printings:
        raise NotFoundError(f"no card has the code {code}")
    exact = [card for card in printings if card.code == code]
    if not exact:
        right = printings[0]
        raise CodeError(
            f"{code}: card {code.number} of series {code.series} is "
            f"{right.code.rarity_name}, not {code.rarity_name}",
            f"Did you mean {right.code} ({right.name})?",
        )
    if len(exact) > 1:
        # Codes repeat across games; without a game to prefer, Free Realms comes first.
        default = [card for card in exact if card.game == DEFAULT_GAME]
        if default:
            return default[0]
        games = ", ".join(card.game for card in exact)
        raise AmbiguousError(f"{code} is a card in several games ({games})")
    return exact[0]


def card_by_name(conn: sqlite3.Connection, name: str, game: str | None = None) -> Card:
    printings = _in_game(cardlib.cards_named(conn, name), game)
    if len(printings) == 1:
        return printings[0]
    if printings:
        raise AmbiguousError(
            f"'{printings[0].name}' is printed as {cardlib.codes_of(printings)}",
            "Name one by its code",
        )
    raise NotFoundError(f"No card named '{name}'", did_you_mean(suggest_names(conn, name)))


def resolve_card(conn: sqlite3.Connection, text: str, game: str | None = None) -> Card:
    """A card from a code or a name, whichever the text is."""
    stripped = text.strip()
    if not stripped:
        raise NotFoundError("empty card name or code")
    if looks_like_code(stripped):
        try:
            code = parse_code(stripped)
        except CodeError:
            # '1 X 5' is a bad code, but could also be a card's name; names get the last word.
            if cardlib.cards_named(conn, stripped):
                return card_by_name(conn, stripped, game)
            raise
        return card_by_code(conn, code, game)
    return card_by_name(conn, stripped, game)


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


def look_up_code(conn: sqlite3.Connection, text: str) -> CodeLookup:
    """Parse `text` as a code and find its card; a missing card is an answer, not an error."""
    code = parse_code(text)
    try:
        return CodeLookup(code, card_by_code(conn, code))
    except NotFoundError as exc:
        return CodeLookup(code, None, exc.message)
    except CodeError as exc:
        right = cardlib.cards_with_number(conn, code.series, code.number)[0]
        return CodeLookup(code, right, str(exc))


def resolve_entry(conn: sqlite3.Connection, entry: Entry) -> tuple[Card, int]:
    """The card an entry names and its count.

    A leading number is taken as a count ("3 Chugawug Cook"), unless that leaves no card and
    the whole line names one ("2 Headed Troll"), which is then one copy.
    """
    try:
        return resolve_card(conn, entry.card), entry.copies
    except NotFoundError:
        if entry.whole == entry.card:
            raise
        try:
            return resolve_card(conn, entry.whole), 1
        except CardbaseError:
            pass
        raise


class ResolvedEntry(NamedTuple):
    entry: Entry
    card: Card
    copies: int


def resolve_entries(
    conn: sqlite3.Connection, entries: list[Entry], source: str = ""
) -> list[ResolvedEntry]:
    """Resolve every entry, or raise one error that lists every entry that names no card."""
    resolved: list[ResolvedEntry] = []
    problems: list[str] = []
    for entry in entries:
        try:
            card, copies = resolve_entry(conn, entry)
        except CardbaseError as exc:
            problems.append(f"{source}{exc}")
            continue
        resolved.append(ResolvedEntry(entry, card, copies))
    if problems:
        more = f" And {len(problems) - 5} more." if len(problems) > 5 else ""
        raise CardbaseError(" ".join(_sentence(p) for p in problems[:5]) + more + NOTHING_CHANGED)
    return resolved


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."
