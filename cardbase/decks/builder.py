"""The Deck Builder Helper: a legal deck of one sphere (plus Heroes) from the cards you own.

It follows the rulebook's advice and a starter deck's shape (the template below is data):
more cheap creatures than expensive ones, a few Heroes, resources to pay for them, some
tricks; within each slot it prefers cards with more gems (they win battles when flipped).
Choices are deterministic: ties break by name and code, so the same collection always gives
the same deck.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from cardbase.catalog.cards import Card, fetch_cards, name_key
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.decks.formats import FORMATS, Placed
from cardbase.decks.lists import MAIN, DeckLine
from cardbase.errors import CardbaseError, Remedy
from cardbase.fields import DEFAULT_FORMAT
from cardbase.games import GAMES
from cardbase.text import plural

LEFT_OUT_SHOWN = 8  # notes on cards the builder left out, that the CLI and the page show
MAX_HEROES = 40  # a deck may be all Heroes: the deck's size is the only bound

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
    shortage: Remedy | None  # set when no legal deck can be made: why, in each face's words
    notes: list[str] = []  # noqa: RUF012 (read-only) every choice made, and what was not filled

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


def _pool(conn: Connection, sphere: str) -> tuple[list[Offer], list[Offer]]:
    """Owned cards of the sphere and owned Heroes, one offer per name (its best printing);
    copies sleeved in built decks are theirs, not the new deck's."""
    owned = fetch_cards(
        conn,
        "c.game = ? AND (c.sphere = ? OR c.hero = TRUE) "
        "AND coalesce(o.nonfoil, 0) + coalesce(o.foil, 0) > 0",
        (FORMAT.game, sphere),
    )
    from cardbase.collection.sleeved import in_decks_by_card

    in_decks = in_decks_by_card(conn, (card.id for card in owned))  # not free: a deck's
    best: dict[str, Card] = {}
    copies: Counter[str] = Counter()
    for card in owned:
        if card.owned <= in_decks.get(card.id, 0):
            continue
        key = name_key(card.name)
        copies[key] += card.owned - in_decks.get(card.id, 0)
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


def spheres() -> tuple[str, ...]:
    """The spheres a deck can be built of: the Helper's game's, as data (`cardbase.games`)."""
    return tuple(GAMES[FORMAT.game].spheres)


def build_deck(conn: Connection, sphere: str, heroes: int | None = None) -> BuildResult:
    """A 40-card deck of `sphere` and Heroes from the collection, with a note for each choice.

    `heroes` is the most Heroes the deck may hold, 0 to `MAX_HEROES`. None is the game
    client's helper: a deck of one sphere, with `DEFAULT_HEROES` Heroes in the template and
    more Heroes only to fill what the sphere's cards cannot.
    """
    if heroes is not None and not 0 <= heroes <= MAX_HEROES:
        raise CardbaseError(f"{heroes} Heroes: choose 0 to {MAX_HEROES}")
    sphere = sphere.strip().title()
    offers, hero_offers = _pool(conn, sphere)
    owned_heroes = sum(o.available for o in hero_offers)
    usable_heroes = owned_heroes if heroes is None else min(heroes, owned_heroes)
    own = sum(o.available for o in offers)
    if not own:  # Heroes have no sphere: 40 of them are no deck of this one
        said = (
            f"no {sphere} cards owned; a {sphere} deck needs its sphere's cards, and Heroes "
            f"({owned_heroes} owned) only go beside them"
        )
        held = _sleeved_note(conn, sphere)
        return BuildResult(sphere, [], [], Remedy(said + held, said + held))
    if own + usable_heroes < DECK_SIZE:
        short = _shortage(sphere, own, usable_heroes, owned_heroes, heroes)
        held = _sleeved_note(conn, sphere)
        return BuildResult(sphere, [], [], Remedy(short.cli + held, short.web + held))
    picker, notes = _Picker(), []
    hero_slots = min(DEFAULT_HEROES if heroes is None else heroes, usable_heroes)
    # One copy of each Hero before any second copy: only one of a name can be in play.
    taken = picker.take(hero_offers, hero_slots, per_name=1)
    taken += picker.take(hero_offers, hero_slots - taken)
    limit = "no --heroes limit" if heroes is None else f"--heroes {heroes}"
    notes.append(f"Heroes: {taken} ({limit}; {owned_heroes} owned, up to {PLAYSET_NOTE})")
    notes += _fill_template(picker, offers, TEMPLATE["Creature"] - taken)
    gaps = DECK_SIZE - picker.count
    if gaps > 0:
        notes += _fill_gaps(picker, offers, hero_offers, gaps, usable_heroes, limit)
    left_out = [
        _why_left_out(o.card) for o in sorted(offers, key=_rank) if not picker.taken[o.card.name]
    ]
    return BuildResult(sphere, _merge(picker.choices), left_out, None, notes)


