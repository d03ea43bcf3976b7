"""Deterministic synthetic data for the benchmarks, at 1k, 10k, 100k or 1M cards.

    python benchmarks/generate.py --size 100k [--out benchmarks/data]

Writes, for a size N:
- catalogue-N.csv: N cards in the cards.csv shape (unique codes and names; ~3% mention dragons);
- collection-N.csv and collection-N.xlsx: N rows of a collection as people keep them: a
  title row and a blank row above the header, header synonyms ("Card Name", "Qty",
  "Foil Qty"), 5% misspelled names, codes on some rows, numbers stored as text on some;
- names-N.txt: 10k names from the catalogue (5% misspelled), one a line, for name resolution;
- decks-N/*.txt: deck lists in the text format (counts, names, comments, sections);
- deck-with-typos-N.txt: a 60-line deck list typed by hand, three of its names misspelled.
The same size always gives the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections.abc import Iterator
from pathlib import Path

from cardbase.fields import CATALOGUE_COLUMNS
from cardbase.games import DEFAULT_GAME

SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1m": 1_000_000}
HERE = Path(__file__).parent
CARDS_PER_SERIES = 5_000

ADJECTIVES = (
    "Amber", "Ashen", "Brass", "Bright", "Bog", "Cinder", "Clever", "Copper", "Crystal", "Dawn",
    "Deep", "Dusk", "Ember", "Fern", "Frost", "Gilded", "Gloom", "Granite", "Hollow", "Iron",
    "Ivy", "Jade", "Lantern", "Marsh", "Moss", "Night", "Oak", "Onyx", "Pale", "Quick",
    "Rust", "Sable", "Silver", "Smoke", "Star", "Storm", "Thorn", "Tide", "Velvet", "Wild",
)  # fmt: skip
TRAITS = (
    "Chugawug", "Robgoblin", "Pixie", "Bixie", "Floren", "Dwarf", "Changeling", "Fungaloid",
    "Forest Troll", "Stone Troll", "Clockwork", "Golem", "Ninja", "Undead", "Yeti", "Wizard",
    "Card Duelist", "Gnome", "Sprite", "Drake", "Owl", "Beetle", "Wolf", "Heron", "Lynx",
)  # fmt: skip
ROLES = (
    "Scout", "Brute", "Cook", "Sentry", "Drummer", "Elder", "Raider", "Tinker", "Warden",
    "Hunter", "Singer", "Lookout", "Champion", "Sneak", "Guard", "Keeper", "Squire", "Sage",
    "Harrier", "Forager", "Dragon", "Knight", "Mystic", "Runner", "Stalker", "Smith", "Monk",
    "Archer", "Herald", "Mimic", "Captain", "Shade", "Courier", "Howler", "Pilgrim", "Tamer",
    "Ranger", "Scholar", "Trickster", "Wanderer",
)  # fmt: skip
PLACES = (
    "Bog", "Ridge", "Forge", "Grove", "Tower", "Deep", "Marsh", "Glade", "Peak", "Ruins",
    "Hollow", "Market", "Sanctuary", "Vale", "Crossing", "Lighthouse", "Mines", "Dunes",
    "Reef", "Orchard", "Citadel", "Caverns", "Harbor", "Fen", "Steppe",
)  # fmt: skip
EPITHETS = ("", *(f"of the {place}" for place in PLACES))
SPHERES = ("Chaos", "Nature", "Machine", "Order")
RARITIES = "CCCCCUUURRE"
# Real catalogues say many different things; one or two of these per card keeps common
# phrases ("draw a card") about as rare as they are on printed cards.
TEXTS = (
    "[{g}]: Stun my foe.", "[{g}{g}]: Destroy my foe.", "[{g}]: Score a card.",
    "[Spend {n}] >> I get +{n} attack until the end of the turn.",
    "[Spend {n}, zap me] >> Stun a creature with cost {n} or less.",
    "Collect {c}: Your {trait}s get +1 defense.", "Collect {c}: I get +{n} attack.",
    "[Zap me] >> Draw a card.", "[Turn me face down] >> Look at the top {c} cards of your deck.",
    "[Stars {n}] >> My foe gets -{n} attack.", "[Stars {n}] >> Swap my attack and defense.",
    "Crush.", "Trickster.", "When I score a card, draw a card.",
    "When you play me, you may chase a creature.", "Your other {trait}s get +1 attack.",
    "Your creature gets +{n} attack.", "Your creature gets +{n} defense.",
    "Your foe gets -{n} defense.", "End this battle.", "Ready another {trait}.",
    "I can hunt past a stunned foe.", "Discard a card: I get +{c} defense.",
    "Flip {n} cards and choose one of them for this battle.",
)  # fmt: skip
DRAGON_TEXT = "[{g}{g}]: Summon the dragon within: I get +3 attack."
# The catalogue's columns are cardbase's own; each row below lists its values in this order.
HEADER = list(CATALOGUE_COLUMNS)


def card_name(index: int) -> str:
    """The index-th name of a fixed sequence of unique names (up to about a million)."""
    a, rest = index % len(ADJECTIVES), index // len(ADJECTIVES)
    t, rest = rest % len(TRAITS), rest // len(TRAITS)
    r, rest = rest % len(ROLES), rest // len(ROLES)
    epithet = EPITHETS[rest % len(EPITHETS)]
    return " ".join(part for part in (ADJECTIVES[a], TRAITS[t], ROLES[r], epithet) if part)


def catalogue_rows(size: int) -> Iterator[list[str]]:
    rng = random.Random(f"catalogue-{size}")
    for index in range(size):
        series, number = index // CARDS_PER_SERIES + 1, index % CARDS_PER_SERIES + 1
        name = card_name(index)
        trait = next(t for t in TRAITS if t in name)
        kind = rng.random()
        gems = "".join(rng.choice("RGBY") for _ in range(rng.choice((1, 1, 2, 2, 3, 4))))
        g, n, c = gems[0], rng.randint(1, 3), rng.randint(2, 5)
        templates = rng.sample(TEXTS, rng.choice((1, 1, 2)))
        if rng.random() < 0.02:
            templates.append(DRAGON_TEXT)
        text = " ".join(t.format(g=g, n=n, c=c, trait=trait) for t in templates)
        sphere = rng.choice(SPHERES)
        rarity = rng.choice(RARITIES)
        if kind < 0.03:
            row = ["Creature", "yes", "", f"{trait}, Unique", rng.randint(3, 6), rng.randint(4, 9),
                   rng.randint(4, 9)]  # fmt: skip
        elif kind < 0.65:
            cost = rng.randint(1, 6)
            row = ["Creature", "", sphere, trait, cost, cost + rng.randint(0, 3),
                   cost + rng.randint(-1, 3) or 1]  # fmt: skip
        elif kind < 0.82:
            row = ["Resource", "", sphere, "Location", "", "", ""]
        else:
            row = ["Trick", "", sphere, "Maneuver", rng.randint(0, 4), "", ""]
        yield [f"{series} {rarity} {number}", name, *map(str, row), gems, text,
               f"Lore line {index % 97}.", DEFAULT_GAME]  # fmt: skip


def misspell(name: str, rng: random.Random) -> str:
    """One typo: a dropped, doubled or swapped letter, as people make them."""
    position = rng.randrange(1, len(name) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return name[:position] + name[position + 1 :]
    if kind == 1:
        return name[:position] + name[position] + name[position:]
    return name[: position - 1] + name[position] + name[position - 1] + name[position + 1 :]


RARITY_NAMES = {"C": "Common", "U": "Uncommon", "R": "Rare", "E": "Exclusive"}
CONDITIONS = ("NM", "NM", "NM", "LP", "MP")


def collection_rows(size: int, catalogue: list[list[str]]) -> Iterator[list[object]]:
    """Ten columns, as collectors' sheets have: the card, where it is from, counts, notes."""
    rng = random.Random(f"collection-{size}")
    for _ in range(size):
        card = rng.choice(catalogue)
        code, name = card[:2]
        series, rarity, _number = code.split()
        if rng.random() < 0.05:
            name = misspell(name, rng)
        qty: object = rng.choice((1, 1, 1, 2, 2, 3, 4))
        foil: object = rng.choice((0, 0, 0, 0, 1, 2))
        if rng.random() < 0.1:
            qty = f" {qty} "  # a number stored as text, as spreadsheets do
        note = rng.choice(("", "", "", "trade", "binder 2", "from a booster"))
        row = [code if rng.random() < 0.3 else "", name, f"Series {series}", RARITY_NAMES[rarity]]
        yield [*row, card[2], card[4], qty, foil or "", rng.choice(CONDITIONS), note]


