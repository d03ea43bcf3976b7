"""Write the bundled sample catalogue, cards.csv, deterministically.

No public source links the game's real card names to their codes and stats, so cardbase
ships a sample written for the project in the real card shape (see
shared/reference/card-anatomy.md): original names and texts, two series, every rarity,
sphere and type, Heroes, traits, 1-4 gems, game text in the printed style and lore.

Run from the repository root:  python tools/make_sample_catalogue.py > cards.csv
"""

from __future__ import annotations

import csv
import random
import sys
from dataclasses import dataclass

from cardbase.fields import CATALOGUE_COLUMNS
from cardbase.games import DEFAULT_GAME

SPHERES = ("Nature", "Chaos", "Machine", "Order")  # numbering order within a series

# Per sphere and series: creatures, resources, tricks (names), in card-number order.
CARDS: dict[str, dict[int, tuple[list[str], list[str], list[str]]]] = {
    "Nature": {
        1: (
            [
                "Pixie Dewdancer",
                "Chugawug Bog-Singer",
                "Bixie Honeyrunner",
                "Floren Rootwalker",
                "Forest Troll Stumpsitter",
                "Thistle Hare",
                "Pixie Lanternwing",
                "Chugawug Fishwife",
                "Glimmerfrog",
                "Bixie Stinger",
                "Floren Seedkeeper",
                "Mistfen Heron",
                "Puddle Stomper",
                "Chugawug Cook",
                "Forest Troll Mossback",
                "Pixie Thornguard",
                "Briarback Boar",
                "Chugawug Elder",
                "Greenhollow Stag",
                "Old Willow Wisp",
                "Bixie Queen's Guard",
                "Floren Blossom Knight",
                "Forest Troll Bramblefist",
                "Chugawug Stewmaster",
            ],
            [
                "Bubbling Stew Pot",
                "Fairy Ring",
                "Honeycomb Hive",
                "Mistfen Bog",
                "Sunlit Glade",
                "Ancient Seedpod",
                "Chugawug Fishing Net",
                "Floren Garden",
            ],
            [
                "Sudden Growth",
                "Pixie Dust",
                "Swarm!",
                "Tangleroot",
                "Mud Bath",
                "Call of the Wild",
                "Second Helping",
                "Nature's Fury",
            ],
        ),
        2: (
            [
                "Dewdrop Sprite",
                "Amber Beetle",
                "Chugawug Tidecaller",
                "Fernshadow Lynx",
                "Pixie Starcatcher",
                "Sporebloom Tortoise",
                "Floren Bloomwarden",
                "Chugawug Mudwizard",
                "Bixie Hivemother",
                "Wildroot Guardian",
                "Forest Troll Ancient",
                "Mossy Dragonling",
            ],
            ["Moonpetal Spring", "Overgrown Ruins", "Willowheart Grove", "Tanglewood Path"],
            ["Bloom Again", "Stinging Cloud", "Rain of Petals", "Root and Branch"],
        ),
    },
    "Chaos": {
        1: (
            [
                "Robgoblin Scrapper",
                "Undead Bonepicker",
                "Robgoblin Sneak",
                "Changeling Mimic",
                "Fungaloid Sporeling",
                "Undead Drummer",
                "Robgoblin Lookout",
                "Skulking Pillager",
                "Changeling Grinner",
                "Undead Gravedigger",
                "Robgoblin Firebug",
                "Mudpit Brute",
                "Fungaloid Rotcap",
                "Undead Mourner",
                "Cinderjaw Raider",
                "Changeling Trickster",
                "Robgoblin Gearthief",
                "Ashen Howler",
                "Hollowbone Shade",
                "Undead Lantern-Bearer",
                "Soot-Winged Harrier",
                "Changeling Mask-Maker",
                "Grix the Unwashed",
                "Robgoblin Warboss",
            ],
            [
                "Smoldering Scrapheap",
                "Haunted Crossroads",
                "Robgoblin Loot Sack",
                "Cracked Cauldron",
                "Bonefire",
                "Changeling Masquerade",
                "Rattling Gallows",
                "Goblin Market",
            ],
            [
                "Dirty Trick",
                "Sudden Ambush",
                "Howl of the Pack",
                "Smoke and Cinders",
                "Rattle the Bones",
                "Borrowed Face",
                "Kick the Gears",
                "Midnight Raid",
            ],
        ),
        2: (
            [
                "Rift Gnawer",
                "Shattered Robgoblin",
                "Undead Ferryman",
                "Changeling Doppel",
                "Emberglass Stalker",
                "Robgoblin Siegewright",
                "Cracked-Mirror Phantom",
                "Undead Choirmaster",
                "Voidmaw Lurker",
                "Changeling Stormcaller",
                "Ruinscale Drake",
                "Fungaloid Blightlord",
            ],
            [
                "Shard of the Broken Moon",
                "Ruined Watchtower",
                "Bag of Stolen Gears",
                "Ashfall Grotto",
            ],
            ["Shatter", "Fractured Time", "Sporeburst", "Dragon's Spite"],
        ),
    },
    "Machine": {
        1: (
            [
                "Clockwork Sentry",
                "Dwarf Boilerman",
                "Spark Imp",
                "Clockwork Courier",
                "Rustbucket Scout",
                "Golem Hauler",
                "Dwarf Rivet-Setter",
                "Cogwheel Hound",
                "Stone Troll Quarryman",
                "Gearspring Hopper",
                "Clockwork Dragonfly",
                "Piston Ram",
                "Dwarf Steamsmith",
                "Clockwork Tinker",
                "Copperhead Automaton",
                "Stone Troll Bridgekeeper",
                "Ironclad Marcher",
                "Golem Gatekeeper",
                "Dwarf Tunnel Boss",
                "Boltcaster Turret",
                "Brass Golem",
                "Steamvent Drake",
                "Stone Troll Crusher",
                "Clockwork Juggernaut",
            ],
            [
                "Steam Forge",
                "Gear Workshop",
                "Dwarven Mine Cart",
                "Tesla Coil",
                "Blueprint Archive",
                "Coal Stockpile",
                "Oil Can",
                "Assembly Line",
            ],
            [
                "Overclock",
                "Emergency Repair",
                "Steam Blast",
                "Spare Parts",
                "Short Circuit",
                "Reinforced Plating",
                "Full Throttle",
                "Jammed Gears",
            ],
        ),
        2: (
            [
                "Tin Soldier",
                "Magnet Mole",
                "Wirework Spider",
                "Dwarf Gearmaster",
                "Pressure-Valve Brute",
                "Clockwork Chronomancer",
                "Stone Troll Warden",
                "Overclocked Sentinel",
                "Dwarf Airship Captain",
                "Golem of the Deep Forge",
                "Furnace Heart Titan",
                "Clockwork Colossus",
            ],
            ["Clocktower Foundry", "Broken Automaton Parts", "Aether Battery", "Rail Depot"],
            ["Rewind", "Magnetic Pull", "Chain Reaction", "System Reboot"],
        ),
    },
    "Order": {
        1: (
            [
                "Wizard Apprentice",
                "Yeti Snowherd",
                "Card Duelist Novice",
                "Chime Sprite",
                "Ninja Shadowstep",
                "Oathbound Squire",
                "Lamplighter Cleric",
                "Silver Crane",
                "Scroll Warden",
                "Wizard Runescribe",
                "Yeti Frostguard",
                "Ninja Blade Adept",
                "Temple Gong-Keeper",
                "Lawkeeper Owl",
                "Marble Lion",
                "Starwatch Astronomer",
                "Ninja Smoke Monk",
                "Sanctuary Knight",
                "Hallowed Ram",
                "Brightshield Captain",
                "Yeti Avalanche",
                "Card Duelist Champion",
                "Paladin of Sanctuary",
                "Wizard of the High Tower",
            ],
            [
                "Sanctuary Library",
                "Training Dojo",
                "Card Duelist Arena",
                "Frozen Peak",
                "Temple Bell",
                "Wizard's Tower",
                "Hall of Records",
                "Meditation Garden",
            ],
            [
                "Perfect Block",
                "Counterspell",
                "Vanish",
                "Rally the Guard",
                "Blizzard",
                "Vow of Protection",
                "Study the Foe",
                "Judgment",
            ],
        ),
        2: (
            [
                "Glacier Monk",
                "Sunspire Archer",
                "Card Duelist Prodigy",
                "Order Herald",
                "Crystal Sentinel",
                "Mirror Warden",
                "Ninja Grandmaster",
                "Archivist of Sanctuary",
                "Wizard Timekeeper",
                "Dawnbringer Griffin",
                "Highcourt Judge",
                "Yeti Chieftain",
            ],
            ["Crystal Observatory", "Restored Citadel", "Oath Stone", "Pilgrim's Road"],
            ["Time Stop", "Shatterproof", "Ancestral Wisdom", "Final Verdict"],
        ),
    },
}

