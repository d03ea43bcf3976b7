"""Collection commands: add, remove, set, undo, history, collection, stats, missing."""

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.paging import print_hidden, search_page
from cardbase.cli.root import STATE, Output, OutputOption, ReportOutputOption, app, command
from cardbase.errors import CardbaseError
from cardbase.fields import CONDITIONS, FOIL, HOLDING_KINDS, NONFOIL, OPTION_FIELDS
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.collection.changes import Batch, Change, Selector

Items = Annotated[
    list[str],
    typer.Argument(
        metavar="ITEM...",
        help="Cards by code or name with an optional count and finish: '1 U 139', "
        "'3x\"1 C 143\"', 'Chugawug Cook x2', '2 1 U 139 foil'. '-' reads one per line from stdin.",
    ),
]
FoilFlag = Annotated[
    bool, typer.Option("--foil", help="Items that do not say their finish are foil.")
]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")]
Condition = Annotated[
    str | None,
    typer.Option(
        "--condition",
        help=f"{', '.join(CONDITIONS[:-1])} or {CONDITIONS[-1]} (or a name: 'Near Mint').",
    ),
]
Language = Annotated[
    str | None, typer.Option("--language", help="ISO 639-1 code or English name: fr, French.")
]
Location = Annotated[
    str | None, typer.Option("--location", help="Where the copies are: 'Binder 1'.")
]
Tags = Annotated[
    list[str] | None,
    typer.Option("--tag", help="A tag the copies have (repeat for more): trade."),
]
Note = Annotated[str | None, typer.Option("--note", help="A note kept with the copies.")]


def selector(
    condition: str | None, language: str | None, location: str | None, tags: list[str] | None
) -> "Selector":
    """The attribute options as the library reads them: None where not given."""
    from cardbase.library import Library

    return Library.selector(condition, language, location, tags)


def _change(
    verb: str, items: list[str], foil: bool, dry_run: bool, output: Output, chosen: "Selector",
    note: str | None, force: bool = False,
) -> None:  # fmt: skip
    from cardbase.collection.items import STDIN, read_pasted

    pasted = read_pasted(sys.stdin) if STDIN in items else ""
    changes = STATE.library.change(
        verb,
        items,
        selector=chosen,
        pasted=pasted,
        foil=foil,
        note=note,
        dry_run=dry_run,
        force=force,
    )
    print_changes(changes, dry_run, output)


def _register_change(verb: str, doc: str) -> None:
    """add, remove and set take the same items and options; one definition serves all three
    (remove and set, which can take copies away, take --force for sleeved ones)."""

    def run(
        items: Items,
        foil: FoilFlag = False,
        condition: Condition = None,
        language: Language = None,
        location: Location = None,
        tag: Tags = None,
        note: Note = None,
        dry_run: DryRun = False,
        output: ReportOutputOption = Output.table,
    ) -> None:
        chosen = selector(condition, language, location, tag)
        _change(verb, items, foil, dry_run, output, chosen, note)

    def run_forcing(
        items: Items,
        foil: FoilFlag = False,
        condition: Condition = None,
        language: Language = None,
        location: Location = None,
        tag: Tags = None,
        note: Note = None,
        dry_run: DryRun = False,
        force: opt.Unsleeve = False,
        output: ReportOutputOption = Output.table,
    ) -> None:
        chosen = selector(condition, language, location, tag)
        _change(verb, items, foil, dry_run, output, chosen, note, force)

    chosen = run if verb == "add" else run_forcing
    chosen.__doc__ = doc
    command(app, verb)(chosen)


_register_change(
    "add",
    """Add cards to your collection (non-foil unless the item or --foil says foil).

    \b
    Example: cardbase add "1 U 139" "Chugawug Cook x2" 3x"1 C 143" --foil
    """,
)
_register_change(
    "remove",
    """Remove cards from your collection; never below zero, and all or nothing.

    \b
    Example: cardbase remove "Chugawug Cook" "1 U 139 foil"
    """,
)
_register_change(
    "set",
    """Set how many of a card you own (per finish); x0 clears it.

    \b
    Example: cardbase set "Chugawug Cook x4" "1 U 139 x0 foil"
    """,
)


ToLocation = Annotated[
    str, typer.Option("--to", help="The location they go to ('' for none).", show_default=False)
]
FromLocation = Annotated[str | None, typer.Option("--from", help="Only copies in this location.")]
EitherFinish = Annotated[
    bool | None,
    typer.Option("--foil/--nonfoil", help="Items that do not say their finish: foil, or non-foil "
                 "(default: both, for items without a count)."),
]  # fmt: skip


