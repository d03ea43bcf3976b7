"""The Deck Builder Helper: a legal deck of one sphere (plus Heroes) from the cards you own.

It follows the rulebook's advice and a starter deck's shape (the template below is data):
more cheap creatures than expensive ones, a few Heroes, resources to pay for them, some
tricks; within each slot it prefers cards with more gems (they win battles when flipped).
Choices are deterministic: ties break by name and code, so the same collection always gives
the same deck.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from typing import NamedTuple

from cardbase.catalog.cards import Card, fetch_cards, name_key
from cardbase.decks.formats import FORMATS, Placed
from cardbase.decks.lists import MAIN, DeckLine
from cardbase.errors import CardbaseError
from cardbase.fields import DEFAULT_FORMAT
from cardbase.games import GAMES

FORMAT = FORMATS[DEFAULT_FORMAT]
DECK_SIZE = 40
# A starter deck's shape: how many of each type (Heroes count among the creatures).
TEMPLATE: dict[str, int] = {"Creature": 22, "Resource": 8, "Trick": 10}
# Share of the non-Hero creature slots for each coin-cost band: cheap ones first.
CURVE: tuple[tuple[range, float], ...] = (
    (range(0, 3), 0.45),
    (range(3, 4), 0.25),
    (range(4, 5), 0.18),
    (range(5, 100), 0.12),
)
DEFAULT_HEROES = 2


class Choice(NamedTuple):
    card: Card
    copies: int


class Offer(NamedTuple):
    """A name the collection has, as its best printing, and how many copies a deck may use."""

    card: Card
    available: int


class BuildResult(NamedTuple):
    sphere: str
    choices: list[Choice]
    left_out: list[str]  # why notable owned cards are not in the deck
    shortage: str | None  # set when no legal deck can be made

    @property
    def cards(self) -> int:
        return sum(choice.copies for choice in self.choices)

    def placed(self) -> list[Placed]:
        return [
            Placed(
                DeckLine(
                    n, MAIN, c.copies, str(c.card.code), c.card.name, f"{c.copies} {c.card.name}"
                ),
                c.card,
            )
            for n, c in enumerate(self.choices, start=1)
        ]


def _pool(conn: sqlite3.Connection, sphere: str) -> tuple[list[Offer], list[Offer]]:
    """Owned cards of the sphere and owned Heroes, one offer per name (its best printing)."""
    owned = fetch_cards(
        conn,
        "c.game = ? AND (c.sphere = ? OR c.hero = 1) "
        "AND coalesce(o.nonfoil, 0) + coalesce(o.foil, 0) > 0",
        (FORMAT.game, sphere),
    )
    best: dict[str, Card] = {}
    copies: Counter[str] = Counter()
    for card in owned:
        key = name_key(card.name)
        copies[key] += card.owned
        known = best.get(key)
        if known is None or (len(card.gems), -card.code.series) > (
            len(known.gems),
            -known.code.series,
        ):
            best[key] = card
    offers = [Offer(card, min(copies[key], FORMAT.copy_limit)) for key, card in best.items()]
    return [o for o in offers if not o.card.hero], [o for o in offers if o.card.hero]


def _rank(offer: Offer) -> tuple[int, int, int, str, str]:
    """Better first: more gems, then cheaper, then stronger; then by name for determinism."""
    card = offer.card
    power = (card.attack or 0) + (card.defense or 0)
    return (-len(card.gems), card.cost or 0, -power, card.name, str(card.code))


class _Picker:
    """Fills slots from offers, best first, never past what the collection holds."""

    def __init__(self) -> None:
        self.taken: Counter[str] = Counter()
        self.choices: list[Choice] = []

    @property
    def count(self) -> int:
        return sum(choice.copies for choice in self.choices)

    def take(self, offers: list[Offer], slots: int, per_name: int | None = None) -> int:
        filled = 0
        for offer in sorted(offers, key=_rank):
            limit = offer.available if per_name is None else min(per_name, offer.available)
            room = limit - self.taken[offer.card.name]
            if filled >= slots or room <= 0:
                continue
            copies = min(room, slots - filled)
            self.taken[offer.card.name] += copies
            self.choices.append(Choice(offer.card, copies))
            filled += copies
        return filled


def choose_sphere(text: str) -> str:
    """The sphere a person typed (any case, or its first letters: 'ch' is Chaos)."""
    spheres = GAMES[FORMAT.game].spheres
    wanted = text.strip().lower()
    chosen = [sphere for sphere in spheres if sphere.lower().startswith(wanted)]
    if not wanted or len(chosen) != 1:
        raise CardbaseError(f"--sphere {text}: use one of {', '.join(s.lower() for s in spheres)}")
    return chosen[0]


def build_deck(conn: sqlite3.Connection, sphere: str, heroes: int = DEFAULT_HEROES) -> BuildResult:
    sphere = sphere.strip().title()
    offers, hero_offers = _pool(conn, sphere)
    available = sum(o.available for o in offers) + sum(o.available for o in hero_offers)
    if available < DECK_SIZE:
        return BuildResult(
            sphere,
            [],
            [],
            (
                f"only {available} {sphere} cards and Heroes owned (up to {FORMAT.copy_limit} of a "
                f"name count); {DECK_SIZE - available} more needed"
            ),
        )
    picker = _Picker()
    # One copy of each Hero before any second copy: only one of a name can be in play.
    hero_slots = min(heroes, sum(o.available for o in hero_offers))
    picker.take(hero_offers, hero_slots, per_name=1)
    picker.take(hero_offers, hero_slots - picker.count)
    creatures = [o for o in offers if o.card.type == "Creature"]
    creature_slots = TEMPLATE["Creature"] - picker.count
    for band, share in CURVE:
        picker.take(
            [o for o in creatures if (o.card.cost or 0) in band], round(creature_slots * share)
        )
    for card_type in ("Resource", "Trick"):
        picker.take([o for o in offers if o.card.type == card_type], TEMPLATE[card_type])
    # Whatever the template could not fill (or rounding left): cheapest creatures first.
    rest = sorted(offers + hero_offers, key=lambda o: (o.card.type != "Creature", o.card.cost or 0))
    picker.take(rest, DECK_SIZE - picker.count)
    left_out = [
        _why_left_out(o.card) for o in sorted(offers, key=_rank) if not picker.taken[o.card.name]
    ]
    return BuildResult(sphere, _merge(picker.choices), left_out, None)


def _merge(choices: list[Choice]) -> list[Choice]:
    merged: dict[int, Choice] = {}
    for choice in choices:
        if choice.card.id in merged:
            merged[choice.card.id] = Choice(
                choice.card, merged[choice.card.id].copies + choice.copies
            )
        else:
            merged[choice.card.id] = choice
    order = {"Creature": 0, "Resource": 1, "Trick": 2}
    return sorted(
        merged.values(),
        key=lambda c: (not c.card.hero, order.get(c.card.type, 3), c.card.cost or 0, c.card.name),
    )


def _why_left_out(card: Card) -> str:
    if card.type == "Creature" and (card.cost or 0) >= 5:
        return f"{card.label()}: cost {card.cost}, and the curve wants few expensive creatures"
    if card.type == "Creature":
        return (
            f"{card.label()}: {len(card.gems)} gem(s); the cost-{card.cost} creature slots "
            "went to cards with more gems, or cheaper or stronger ones"
        )
    kind = card.type.lower()
    return f"{card.label()}: {len(card.gems)} gem(s); the {kind} slots went to cards with more"