COLLECTION_HEADER = [
    "Collector Number", "Card Name", "Set", "Rarity", "Type", "Sphere", "Qty", "Foil Qty",
    "Condition", "Notes",
]  # fmt: skip
TITLE = "My Free Realms collection (exported by hand)"


def write_collection_csv(path: Path, rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([TITLE])
        writer.writerow([])
        writer.writerow(COLLECTION_HEADER)
        writer.writerows(rows)


def write_collection_xlsx(path: Path, rows: list[list[object]]) -> None:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Collection")
    sheet.append([TITLE])
    sheet.append([])
    sheet.append(COLLECTION_HEADER)
    for row in rows:
        sheet.append(row)
    book.save(path)


def write_decks(folder: Path, catalogue: list[list[str]], count: int = 20) -> None:
    folder.mkdir(exist_ok=True)
    rng = random.Random(f"decks-{len(catalogue)}")
    for deck in range(count):
        picks = rng.sample(catalogue, 16)
        lines = [f"# Benchmark deck {deck}", "Main:"]
        lines += [f"{rng.choice((2, 3))} {row[1]}" for row in picks[:14]]
        lines += [f"3x {row[0]}" for row in picks[14:]]
        (folder / f"deck-{deck:02}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


DESK_DECKS = 100  # an event's entries, as the tournament desk gets them
DESK_DECK_CARDS = 40


def write_desk_decks(folder: Path, catalogue: list[list[str]], count: int = DESK_DECKS) -> None:
    """A tournament's deck files: 40 cards each (13 names x3 and one more), a `Player:` line,
    names and codes mixed as players write them; every tenth deck one card short."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"desk-{len(catalogue)}")
    for deck in range(count):
        picks = rng.sample(catalogue, 14)
        lines = [f"Player: Player {deck:03}", "Main:"]
        lines += [f"3 {row[1]}" if n % 4 else f"3x {row[0]}" for n, row in enumerate(picks[:13])]
        if deck % 10:
            lines.append(f"1 {picks[13][1]}")
        (folder / f"entry-{deck:03}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


TYPO_DECK_LINES = 60
TYPO_DECK_TYPOS = 3


def write_typo_deck(path: Path, catalogue: list[list[str]]) -> None:
    """What `deck check` meets when a deck is typed by hand: most names right, a few not."""
    rng = random.Random(f"typo-deck-{len(catalogue)}")
    picks = rng.sample(catalogue, TYPO_DECK_LINES)
    typos = set(rng.sample(range(TYPO_DECK_LINES), TYPO_DECK_TYPOS))
    lines = [f"# {TYPO_DECK_LINES} lines, {TYPO_DECK_TYPOS} names misspelled", "Main:"]
    for position, row in enumerate(picks):
        name = misspell(row[1], rng) if position in typos else row[1]
        lines.append(f"{rng.choice((1, 2, 3))} {name}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate(size_name: str, out: Path) -> None:
    size = SIZES[size_name.lower()]
    out.mkdir(parents=True, exist_ok=True)
    catalogue = list(catalogue_rows(size))
    with (out / f"catalogue-{size_name}.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(catalogue)
    rows = list(collection_rows(size, catalogue))
    write_collection_csv(out / f"collection-{size_name}.csv", rows)
    write_collection_xlsx(out / f"collection-{size_name}.xlsx", rows)
    rng = random.Random(f"names-{size}")
    names = [row[1] for row in rng.choices(catalogue, k=10_000)]
    names = [misspell(n, rng) if rng.random() < 0.05 else n for n in names]
    (out / f"names-{size_name}.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    write_decks(out / f"decks-{size_name}", catalogue)
    write_typo_deck(out / f"deck-with-typos-{size_name}.txt", catalogue)
    write_desk_decks(out / f"desk-{size_name}", catalogue)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1k", choices=list(SIZES), type=str.lower)
    parser.add_argument("--out", type=Path, default=HERE / "data")
    args = parser.parse_args()
    generate(args.size, args.out)


if __name__ == "__main__":
    main()
