"""Options shared by commands that search: the plain-option form of the query language.

Each option stands for one query field (`--sphere chaos` is `sphere:chaos`); the library
turns them into query nodes with the same parser, so both forms always agree.
"""

from __future__ import annotations

from typing import Annotated

import typer

PANEL = "Filters (same as the query language)"


def _text(flag: str, meaning: str, example: str) -> object:
    return typer.Option(flag, help=f"{meaning}, e.g. {flag} {example}", rich_help_panel=PANEL)


def _flag(flag: str, meaning: str) -> object:
    return typer.Option(flag, help=meaning, rich_help_panel=PANEL)


QueryWords = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[QUERY]...",
        help="Words and field terms, e.g. chug* s:nature cost<=2 -is:owned (see the README). "
        "A word starting with - excludes; options take their value as the next word (-o json).",
    ),
]
Name = Annotated[str | None, _text("--name", "Name contains these words (prefixes)", "chug")]
Text = Annotated[str | None, _text("--text", "Game text has these words", "stun")]
Trait = Annotated[str | None, _text("--trait", "Has this trait", "chugawug")]
Sphere = Annotated[str | None, _text("--sphere", "Sphere (none for Heroes)", "chaos")]
Type = Annotated[str | None, _text("--type", "Creature, resource or trick", "creature")]
Rarity = Annotated[str | None, _text("--rarity", "Rarity letter or name; >=r works", "U")]
Series = Annotated[str | None, _text("--series", "Series number or range", "1")]
Cost = Annotated[str | None, _text("--cost", "Cost, a range or a comparison", "2..4")]
Attack = Annotated[str | None, _text("--attack", "Attack, a range or a comparison", "'>=5'")]
Defense = Annotated[str | None, _text("--defense", "Defense, a range or a comparison", "3")]
Gems = Annotated[str | None, _text("--gems", "Number of gems", "3..")]
Gem = Annotated[str | None, _text("--gem", "Gem colours it has at least", "rr")]
Hero = Annotated[bool, _flag("--hero", "Heroes only.")]
Owned = Annotated[bool, _flag("--owned", "Cards you own (foil or not).")]
Foil = Annotated[bool, _flag("--foil", "Cards you own in foil.")]
Nonfoil = Annotated[bool, _flag("--nonfoil", "Cards you own in non-foil.")]
Playset = Annotated[bool, _flag("--playset", "Names you own 3 or more of.")]
Sort = Annotated[
    str | None,
    typer.Option("--sort", help="Sort by name, code, cost, attack, defense, gems, rarity ..."),
]
Desc = Annotated[bool, typer.Option("--desc", help="Sort in descending order.")]
Limit = Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Show at most N cards.")]
ShowAll = Annotated[
    bool, typer.Option("--all", help="On a terminal too, show every match, not only the first 50.")
]
Overwrite = Annotated[bool, typer.Option("--force", help="Overwrite the file if it exists.")]
Count = Annotated[bool, typer.Option("--count", help="Print only the number of matches.")]
Explain = Annotated[
    bool, typer.Option("--explain", help="Show the query as understood and its SQL; run nothing.")
]
