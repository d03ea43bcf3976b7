"""The client's records as printed cards: which records are cards, and what each says.

A record is a deck card when its type is Creature, Item (a Resource) or Trick and it has a
set and a number. The data has a few anomalies, each settled here (the list of them that was
the README's catalogue section is on no docs page since the docs moved to docs/):
- a rebalanced later version of a card (property 300 names the card it varies) is not a
  printing of its own: the card keeps the facts of the record it varies;
- three Heroes say set 1 but sit in set 2's block of archetype ids, and their set-1 codes
  are other cards' (`1 P 39`, `44`, `49`), while set 2's are free: they are set 2's;
- trait and artist ids without a name in the client's tables are shown as ``#<id>``;
- a card without cost, attack or defense takes them from its template (property 569).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from cardbase.client import vocabulary as words
from cardbase.client.archetypes import STORAGE_FILE, Archetype, ClientError, Value, read_archetypes
from cardbase.client.folder import ClientFolder
from cardbase.client.markup import plain_text
from cardbase.errors import shorten

NAME, SUPERTYPES, TYPE, SERIES, NUMBER, RARITY = 1, 2, 28, 73, 74, 76
BASE, VARIANT_OF, COST, ATTACK, DEFENSE = 569, 300, 576, 91316, 91317
SPHERE, TRAITS, ARTIST, GAME_TEXT, LORE = 91309, 91318, 91341, 630, 643
MAX_TEMPLATE_DEPTH = 8  # templates of templates; the real chain is two deep


class ClientCard(NamedTuple):
    """One printed card's facts, as the catalogue stores them."""

    archetype: int
    series: int
    rarity: str
    number: int
    name: str
    type: str
    hero: bool
    sphere: str | None
    traits: tuple[str, ...]
    cost: int | None
    attack: int | None
    defense: int | None
    gems: str
    artist: str
    # The record's own game text and lore, in English, as plain text: the game's prose,
    # which cardbase writes into a user's database, never into the repository.
    text: str = ""
    lore: str = ""

    @property
    def code(self) -> str:
        return f"{self.series} {self.rarity} {self.number}"


class ClientCatalogue(NamedTuple):
    cards: list[ClientCard]
    variants: dict[int, int]  # a rebalanced record -> the card's record
    moved: list[tuple[ClientCard, int]]  # cards given another series, with the data's


def read_client_cards(folder: ClientFolder) -> ClientCatalogue:
    """Every printed card of the client folder's archetype database."""
    return client_cards(read_archetypes(folder.archetypes), str(folder.archetypes / STORAGE_FILE))


def client_cards(records: dict[int, Archetype], where: str = STORAGE_FILE) -> ClientCatalogue:
    """Every printed card in `records`, in catalogue order (series, number, rarity); `where`
    names the file they came from in any error."""
    try:
        return _catalogue(records)
    except ClientError as exc:
        raise ClientError(f"{where}, {exc.message}") from None


def _catalogue(records: dict[int, Archetype]) -> ClientCatalogue:
    variants: dict[int, int] = {}
    cards: list[ClientCard] = []
    for record in records.values():
        if not _is_card(record):
            continue
        base = record.properties.get(VARIANT_OF)
        if base is not None:
            variants[record.id] = _integer(record, VARIANT_OF, base)
            continue
        cards.append(_card(record, records))
    if not cards:
        raise ClientError("no record is a card: not the Free Realms card database")
    for variant, base in variants.items():
        if base == variant or base not in records or not _is_card(records[base]):
            raise ClientError(f"record {variant}: a variant of {base}, which is not a card")
    cards, moved = _seat_misplaced(cards)
    cards.sort(key=lambda card: (card.series, card.number, card.rarity))
    _check_unique(cards)
    return ClientCatalogue(cards, variants, moved)


def _is_card(record: Archetype) -> bool:
    properties = record.properties
    if SERIES not in properties or NUMBER not in properties:
        return False
    card_type = properties.get(TYPE)
    if card_type is not None and not isinstance(card_type, int):
        raise ClientError(
            f"record {record.id}: property {TYPE} is {_quoted(card_type)}, not a type"
        )
    return card_type in words.CARD_TYPES


