"""Write the sample catalogue, sample-cards.csv, deterministically.

Before the game's own card database was found, cardbase shipped a sample written for the
project in the real card shape (see shared/reference/card-anatomy.md): invented names and
texts, two series, every rarity, sphere and type, Heroes, traits, 1-4 gems, game text in
the printed style and lore. The real catalogue is cards.csv (tools/build_catalogue.py); the
sample stays for demos and for tests that need cards with texts a repository may carry:
`cardbase db init --catalogue sample`.

Run from the repository root:  python tools/make_sample_catalogue.py > sample-cards.csv
"""

from __future__ import annotations

import csv
import random
import sys
from dataclasses import dataclass

from sample_catalogue_data import (  # tools/ is the script's folder
    CARDS,
    CREATURE_TEXT,
    EXTRA_TRAITS,
    GEM_BIAS,
    HERO_RARITIES,
    HERO_TEXT,
    HEROES,
    KNOWN_TRAITS,
    LORE,
    RARITY_PATTERNS,
    RESOURCE_TEXT,
    SPHERE_TRAIT,
    SPHERES,
    TRICK_TEXT,
)

from cardbase.games import DEFAULT_GAME

# The sample's columns, as it was written: it has no artists and no names in other languages.
CATALOGUE_COLUMNS = ("code", "name", "type", "hero", "sphere", "traits", "cost", "attack",
                     "defense", "gems", "text", "lore", "game")  # fmt: skip


@dataclass
class Row:
    series: int
    rarity: str
    number: int
    name: str
    type: str
    hero: bool
    sphere: str
    traits: str
    cost: str
    attack: str
    defense: str
    gems: str
    text: str
    lore: str


def creature_trait(name: str, sphere: str | None) -> str:
    for trait in KNOWN_TRAITS:
        if name.startswith(trait + " ") or name == trait:
            return trait
    return SPHERE_TRAIT[sphere] if sphere else "Card Duelist"


def gems_for(rng: random.Random, sphere: str | None, rarity: str) -> str:
    count = rng.choices((1, 2, 3, 4), weights=(30, 38, 22, 10))[0]
    if rarity in "RE" and count < 4 and rng.random() < 0.4:
        count += 1
    return "".join(sorted(rng.choice(GEM_BIAS[sphere]) for _ in range(count)))


def fill(template: str, rng: random.Random, gems: str, trait: str, sphere: str | None) -> str:
    g = rng.choice(gems)
    return template.format(
        g=g,
        gg=g + g,
        n=rng.randint(1, 3),
        k=rng.randint(1, 3),
        k2=rng.randint(1, 2),
        c=rng.randint(2, 5),
        trait=trait,
        sphere=sphere or rng.choice(SPHERES),
        fav=rng.choice(SPHERES),
    )


def game_text(
    rng: random.Random,
    pool: tuple[str, ...],
    gems: str,
    trait: str,
    sphere: str | None,
    clauses: int,
) -> str:
    chosen = rng.sample(pool, clauses)
    return " ".join(fill(t, rng, gems, trait, sphere) for t in chosen)


def creature(
    rng: random.Random,
    series: int,
    rarity: str,
    number: int,
    name: str,
    sphere: str | None,
    hero_trait: str | None = None,
) -> Row:
    base = {"C": 1, "S": 1, "U": 2, "P": 2, "R": 3, "E": 4}[rarity]
    cost = base + rng.randint(0, 2) + (2 if hero_trait else 0)
    attack = max(1, cost + rng.randint(0, 3))
    defense = max(1, cost + rng.randint(-1, 3))
    trait = hero_trait or creature_trait(name, sphere)
    traits = [trait]
    if hero_trait or " the " in name:
        traits.append("Unique")
    gems = gems_for(rng, sphere, rarity)
    pool = HERO_TEXT + CREATURE_TEXT[2:4] if hero_trait else CREATURE_TEXT
    clauses = 2 if rarity in "REP" or hero_trait else rng.choice((1, 1, 2))
    return Row(
        series,
        rarity,
        number,
        name,
        "Creature",
        bool(hero_trait),
        sphere or "",
        ", ".join(traits),
        str(cost),
        str(attack),
        str(defense),
        gems,
        game_text(rng, pool, gems, trait, sphere, clauses),
        rng.choice(LORE[sphere if not hero_trait else None]),
    )


def non_creature(
    rng: random.Random,
    series: int,
    rarity: str,
    number: int,
    name: str,
    sphere: str,
    card_type: str,
    position: int,
) -> Row:
    gems = gems_for(rng, sphere, rarity)
    theme = SPHERE_TRAIT[sphere]
    for trait in KNOWN_TRAITS:
        if trait in name:
            theme = trait
    traits = [EXTRA_TRAITS[card_type][position % 4]]
    if theme != SPHERE_TRAIT[sphere]:
        traits.append(theme)
    if card_type == "Resource":
        text = game_text(rng, RESOURCE_TEXT, gems, theme, sphere, 1)
        cost = ""
    else:
        text = game_text(rng, TRICK_TEXT, gems, theme, sphere, 1)
        cost = str(rng.choice((0, 1, 1, 2, 2, 3, 4)))
    return Row(
        series,
        rarity,
        number,
        name,
        card_type,
        False,
        sphere,
        ", ".join(traits),
        cost,
        "",
        "",
        gems,
        text,
        rng.choice(LORE[sphere]),
    )


def build() -> list[Row]:
    rows: list[Row] = []
    for series in (1, 2):
        rng = random.Random(f"cardbase-sample-{series}")
        number = 0
        creature_rarity, resource_rarity, trick_rarity = RARITY_PATTERNS[series]
        for sphere in SPHERES:
            creatures, resources, tricks = CARDS[sphere][series]
            for i, name in enumerate(creatures):
                number += 1
                rows.append(creature(rng, series, creature_rarity[i], number, name, sphere))
            for card_type, names, pattern in (
                ("Resource", resources, resource_rarity),
                ("Trick", tricks, trick_rarity),
            ):
                for i, name in enumerate(names):
                    number += 1
                    rows.append(
                        non_creature(rng, series, pattern[i], number, name, sphere, card_type, i)
                    )
        for i, (name, trait) in enumerate(HEROES[series]):
            number += 1
            rows.append(creature(rng, series, HERO_RARITIES[series][i], number, name, None, trait))
    return rows


def main() -> None:
    rows = build()
    names = [row.name for row in rows]
    assert len(names) == len(set(names)), "sample card names must be unique"
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CATALOGUE_COLUMNS)
    for row in rows:
        values = {
            "code": f"{row.series} {row.rarity} {row.number}",
            "name": row.name,
            "type": row.type,
            "hero": "yes" if row.hero else "",
            "sphere": row.sphere,
            "traits": row.traits,
            "cost": row.cost,
            "attack": row.attack,
            "defense": row.defense,
            "gems": row.gems,
            "text": row.text,
            "lore": row.lore,
            "game": DEFAULT_GAME,
        }
        writer.writerow([values[column] for column in CATALOGUE_COLUMNS])


if __name__ == "__main__":
    main()
