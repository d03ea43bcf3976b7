"""Read-only card commands: search, show, code."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.app import STATE, Output, OutputOption, app, command
from cardbase.matching import did_you_mean, suggest_names


@command(app)
def search(
    words: opt.QueryWords = None,
    name: opt.Name = None,
    text: opt.Text = None,
    trait: opt.Trait = None,
    sphere: opt.Sphere = None,
    type_: opt.Type = None,
    rarity: opt.Rarity = None,
    series: opt.Series = None,
    cost: opt.Cost = None,
    attack: opt.Attack = None,
    defense: opt.Defense = None,
    gems: opt.Gems = None,
    gem: opt.Gem = None,
    hero: opt.Hero = False,
    owned: opt.Owned = False,
    foil: opt.Foil = False,
    nonfoil: opt.Nonfoil = False,
    playset: opt.Playset = False,
    sort: opt.Sort = None,
    desc: opt.Desc = False,
    limit: opt.Limit = None,
    count: opt.Count = False,
    explain: opt.Explain = False,
    output: OutputOption = Output.table,
) -> None:
    """Search the catalogue: bare words, field terms, or plain options; no query lists all.

    Example: cardbase search 'chug* s:nature cost<=2' --sort attack --desc
    """
    from cardbase import search as lib

    filters = {
        "name": name, "text": text, "trait": trait, "sphere": sphere, "type": type_,
        "rarity": rarity, "series": series, "cost": cost, "attack": attack,
        "defense": defense, "gems": gems, "gem": gem, "hero": hero, "owned": owned,
        "foil": foil, "nonfoil": nonfoil, "playset": playset,
    }  # fmt: skip
    query = lib.build_query(lib.search_words(words or []), filters, sort, desc)
    if explain:
        typer.echo(lib.plan(query, limit, count).explain())
        return
    with STATE.connect() as conn:
        if count:
            typer.echo(lib.count(conn, query))
            return
        cards = lib.search(conn, query, limit)
        words_only = lib.bare_words(query) if not cards else None
        suggestions = suggest_names(conn, words_only) if words_only else []
    if not cards and output is Output.table:
        typer.echo(
            "No cards match." + (f" {did_you_mean(suggestions)}" if suggestions else ""), err=True
        )
        return
    render.print_cards(cards, output)


@command(app)
def show(
    card: Annotated[str, typer.Argument(help="A collector code (1 U 132) or a card name.")],
    output: OutputOption = Output.table,
) -> None:
    """Show one card in full, by code or by name.

    Example: cardbase show "Chugawug Cook"
    """
    from cardbase.matching import resolve_card

    with STATE.connect() as conn:
        found = resolve_card(conn, card)
    if output is Output.json:
        render.print_json(found.to_dict())
    elif output is Output.csv:
        render.print_csv(list(found.to_dict()), [render.card_csv_row(found)])
    else:
        render.print_card_detail(found)


@command(app)
def code(
    text: Annotated[
        str, typer.Argument(metavar="CODE", help="A collector code, e.g. '1 U 132' or 1u132.")
    ],
    output: OutputOption = Output.table,
) -> None:
    """Parse a collector code and show the card that has it.

    Example: cardbase code "1 U 132"
    """
    from cardbase.matching import look_up_code

    with STATE.connect() as conn:
        lookup = look_up_code(conn, text)
    if output is Output.json:
        render.print_json(lookup.to_dict())
        return
    code = lookup.code
    if output is Output.csv:
        render.print_csv(
            ["code", "series", "rarity", "number", "name", "note"],
            [
                [
                    str(code),
                    code.series,
                    code.rarity,
                    code.number,
                    lookup.card.name if lookup.card else "",
                    lookup.note or "",
                ]
            ],
        )
        return
    typer.echo(f"{code}: series {code.series}, {code.rarity_name}, card {code.number}")
    if lookup.note:
        typer.echo(lookup.note)
    if lookup.card:
        render.print_card_detail(lookup.card)