HEROES: dict[int, list[tuple[str, str]]] = {
    1: [
        ("Tavi Emberwake", "Card Duelist"),
        ("Old Mossbeard", "Forest Troll"),
        ("Captain Brindle", "Dwarf"),
        ("Quill Starfinder", "Wizard"),
        ("Marra the Cartographer", "Floren"),
        ("Sir Pellam Ironvow", "Card Duelist"),
        ("Juniper Ashgrove", "Pixie"),
        ("Bolt Tinkerly", "Clockwork"),
    ],
    2: [
        ("Vesna Nightbloom", "Changeling"),
        ("Rook Hollowell", "Ninja"),
        ("Dessa Brightquill", "Wizard"),
        ("Gallow the Grey", "Undead"),
        ("Pip Thistledown", "Bixie"),
        ("Orin Stonebraid", "Stone Troll"),
    ],
}

# Rarity letters by position: creatures, resources, tricks (and Heroes) per series.
RARITY_PATTERNS = {
    1: ("CCSCUCCUCSCUCCRUCURCURUP", "CCUSCURC", "CUCSCURE"),
    2: ("CCUCRCUCRUEC", "CUCR", "CUCR"),
}
HERO_RARITIES = {1: "RRRREPPS", 2: "URRREU"}

SPHERE_TRAIT = {"Nature": "Beast", "Chaos": "Spirit", "Machine": "Construct", "Order": "Guardian"}
GEM_BIAS = {"Nature": "GGGY", "Chaos": "RRRB", "Machine": "BBBR", "Order": "YYYG", None: "RGBY"}
KNOWN_TRAITS = (
    "Chugawug",
    "Robgoblin",
    "Pixie",
    "Bixie",
    "Floren",
    "Dwarf",
    "Changeling",
    "Fungaloid",
    "Forest Troll",
    "Stone Troll",
    "Clockwork",
    "Golem",
    "Ninja",
    "Undead",
    "Yeti",
    "Wizard",
    "Card Duelist",
)