def _integer(record: Archetype, key: int, value: Value) -> int:
    """A property that must be a whole number; the variant link is one written as text."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    raise ClientError(f"record {record.id}: property {key} is {_quoted(value)}, not a number")


def _quoted(value: object) -> str:
    """A value from the file as one short line of a message."""
    return shorten(repr(value), 40)


def _inherited(record: Archetype, records: dict[int, Archetype], key: int) -> Value:
    """A property from the record or the nearest template that has it."""
    current: Archetype | None = record
    for _ in range(MAX_TEMPLATE_DEPTH):
        if current is None:
            return None
        if key in current.properties:
            return current.properties[key]
        base = current.properties.get(BASE)
        current = records.get(base) if isinstance(base, int) else None
    raise ClientError(f"record {record.id}: its templates go more than {MAX_TEMPLATE_DEPTH} deep")


def _card(record: Archetype, records: dict[int, Archetype]) -> ClientCard:
    props = record.properties
    card_type = words.CARD_TYPES[props[TYPE]]  # type: ignore[index]
    rarity_id = props.get(RARITY)
    rarity = words.RARITIES.get(rarity_id) if isinstance(rarity_id, int) else None
    if rarity is None:
        raise ClientError(f"record {record.id}: rarity id {_quoted(rarity_id)} is not a rarity")
    name = props.get(NAME)
    if not isinstance(name, str) or not name.strip():
        raise ClientError(f"record {record.id}: the card has no name")
    supertypes = props.get(SUPERTYPES)
    hero = isinstance(supertypes, list) and words.HERO_SUPERTYPE in supertypes
    fighting = card_type == "Creature"
    return ClientCard(
        archetype=record.id,
        series=_integer(record, SERIES, props[SERIES]),
        rarity=rarity,
        number=_integer(record, NUMBER, props[NUMBER]),
        name=" ".join(name.split()),
        type=card_type,
        hero=hero,
        sphere=None if hero else _named(words.SPHERES, props.get(SPHERE), "sphere", record),
        traits=tuple(_known(words.TRAITS, trait) for trait in _ids(props.get(TRAITS))),
        cost=_stat(record, records, COST),
        attack=_stat(record, records, ATTACK) if fighting else None,
        defense=_stat(record, records, DEFENSE) if fighting else None,
        gems="".join(sorted(_gems(record))),
        artist=_artist(props.get(ARTIST)),
        text=_prose(record, GAME_TEXT),
        lore=_prose(record, LORE),
    )


def _prose(record: Archetype, key: int) -> str:
    value = record.properties.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ClientError(f"record {record.id}: property {key} is {_quoted(value)}, not text")
    return plain_text(value)


def _artist(value: Value) -> str:
    """The artist's name; "" where the card names none (it is not taken from the template,
    whose artist is a placeholder id)."""
    return _known(words.ARTISTS, value) if isinstance(value, int) else ""


def _ids(value: Value) -> list[int]:
    return [item for item in value if isinstance(item, int)] if isinstance(value, list) else []


def _known(table: dict[int, str], key: int) -> str:
    """A name from the client's tables, or what is known of it: its id."""
    return table.get(key) or f"#{key}"


def _named(table: dict[int, str], key: Value, what: str, record: Archetype) -> str | None:
    if key is None:
        return None
    if not isinstance(key, int) or key not in table:
        raise ClientError(f"record {record.id}: {what} id {_quoted(key)} is not a {what}")
    return table[key]


def _stat(record: Archetype, records: dict[int, Archetype], key: int) -> int | None:
    value = _inherited(record, records, key)
    if value is None:
        return None
    number = _integer(record, key, value)
    if not 0 <= number <= 999:
        raise ClientError(f"record {record.id}: property {key} is {number}, out of 0 to 999")
    return number


def _gems(record: Archetype) -> Iterable[str]:
    for key, letter in words.GEM_PROPERTIES.items():
        count = record.properties.get(key, 0)
        if not isinstance(count, int) or not 0 <= count <= 4:
            raise ClientError(f"record {record.id}: gem count {_quoted(count)} is not 0 to 4")
        yield from letter * count


def _seat_misplaced(
    cards: list[ClientCard],
) -> tuple[list[ClientCard], list[tuple[ClientCard, int]]]:
    """Cards whose code another card holds and whose record sits in another series' block
    of ids take that series, where the code is free there."""
    holders: dict[tuple[int, str, int], list[ClientCard]] = defaultdict(list)
    for card in cards:
        holders[(card.series, card.rarity, card.number)].append(card)
    blocks: dict[int, list[int]] = defaultdict(list)
    for group in holders.values():
        if len(group) == 1:  # a series' block is where its undisputed cards sit
            blocks[group[0].series].append(group[0].archetype)
    spans = {series: (min(ids), max(ids)) for series, ids in blocks.items()}
    taken = set(holders)
    moved: list[tuple[ClientCard, int]] = []
    for clash in (group for group in holders.values() if len(group) > 1):
        for card in clash:
            home = [s for s, (low, high) in spans.items() if low <= card.archetype <= high]
            target = home[0] if len(home) == 1 else card.series
            if target != card.series and (target, card.rarity, card.number) not in taken:
                taken.add((target, card.rarity, card.number))
                moved.append((card._replace(series=target), card.series))
    seated = {card.archetype: card for card, _ in moved}
    return [seated.get(card.archetype, card) for card in cards], moved


def _check_unique(cards: list[ClientCard]) -> None:
    seen: dict[tuple[int, str, int], ClientCard] = {}
    for card in cards:
        other = seen.setdefault((card.series, card.rarity, card.number), card)
        if other is not card:
            raise ClientError(
                f"records {other.archetype} and {card.archetype} are both card {card.code} "
                f"({shorten(other.name, 40)}, {shorten(card.name, 40)}); "
                "the card database is damaged"
            )