PLAYSET_NOTE = f"{FORMAT.copy_limit} of a name"


def _sleeved_note(conn: Connection, sphere: str) -> str:
    """The built decks that hold the sphere's cards and Heroes: the copies a shortfall is
    missing may be there."""
    rows = conn.execute(
        f"SELECT d.name, sum(s.copies) FROM {tables.DECK_SLEEVE_TABLE} AS s "
        f"JOIN {tables.DECK_TABLE} AS d ON d.id = s.deck_id "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = s.card_id "
        f"WHERE d.collector_id = (SELECT id FROM {tables.MY_COLLECTOR}) AND c.game = ? "
        "AND (c.sphere = ? OR c.hero = TRUE) GROUP BY d.name ORDER BY d.name",
        (FORMAT.game, sphere),
    ).fetchall()
    if not rows:
        return ""
    held = ", ".join(f"{int(n)} in '{name}'" for name, n in rows)
    return f" (not counting copies sleeved in built decks: {held})"


def _shortage(sphere: str, own: int, usable: int, owned: int, heroes: int | None) -> Remedy:
    """Why no deck can be made, and what would make one: the command line's limit is
    --heroes, the page's its Heroes box."""
    needed = DECK_SIZE - own - usable
    if heroes is None or usable == owned:
        said = (
            f"only {plural(own + usable, sphere + ' card')} and Heroes owned (up to {PLAYSET_NOTE} "
            f"count); {needed} more needed"
        )
        return Remedy(said, said)
    cards = f"only {plural(own, sphere + ' card')} owned (up to {PLAYSET_NOTE} count)"
    more = own + owned >= DECK_SIZE
    return Remedy(
        f"{cards} and --heroes {heroes} allows {usable} Heroes; {needed} more needed"
        + (f"; --heroes {heroes + needed} would fill it" if more else ""),
        f"{cards} and Heroes {heroes} allows {usable} of them; {needed} more needed"
        + (f"; Heroes {heroes + needed} would fill it" if more else ""),
    )


def _fill_template(picker: _Picker, offers: list[Offer], creature_slots: int) -> list[str]:
    """The starter deck's shape, each part filled best first; a note for each part."""
    notes = []
    creatures = [o for o in offers if o.card.type == "Creature"]
    share_so_far = 0.0
    for band, share in CURVE:
        # Rounded cumulatively, so the bands' slots add up to the creature slots exactly.
        before = round(creature_slots * share_so_far)
        share_so_far += share
        slots = round(creature_slots * share_so_far) - before
        if not slots:
            continue
        filled = picker.take([o for o in creatures if (o.card.cost or 0) in band], slots)
        costs = f"cost {band.start}" + (f"-{band.stop - 1}" if band.stop > band.start + 1 else "")
        costs = costs if band.stop < 100 else f"cost {band.start}+"
        notes.append(f"Creatures of {costs}: {filled} of {slots} slots" + _short(filled, slots))
    for card_type in ("Resource", "Trick"):
        slots = TEMPLATE[card_type]
        filled = picker.take([o for o in offers if o.card.type == card_type], slots)
        notes.append(f"{card_type}s: {filled} of {slots} slots" + _short(filled, slots))
    return notes


def _short(filled: int, slots: int) -> str:
    return "" if filled >= slots else f" (not enough owned; {slots - filled} left to fill)"


def _fill_gaps(
    picker: _Picker,
    offers: list[Offer],
    hero_offers: list[Offer],
    gaps: int,
    usable_heroes: int,
    limit: str,
) -> list[str]:
    """What the template left open: the sphere's own cards first (cheapest creatures, then
    the rest), Heroes only after them and never past the limit."""
    sphere_first = sorted(offers, key=lambda o: (o.card.type != "Creature", o.card.cost or 0))
    from_sphere = picker.take(sphere_first, gaps)
    notes = [f"{gaps} slots left open by the template: {from_sphere} filled with the sphere's "
             "cards, cheapest creatures first"]  # fmt: skip
    left = gaps - from_sphere
    if left:
        heroes_now = sum(c.copies for c in picker.choices if c.card.hero)
        room = usable_heroes - heroes_now
        from_heroes = picker.take(hero_offers, min(left, room))
        notes.append(f"{from_heroes} filled with Heroes ({limit})")
    return notes


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
            f"{card.label()}: {plural(len(card.gems), 'gem')}; the cost-{card.cost} creature slots "
            "went to cards with more gems, or cheaper or stronger ones"
        )
    kind = card.type.lower()
    return (
        f"{card.label()}: {plural(len(card.gems), 'gem')}; the {kind} slots went to cards with more"
    )