CREATURE_TEXT = (
    "[{g}]: Stun my foe.",
    "[{gg}]: Destroy my foe.",
    "[Spend {n}] >> I get +{k} attack until the end of the turn.",
    "Collect {c}: I get +{k} defense.",
    "Your other {trait}s get +1 attack.",
    "When I score a card, draw a card.",
    "[Zap me] >> Ready another {trait}.",
    "Trickster. [Stars {n}] >> Swap my attack and defense.",
    "Crush.",
    "[{g}]: Score a card.",
    "When you play me, you may chase a creature. If you do, draw 2 cards.",
    "[Stars {n}] >> My foe gets -{k} defense.",
    "I can hunt past a stunned foe and score 2 cards.",
    "Collect {c}: [{g}]: Your [{sphere}] creatures get +1 attack.",
    "[Spend {n}, zap me] >> Stun a creature with cost {n} or less.",
)
HERO_TEXT = (
    "Your [{fav}] creatures get +1 attack and +1 defense.",
    "[{gg}]: Destroy my foe and score a card.",
    "Collect {c}: [Spend {n}] >> Ready all your creatures.",
    "When you play me, draw a card for each Hero you have in play.",
)
RESOURCE_TEXT = (
    "[Zap me] >> Your {trait}s get +1 defense until the end of the turn.",
    "[Turn me face down] >> Draw a card.",
    "Your [{sphere}] creatures cost 1 less to play.",
    "[Spend 1, zap me] >> Look at the top 3 cards of your deck and put them back in any order.",
    "When one of your {trait}s scores a card, you may ready me.",
    "[Zap me] >> Your creature gets +1 attack in this battle.",
    "[Stars 1, turn me face down] >> Score a card.",
)
TRICK_TEXT = (
    "Your creature gets +{k} attack.",
    "Your creature gets +{k} defense. [{g}]: It gets +{k2} more.",
    "Stun your creature's foe. End this battle.",
    "Your foe gets -{k} attack.",
    "Destroy a creature with cost {n} or less.",
    "Score a card. If your creature is a {trait}, score 2 cards instead.",
    "Your creature gets +{k} attack and Crush in this battle.",
    "Flip 2 cards and choose one of them for this battle.",
)
LORE = {
    "Nature": (
        '"If it bubbles, it is ready. If it bites back, give it a minute." - Chugawug kitchen wisdom',  # noqa: E501
        "The bog remembers every footstep, and forgives most of them.",
        "Pixies count the dew at dawn; none agree on the total.",
        '"A Floren garden is never finished, only interrupted." - Marra the Cartographer',
        "In Greenhollow the trees vote, slowly.",
        "The Forest Trolls have napped through three wars and a wedding.",
    ),
    "Chaos": (
        '"Finders keepers, losers weepers, robgoblins sleepers." - Robgoblin rhyme',
        "Nobody invites the Changelings. They come anyway, wearing your face.",
        "The Undead keep the old songs, mostly out of tune.",
        "Where the ash falls, the fungus rises.",
        '"Shiny is as shiny does." - Grix the Unwashed',
        "Every crack in the world is a door to somebody.",
    ),
    "Machine": (
        '"Tighten it twice, then once more for luck." - Dwarven shop sign',
        "The clockwork never sleeps, but it does tick more quietly at night.",
        "Stone Trolls make excellent bridges and terrible conversation.",
        "Steam, sweat and a stubborn wrench built Brassworks.",
        '"If it sparks, it works." - Bolt Tinkerly',
        "Every golem is built with one rule and finds a second on its own.",
    ),
    "Order": (
        '"Patience is a blade that never dulls." - Ninja proverb',
        "The Sanctuary bells ring once for dawn and twice for trouble.",
        "Yetis guard the high passes and forget to ask why.",
        '"Shuffle, draw, and mind your manners." - Card Duelist oath',
        "Every scroll in the Hall of Records was copied by hand, twice.",
        "The wizards of the High Tower argue in footnotes.",
    ),
    None: (
        "Every realm has a hero. Some realms have too many.",
        "Legends are just stories that refused to sit down.",
        "They came from nowhere in particular and were needed everywhere at once.",
    ),
}
EXTRA_TRAITS = {
    "Resource": ("Location", "Artifact", "Location", "Event"),
    "Trick": ("Maneuver", "Condition", "Event", "Maneuver"),
}


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
