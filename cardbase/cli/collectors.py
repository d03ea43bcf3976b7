"""Who collects in this database (`cardbase collectors ...`) and the config file
(`cardbase config ...`)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    GroupDbOption,
    NoHeadersOption,
    Output,
    OutputOption,
    YesOption,
    app,
    command,
    confirm,
    guarded,
    take_group_options,
    with_examples,
)
from cardbase.errors import CardbaseError

collectors_app = typer.Typer(
    help=with_examples(
        "Who collects in this database: list (the default), add, rename, remove, default.",
        "cardbase collectors add Alice",
        "cardbase collectors rename Alice 'Alice B'",
        "cardbase collectors remove Bob --force --yes",
    ),
    invoke_without_command=True,
)
app.add_typer(collectors_app, name="collectors")
config_app = typer.Typer(
    help=with_examples(
        "The config file: show (the default), set, unset.",
        "cardbase config set condition lp",
        "cardbase config unset language",
    ),
    invoke_without_command=True,
)
app.add_typer(config_app, name="config")

Name = Annotated[str, typer.Argument(metavar="NAME", help="A collector's name.")]


@collectors_app.callback()
def collectors_root(
    ctx: typer.Context,
    output: OutputOption = Output.table,
    no_headers: NoHeadersOption = False,
    db: GroupDbOption = None,
) -> None:
    """List the collectors of this database, with what each owns.

    \b
    Example: cardbase collectors
    """
    take_group_options(no_headers, db)
    if ctx.invoked_subcommand is None:
        guarded(_list)(output)


def _list(output: Output) -> None:
    from cardbase.collection.roster import list_collectors

    found = list_collectors(STATE.library)
    if output is Output.json:
        render.print_json([summary.to_dict() for summary in found])
        return
    rows = [
        (
            s.name + (" (default)" if s.is_default else ""),
            str(s.copies),
            str(s.distinct),
            str(s.decks),
        )
        for s in found
    ]
    if output is Output.csv:
        render.print_csv(["collector", "copies", "distinct", "decks"], rows)
    else:
        render.print_table(("Collector", "Copies", "Distinct", "Decks"), rows)


@command(collectors_app, "list")
def list_(output: OutputOption = Output.table) -> None:
    """List the collectors of this database, with what each owns.

    \b
    Example: cardbase collectors list -o json
    """
    _list(output)


@command(collectors_app, "add")
def add(
    name: Name,
    default: Annotated[
        bool, typer.Option("--default", help="Make them the default collector.")
    ] = False,
) -> None:
    """Add a collector: their collection, history and decks are their own.

    \b
    Example: cardbase collectors add Alice
    """
    from cardbase.collection.roster import add_collector

    added = add_collector(STATE.library, name, default)
    render.echo(f"Added collector '{added.name}'" + (" (the default)" if default else ""))


@command(collectors_app, "rename")
def rename(name: Name, new: Annotated[str, typer.Argument(metavar="NEW")]) -> None:
    """Rename a collector; their cards, history and decks stay theirs.

    \b
    Example: cardbase collectors rename me Alice
    """
    from cardbase.collection.roster import rename_collector

    before, renamed = rename_collector(STATE.library, name, new)
    render.echo(f"Renamed '{before.name}' to '{renamed.name}'")


@command(collectors_app, "default")
def default(name: Name) -> None:
    """Make a collector the one commands use when no --collector is given.

    \b
    Example: cardbase collectors default Alice
    """
    from cardbase.collection.roster import make_default

    chosen = make_default(STATE.library, name)
    render.echo(f"'{chosen.name}' is now the default collector")


@command(collectors_app, "remove")
def remove(
    name: Name,
    force: Annotated[
        bool,
        typer.Option("--force", help="Also when they own cards or decks (a backup is made)."),
    ] = False,
    yes: YesOption = False,
) -> None:
    """Remove a collector. With cards or decks, only with --force, after a backup; on a
    terminal, after asking (undo cannot bring a collector back).

    \b
    Example: cardbase collectors remove Bob --force --yes
    """
    from cardbase.collection.roster import remove_collector
    from cardbase.text import plural

    confirm(f"Remove the collector '{name}' and all their cards, history and decks?", yes)
    removal = remove_collector(STATE.library, name, force)
    render.echo(
        f"Removed '{removal.collector.name}' ({plural(removal.copies, 'card')}, "
        f"{plural(removal.decks, 'deck')})"
    )
    if removal.backup:
        render.echo(
            f"The database before is kept as {removal.backup}; 'cardbase restore' it to undo"
        )


@config_app.callback()
def config_root(
    ctx: typer.Context, output: OutputOption = Output.table, no_headers: NoHeadersOption = False
) -> None:
    """Show where the config file is and what it sets.

    \b
    Example: cardbase config
    """
    STATE.no_headers = no_headers
    if ctx.invoked_subcommand is None:
        guarded(_show_config)(output)


def _show_config(output: Output) -> None:
    """The file's path and settings; for a broken file, its problem and what it still sets,
    rather than only the error every other command ends with: this is where to repair it."""
    from cardbase.config import KEYS, Config, ConfigError, config_path, readable_settings

    problem = None
    try:
        config = STATE.config
    except ConfigError as exc:
        path = config_path()
        config, problem = Config(path, readable_settings(path)), str(exc)
    if output is Output.json:
        shown_json = {"path": str(config.path), "settings": config.shown()}
        render.print_json(shown_json if problem is None else {**shown_json, "problem": problem})
        return
    state = "" if config.path.exists() else " (not there yet: nothing is set)"
    render.echo(f"Config file: {config.path}{state}")
    if problem is not None:
        render.echo(f"Problem: {problem}")
    shown = config.shown()
    rows = [(key, shown.get(key, "-"), meaning) for key, (meaning, _) in KEYS.items()]
    render.print_table(("Setting", "Value", "What it sets"), rows)


def _tell_problem(problem: CardbaseError | None) -> None:
    """A setting repaired in a file that has more wrong with it: said, so the next command's
    refusal is no surprise."""
    if problem is not None:
        render.echo(f"cardbase: note: the config file is still not usable: {problem}", err=True)


@command(config_app, "set")
def set_(
    key: Annotated[str, typer.Argument(metavar="SETTING", help="collector, condition, ...")],
    value: Annotated[str, typer.Argument(metavar="VALUE")],
) -> None:
    """Set one setting in the config file (made if it is not there).

    \b
    Example: cardbase config set condition lp
    """
    from cardbase.config import save_setting

    saved, problem = save_setting(key, value)
    render.echo(f"{key} = {saved.shown()[key]} ({saved.path})")
    _tell_problem(problem)


@command(config_app, "unset")
def unset(key: Annotated[str, typer.Argument(metavar="SETTING")]) -> None:
    """Remove one setting from the config file: its default applies again. Works on a file
    that other commands refuse, so a bad setting can be removed from here.

    \b
    Example: cardbase config unset collector
    """
    from cardbase.config import save_setting

    saved, problem = save_setting(key, None)
    render.echo(f"{key} unset ({saved.path})")
    _tell_problem(problem)
