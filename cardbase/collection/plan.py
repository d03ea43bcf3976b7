"""From requests to changes, with no database: which holdings a request means, what their
counts become, and what is refused (too few copies, or copies in several holdings when the
request does not say which).

Requests apply in order to a working copy of the collector's holdings, so `add X; remove X`
in one batch nets out, and a refusal names exactly what is there.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardbase.catalog.cards import CardLike
from cardbase.catalog.names import NOTHING_CHANGED
from cardbase.collection.attributes import (
    DEFAULT_CONDITION,
    DEFAULT_LANGUAGE,
    NO_LOCATION,
    condition_rank,
    has_tags,
)
from cardbase.collection.changes import Change, Holding, Mode, Request, Selector
from cardbase.errors import CardbaseError, Remedy, first_few
from cardbase.fields import FINISHES, FOIL, NONFOIL

MAX_PROBLEMS_SHOWN = 10


class Defaults:
    """What an added copy is when the request does not say: from the config file."""

    def __init__(self, condition: str | None = None, language: str | None = None):
        """None: the game's default (Near Mint, English)."""
        self.condition = condition or DEFAULT_CONDITION
        self.language = language or DEFAULT_LANGUAGE

    def holding(self, card_id: int, finish: str, selector: Selector) -> Holding:
        return Holding(
            card_id,
            finish,
            selector.condition or self.condition,
            selector.language or self.language,
            NO_LOCATION if selector.location is None else selector.location,
            selector.tags or "",
        )


def matches(holding: Holding, selector: Selector) -> bool:
    return (
        (selector.condition is None or holding.condition == selector.condition)
        and (selector.language is None or holding.language == selector.language)
        and (
            selector.location is None or holding.location.casefold() == selector.location.casefold()
        )
        and (selector.tags is None or has_tags(holding.tags, selector.tags))
    )


def merged(requests: Iterable[Request]) -> list[Request]:
    """Requests for the same copies summed, in first-seen order: a sheet that lists a card
    twice means both rows, whatever their notes (the last note given wins, as row by row)."""
    found: dict[tuple[object, ...], Request] = {}
    for request in requests:
        key = (request.card.id, request.finish, request.selector)
        seen = found.get(key)
        found[key] = (
            seen._replace(
                copies=seen.copies + request.copies,
                note=seen.note if request.note is None else request.note,
            )
            if seen
            else request
        )
    return list(found.values())


class Working:
    """The collector's holdings as the requests change them."""

    def __init__(self, counts: dict[Holding, int], notes: dict[Holding, str]) -> None:
        self.before = counts
        self.counts = dict(counts)
        self.notes = dict(notes)
        self.new_notes: dict[Holding, str] = {}
        self._by_card: dict[tuple[int, str], list[Holding]] = {}
        for holding in counts:
            self._by_card.setdefault((holding.card_id, holding.finish), []).append(holding)

    def held(self, card_id: int, finish: str) -> list[Holding]:
        """The holdings of one card and finish that still have copies."""
        return [h for h in self._by_card.get((card_id, finish), []) if self.counts.get(h)]

    def put(self, holding: Holding, copies: int, note: str | None = None) -> None:
        if holding not in self.counts and holding not in self.before:
            self._by_card.setdefault((holding.card_id, holding.finish), []).append(holding)
        self.counts[holding] = copies
        if note is not None and copies:
            self.new_notes[holding] = note

    def changes(self, cards: dict[int, CardLike]) -> list[Change]:
        found = []
        for holding in sorted(self.counts):
            old, new = self.before.get(holding, 0), self.counts[holding]
            note = self.notes.get(holding, "")
            after = self.new_notes.get(holding, note) if new else ""
            if old == new and after == note:
                continue
            before = note if (after != note and (note or old)) else None
            found.append(Change(cards[holding.card_id], holding, old, new, after, before))
        return found


