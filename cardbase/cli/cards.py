"""Read-only card commands: show, code."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli import render
from cardbase.cli.root import STATE, Output, OutputOption, app, command


@command(app)
def show(
    card: Annotated[
        str, typer.Argument(help="A collector code (1 U 139) or a card name, in any language.")
    ],
    language: Annotated[
        str | None,
        typer.Option(
            "--language", "-l", help="Its name, text and lore in this language: de, fr, pt-BR."
        ),
    ] = None,
    output: OutputOption = Output.table,
) -> None:
    """Show one card in full, by code or by name.

    \b
    Example: cardbase show "Chugawug Cook" --language de
    """
    from cardbase.catalog.cards import in_language
    from cardbase.catalog.names import NameResolver
    from cardbase.collection.attributes import parse_language

    tag = parse_language(language) if language is not None else None
    with STATE.connect() as conn:
        found = NameResolver(conn).card(card)
        if tag is not None:
            if not tag.lower().startswith("en") and found.name_in(tag) == found.name:
                render.echo(
                    f"{found.label()} has no name in {tag} here; shown in English", err=True
                )
            found = in_language(conn, found, tag)
    if output is Output.json:
        render.print_json(found.to_dict())
    elif output is Output.csv:
        render.print_csv(render.CARD_CSV_HEADERS, [render.card_csv_row(found)])
    else:
        render.print_card_detail(found)


@command(app)
def code(
    text: Annotated[
        str, typer.Argument(metavar="CODE", help="A collector code, e.g. '1 U 139' or 1u139.")
    ],
    output: OutputOption = Output.table,
) -> None:
    """Parse a collector code and show the card that has it.

    \b
    Example: cardbase code "1 U 139"
    """
    from cardbase.catalog.names import look_up_code
    from cardbase.errors import NotFoundError

    with STATE.connect() as conn:
        lookup = look_up_code(conn, text)
    if lookup.card is None:  # as `show` answers: no card is an error, not an empty answer
        raise NotFoundError(lookup.note or f"no card has the code {lookup.code}")
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
    render.echo(f"{code}: series {code.series}, {code.rarity_name}, card {code.number}")
    if lookup.note:
        render.echo(lookup.note)
    if lookup.card:
        render.print_card_detail(lookup.card)
