"""The games cardbase knows and their files (`cardbase games ...`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    GroupDbOption,
    NoHeadersOption,
    Output,
    OutputOption,
    ReportOutputOption,
    app,
    command,
    guarded,
    take_group_options,
    with_examples,
)

games_app = typer.Typer(
    help=with_examples(
        "The games cardbase knows, each a file: list (the default), check FILE.",
        "cardbase games",
        "cardbase games -o json",
        "cardbase games check my-game.toml",
    ),
    invoke_without_command=True,
)
app.add_typer(games_app, name="games")


@games_app.callback()
def games_root(
    ctx: typer.Context,
    output: OutputOption = Output.table,
    no_headers: NoHeadersOption = False,
    db: GroupDbOption = None,
) -> None:
    """List the games: title, key, cards in this database, formats, file.

    \b
    Example: cardbase games
    """
    take_group_options(no_headers, db)
    if ctx.invoked_subcommand is None:
        guarded(_list)(output)


def _list(output: Output) -> None:
    found = STATE.library.games()
    if output is Output.json:
        render.print_json([game.to_dict() for game in found])
        return
    rows = [
        (game.title, game.key, str(game.cards), ", ".join(key for key, _ in game.formats),
         game.source)
        for game in found
    ]  # fmt: skip
    if output is Output.csv:
        render.print_csv(["title", "key", "cards", "formats", "file"], rows)
    else:
        render.print_table(("Game", "Key", "Cards", "Formats", "File"), rows)


@command(games_app, "list")
def list_(output: OutputOption = Output.table) -> None:
    """List the games: title, key, cards in this database, formats, file.

    \b
    Example: cardbase games list -o json
    """
    _list(output)


@command(games_app, "check")
def check(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game file (TOML).")],
    output: ReportOutputOption = Output.table,
) -> None:
    """Check a game file: every problem a line, naming the line and setting; exit 2 if any.

    \b
    Example: cardbase games check my-game.toml
    """
    from cardbase.catalog.gamelist import check_game_file

    problems = check_game_file(file)
    if output is Output.json:
        render.print_json({"file": str(file), "valid": not problems,
                           "problems": [p._asdict() for p in problems]})  # fmt: skip
    elif not problems:
        render.echo(f"\u2714 valid: {file}")
    for problem in problems if output is Output.table else ():
        render.echo(str(problem), err=True)
    if problems:
        raise typer.Exit(2)