def print_changes(changes: "list[Change]", dry_run: bool, output: Output) -> None:
    if output is Output.json:
        render.print_json([change.to_dict() for change in changes])
        return
    prefix = "would change: " if dry_run else ""
    for change in changes:
        render.echo(prefix + change.describe())
    if not changes:
        render.echo("Nothing changed.")


@command(app)
def move(
    items: Items,
    to: ToLocation,
    from_: FromLocation = None,
    foil: EitherFinish = None,
    condition: Condition = None,
    language: Language = None,
    tag: Tags = None,
    dry_run: DryRun = False,
    force: opt.Unsleeve = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Move copies to another location (all the copies an item names, unless it gives a count).

    \b
    Example: cardbase move "1 U 139 x2 foil" "Chugawug Cook" --to "Deck box"
    """
    from cardbase.collection.items import STDIN, read_pasted

    pasted = read_pasted(sys.stdin) if STDIN in items else ""
    chosen = selector(condition, language, from_, tag)
    changes = STATE.library.move(
        items, to, pasted=pasted, foil=foil, selector=chosen, dry_run=dry_run, force=force
    )
    print_changes(changes, dry_run, output)


TagArgument = Annotated[str, typer.Argument(metavar="TAG", help="A tag: trade, 'deck: Bog Stew'.")]


def _register_tagging(verb: str, doc: str) -> None:
    """tag and untag take the same arguments."""

    def run(
        label: TagArgument,
        items: Items,
        foil: EitherFinish = None,
        condition: Condition = None,
        language: Language = None,
        location: Location = None,
        dry_run: DryRun = False,
        force: opt.Unsleeve = False,
        output: ReportOutputOption = Output.table,
    ) -> None:  # fmt: skip
        from cardbase.collection.attributes import parse_tags
        from cardbase.collection.items import STDIN, read_pasted

        tags = parse_tags([label])
        if not tags:
            raise CardbaseError(f"'{label}' is not a tag: give a word such as trade")
        pasted = read_pasted(sys.stdin) if STDIN in items else ""
        chosen = selector(condition, language, location, [tags] if verb == "untag" else None)
        changes = STATE.library.move(
            items, tag=tags if verb == "tag" else None, untag=tags if verb == "untag" else None,
            pasted=pasted, foil=foil, selector=chosen, dry_run=dry_run, force=force,
        )  # fmt: skip
        print_changes(changes, dry_run, output)

    run.__doc__ = doc
    command(app, verb)(run)


_register_tagging(
    "tag",
    """Tag copies (all the copies an item names, unless it gives a count).

    \b
    Example: cardbase tag trade "1 U 139 x2" "Chugawug Cook foil"
    """,
)
_register_tagging(
    "untag",
    """Take a tag off copies (all the tagged copies an item names, unless it gives a count).

    \b
    Example: cardbase untag trade "1 U 139"
    """,
)


@command(app)
def undo(force: opt.Unsleeve = False, output: ReportOutputOption = Output.table) -> None:
    """Undo your last change to the collection: a command, or a whole import.

    \b
    Example: cardbase undo
    """
    with render.progress_bar() as progress:
        batch = STATE.library.undo(progress, force=force)
    _print_batch(batch, "Undid", "undo", output)


@command(app)
def redo(force: opt.Unsleeve = False, output: ReportOutputOption = Output.table) -> None:
    """Redo the change you last undid (until you make another change).

    \b
    Example: cardbase redo
    """
    _print_batch(STATE.library.redo(force=force), "Redid", "redo", output)


def _print_batch(batch: "Batch | None", done: str, verb: str, output: Output) -> None:
    """What undo or redo did: the batch (what command or import, when) and each change."""
    if output is Output.json:
        render.print_json(batch.to_dict() if batch else None)
        return
    if batch is None:
        render.echo(f"Nothing to {verb}.")
        return
    changes = plural(len(batch.changes), "change")
    lines = [f"{done} {batch.source} ({batch.created_at}, batch {batch.id}), {changes}:"]
    lines += [f"  {change.describe()}" for change in batch.changes]
    render.echo("\n".join(lines))  # one write: 90k echo calls were a third of a big undo


@command(app)
def history(
    limit: Annotated[
        int,
        typer.Option(
            "--limit", "-n", parser=opt.whole_number, metavar="N", help="Show the last N batches."
        ),
    ] = 20,
    output: OutputOption = Output.table,
) -> None:
    """Show recent changes to the collection, newest first.

    \b
    Example: cardbase history --limit 5
    """
    from cardbase.collection.stats import history as read_history

    with STATE.connect() as conn:
        batches = read_history(conn, limit)
    if output is Output.json:
        render.print_json([batch.to_dict() for batch in batches])
        return
    rows = [
        (
            str(b.id),
            b.created_at,
            b.source + (" (undone)" if b.undone else ""),
            f"{c.delta:+d}",
            c.holding.describe(),
            c.card.label(),
        )
        for b in batches
        for c in b.changes
    ]
    if output is Output.csv:
        render.print_csv(["batch", "when", "source", "delta", "copies", "card"], rows)
    elif rows:
        render.print_table(("Batch", "When", "Source", "Change", "Copies", "Card"), rows)
    else:
        render.echo("No changes yet.")


def _bar(part: int, whole: int, width: int = 20) -> str:
    filled = round(width * part / whole) if whole else 0
    return "#" * filled + "." * (width - filled)


@command(app)
def stats(
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="Which game's cards (default: cardbase --game, "
            "$CARDBASE_GAME or the config file's game, else Free Realms).",
        ),
    ] = None,
    output: OutputOption = Output.table,
) -> None:
    """Collection totals, completion per series, rarity and sphere, and copies per location
    and condition.

    \b
    Example: cardbase stats
    """
    from cardbase.collection.stats import STATS_CSV_HEADER
    from cardbase.games import GAMES, known_game

    if game is not None:
        try:
            known_game(game)
        except CardbaseError as exc:
            raise CardbaseError(f"stats --game: {exc.message}") from None
    found = STATE.library.stats(game)
    if output is Output.json:
        render.print_json(found.to_dict())
        return
    totals, groups, copies = found.totals, found.groups, found.copies
    if output is Output.csv:
        render.print_csv(STATS_CSV_HEADER, found.csv_rows())
        return
    render.echo(
        f"{plural(totals.cards, 'card')} owned ({totals.nonfoil:,} non-foil, "
        f"{totals.foil:,} foil), {totals.distinct:,} distinct, of {GAMES[found.game].title}"
    )
    for key, group in groups.items():
        render.print_table(
            (key.title(), "Complete", "Either", "Non-foil", "Foil"),
            [
                (
                    row.group,
                    _bar(row.either, row.catalogue),
                    f"{row.either}/{row.catalogue}",
                    f"{row.nonfoil}/{row.catalogue}",
                    f"{row.foil}/{row.catalogue}",
                )
                for row in group
            ],
        )
    for key, parts in copies.items():
        if parts:  # nothing held: no locations or conditions to show
            render.print_table(
                (key.title(), "Copies", "Non-foil", "Foil", "Distinct cards"),
                [(p.group, *map(str, (p.copies, p.nonfoil, p.foil, p.distinct))) for p in parts],
            )


def missing(
    foil: Annotated[bool, typer.Option("--foil", help="Missing in foil.")] = False,
    nonfoil: Annotated[bool, typer.Option("--nonfoil", help="Missing in non-foil.")] = False,
    show_all: opt.ShowAll = False,
    output: OutputOption = Output.table,
    *,
    filters: dict[str, str | bool | None],
) -> None:
    """List the cards you still need to complete a set (either finish unless one is given).

    \b
    Example: cardbase missing --series 1 --rarity R --foil
    """
    from cardbase.cli.search import checked
    from cardbase.query import search as lib

    query = lib.missing_query(filters, FOIL if foil else NONFOIL if nonfoil else None)
    with STATE.connect() as conn:
        query = checked(conn, query)
        cards, hidden = search_page(conn, query, None, show_all, output)
    render.print_cards(cards, output)
    print_hidden(hidden)
    if output is Output.table:
        render.echo(f"{len(cards) + hidden} missing", err=True)


# A missing card has no copies: the copy options (--condition, --tag ...) would find none.
_COPY_OPTIONS = tuple(field.name for field in OPTION_FIELDS if field.kind in HOLDING_KINDS)
command(app, "missing")(opt.with_filters(missing, skip=("owned", FOIL, NONFOIL, *_COPY_OPTIONS)))