def apply(working: Working, mode: Mode, requests: list[Request], defaults: Defaults) -> list[str]:
    """Apply `requests` to `working`; return what was refused, one message each."""
    problems: list[str] = []
    wanted: set[Holding] = set()
    # Adds and replaces sum repeats by themselves; a set must see a card's rows together.
    for request in merged(requests) if mode is Mode.SET else requests:
        if mode is Mode.ADD or mode is Mode.REPLACE:
            holding = defaults.holding(request.card.id, request.finish, request.selector)
            start = working.counts.get(holding, 0) if mode is Mode.ADD or holding in wanted else 0
            working.put(holding, start + request.copies, request.note)
            wanted.add(holding)
        elif mode is Mode.REMOVE:
            problems += _remove(working, request)
        else:
            problems += _set(working, request, defaults)
    if mode is Mode.REPLACE:
        for holding in list(working.counts):
            if holding not in wanted:
                working.put(holding, 0)
    return problems


def _remove(working: Working, request: Request) -> list[str]:
    held = working.held(request.card.id, request.finish)
    chosen = [h for h in held if matches(h, request.selector)]
    total = sum(working.counts[h] for h in chosen)
    if request.copies > total:
        other = FOIL if request.finish == NONFOIL else NONFOIL
        return [shortfall(request, held, working.counts, working.held(request.card.id, other))]
    if request.copies == total:
        for holding in chosen:
            working.put(holding, 0)
        return []
    if len(chosen) > 1:
        return [ambiguous(request, chosen, working.counts, "remove")]
    working.put(chosen[0], total - request.copies, request.note)
    return []


def _set(working: Working, request: Request, defaults: Defaults) -> list[str]:
    held = working.held(request.card.id, request.finish)
    chosen = [h for h in held if matches(h, request.selector)]
    total = sum(working.counts[h] for h in chosen)
    if not chosen:
        if request.copies:
            holding = defaults.holding(request.card.id, request.finish, request.selector)
            working.put(holding, request.copies, request.note)
        return []
    if request.copies == 0 or len(chosen) == 1:
        for holding in chosen:
            working.put(holding, request.copies, request.note)
        return []
    if request.copies == total:
        return []
    return [ambiguous(request, chosen, working.counts, "set")]


def _what(request: Request) -> str:
    wanted = request.selector.describe()
    return f"{FINISHES[request.finish]}{' ' + wanted if wanted else ''}"


def _listing(holdings: list[Holding], counts: dict[Holding, int]) -> str:
    """'2 foil, 1 foil LP': best condition first, as a collector sorts a binder page."""
    ordered = sorted(holdings, key=lambda h: (condition_rank(h.condition), h[3:]))
    return ", ".join(f"{counts[h]} {h.describe()}" for h in ordered)


def shortfall(
    request: Request, held: list[Holding], counts: dict[Holding, int], other: list[Holding]
) -> str:
    """'cannot remove 3 foil LP Cook (1 C 14): you own 2 foil, 0 foil LP', and the other
    finish's copies when there are none of this one."""
    owned = _listing(held, counts)
    none = f"0 {_what(request)}"
    matched = any(matches(h, request.selector) for h in held)
    there = owned if matched else f"{owned}, {none}" if owned else none
    if not owned and other:
        there += f" ({_listing(other, counts)})"
    return (
        f"cannot remove {request.copies} {_what(request)} {request.card.label()}: you own {there}"
    )


class Ambiguous(str):
    """A refusal that more than one kind of copy could answer: the person says which."""


SAY_WHICH = Remedy(
    "Say which with --condition, --language, --location or --tag.",
    "Choose them by their row in the list of your copies by holding.",
)


def ambiguous(
    request: Request, chosen: list[Holding], counts: dict[Holding, int], verb: str
) -> str:
    return Ambiguous(
        f"cannot {verb} {request.copies} {_what(request)} {request.card.label()}: your copies "
        f"are {_listing(chosen, counts)}"
    )


def refused(problems: list[str]) -> CardbaseError:
    """The error for refused requests, all of them at once; nothing was changed."""
    said = "; ".join(first_few(problems, MAX_PROBLEMS_SHOWN))
    if any(isinstance(problem, Ambiguous) for problem in problems):
        return CardbaseError(said, Remedy(*(f"{w}{NOTHING_CHANGED}" for w in SAY_WHICH)))
    return CardbaseError(said + "." + NOTHING_CHANGED)
