"""Deck commands: check, stats, and saved decks (save, list, show, delete, export, sheet,
code, import, proxies)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.render import CHECK, CROSS
from cardbase.cli.root import (
    STATE,
    Output,
    OutputOption,
    ReportOutputOption,
    YesOption,
    app,
    command,
    confirm,
    with_examples,
)
from cardbase.decks import builder
from cardbase.errors import first_few
from cardbase.text import a, plural

if TYPE_CHECKING:
    from cardbase.decks.operations import BuiltDeck

deck_app = typer.Typer(
    help=with_examples(
        "Check, describe and keep deck lists.",
        "cardbase deck check my-deck.txt --owned",
        "cardbase deck save my-deck.txt --name 'Bog Stew'",
        "cardbase deck show 'Bog Stew' -o csv",
        "cardbase deck build --sphere chaos --heroes 3 --save",
    ),
    no_args_is_help=True,
)
app.add_typer(deck_app, name="deck")

DeckArg = Annotated[
    str, typer.Argument(metavar="FILE|NAME", help="A deck list file (.txt, .xlsx, .csv).")
]
FormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        help="free-realms or wildhearts-ffa (default: a saved deck's own, else the config "
        "file's, else free-realms).",
    ),
]
PlayersOption = Annotated[
    int | None,
    typer.Option("--players", min=1, help="Player count, for formats that vary by it (3 or 4)."),
]


@command(deck_app, "check")
def check(
    decks: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE|NAME|DIR...",
            help="Deck list files (.txt, .xlsx, .ods, .csv), a saved deck's name, or folders "
            "of deck files (the tournament desk: one line a deck).",
        ),
    ],
    format_: FormatOption = None,
    players: PlayersOption = None,
    owned: Annotated[
        bool, typer.Option("--owned", help="Also check your collection has every card.")
    ] = False,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            readable=False,
            metavar="FILE.xlsx",
            help="Also write a workbook: every deck and its problems, and a sheet for each "
            "invalid deck.",
        ),
    ] = None,
    force: opt.Overwrite = False,
    output: OutputOption = Output.table,
) -> None:
    """Check decks against a format's rules; every problem is listed. Exit 1 if any deck is
    invalid (or, among several, unreadable).

    \b
    Example: cardbase deck check my-deck.txt --owned
    Example: cardbase deck check entries/ --format wildhearts-ffa --report desk.xlsx
    """
    if len(decks) > 1 or report is not None or Path(decks[0]).is_dir():
        from cardbase.cli.desk import check_many

        check_many(decks, format_, players, owned, report, force, output)
        return
    found = STATE.library.check_deck(
        decks[0], format_, players, owned, default_format=STATE.config.get("format")
    )
    if output is Output.json:
        render.print_json(found.to_dict())
    elif output is Output.csv:
        render.print_csv(
            ["code", "message", "lines", "fix"],
            [[p.code, p.message, " ".join(map(str, p.lines)), p.fix or ""] for p in found.problems],
        )
    else:
        mark = f"{CHECK} valid" if found.valid else f"{CROSS} invalid"
        players_note = f", {found.players} players" if found.format.players else ""
        render.echo(
            f"{mark}: {found.source}, {plural(found.cards, 'card')}, "
            f"{found.format.title}{players_note}"
        )
        for problem in found.problems:
            render.echo(f"  {problem.describe()}")
    if not found.valid:
        raise typer.Exit(1)


@command(deck_app, "stats")
def stats(deck: DeckArg, format_: FormatOption = None, output: OutputOption = Output.table) -> None:
    """Card count, average gems per card, sections, gem colours, spheres, types, heroes and
    cost curve. -o csv is one number a row: stat, key, value.

    \b
    Example: cardbase deck stats my-deck.txt
    """
    from cardbase.decks.check import STATS_CSV_HEADER

    stats = STATE.library.deck_stats(deck, format_, STATE.config.get("format"))
    if output is Output.json:
        render.print_json(stats.to_dict())
        return
    if output is Output.csv:
        render.print_csv(STATS_CSV_HEADER, stats.csv_rows())
        return
    render.echo(
        f"{plural(stats.cards, 'card')}, average gems per card {stats.average_gems:.2f}, "
        f"{stats.heroes} heroes"
    )
    if len(stats.sections) > 1:
        render.echo("Sections: " + ", ".join(f"{s} {n}" for s, n in stats.sections.items()))
    render.echo("Gems:    " + ", ".join(f"{c} {n}" for c, n in stats.gem_colours.items()))
    if stats.spheres:
        render.echo("Spheres: " + ", ".join(f"{s} {n}" for s, n in stats.spheres.items()))
    render.echo("Types:   " + ", ".join(f"{t} {n}" for t, n in stats.types.items()))
    render.echo(" and ".join(stats.curve_types) + " cost curve:")
    for cost, count in stats.cost_curve.items():
        render.echo(f"  {cost:>2} | {'#' * count} {count}")


@command(deck_app, "save")
def save(
    file: Annotated[Path, typer.Argument(readable=False, help="The deck list to save.")],
    name: Annotated[str, typer.Option("--name", "-n", help="The deck's name.")],
    format_: FormatOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a saved deck of that name.")
    ] = False,
) -> None:
    """Save a deck list under a name (every line must name a card; the deck need not be legal).

    \b
    Example: cardbase deck save my-deck.txt --name "Bog Stew"
    """
    saved, fmt = STATE.library.save_deck(
        file, name, format_, replace=force, default_format=STATE.config.get("format")
    )
    render.echo(f"Saved '{saved.name}': {plural(saved.cards, 'card')}, {fmt.title}")


@command(deck_app, "list")
def list_(output: OutputOption = Output.table) -> None:
    """List saved decks, each with its copies owned, owned but in other built decks, free
    for it, and sleeved in it ('deck sleeve').

    \b
    Example: cardbase deck list
    """
    decks = STATE.library.decks()
    if output is Output.json:
        render.print_json([{**deck.to_dict(), **copies.to_dict()} for deck, copies in decks])
    elif output is Output.csv:
        render.print_csv(
            ["name", "format", "cards", "updated_at", "owned", "in_decks", "free", "sleeved"],
            [[d.name, d.format, d.cards, d.updated_at, *c] for d, c in decks],
        )
    elif decks:
        render.print_table(
            ("Name", "Format", "Cards", "Owned", "In decks", "Free", "Sleeved", "Saved"),
            [(d.name, d.format, str(d.cards), *map(str, c[:3]), _sleeved(d.cards, c.sleeved),
              d.updated_at) for d, c in decks],
        )  # fmt: skip
    else:
        render.echo("No saved decks. 'cardbase deck save FILE --name NAME' saves one.")


def _sleeved(cards: int, sleeved: int) -> str:
    """'built' when every copy is sleeved, else how many are."""
    return "built" if cards and sleeved >= cards else str(sleeved) if sleeved else ""


@command(deck_app, "show")
def show(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    output: OutputOption = Output.table,
) -> None:
    """Print a saved deck as a deck list (which deck check and deck save read back), or its
    entries as json or csv.

    \b
    Example: cardbase deck show "Bog Stew" -o csv
    """
    from cardbase.decks.saved import deck_text, find_deck, saved_placed

    with STATE.connect() as conn:
        placed = saved_placed(conn, find_deck(conn, name))
        text = deck_text(conn, placed) if output is Output.table else ""
    rows = [[p.line.section, p.line.copies, str(p.card.code), p.card.name] for p in placed]
    if output is Output.json:
        keys = ("section", "copies", "code", "name")
        render.print_json([dict(zip(keys, row, strict=True)) for row in rows])
    elif output is Output.csv:
        render.print_csv(["section", "copies", "code", "name"], rows)
    else:
        render.echo(text, nl=False)


@command(deck_app, "delete")
def delete(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")], yes: YesOption = False
) -> None:
    """Delete a saved deck (on a terminal, after asking: undo cannot bring it back).

    \b
    Example: cardbase deck delete "Bog Stew" --yes
    """
    from cardbase.decks.saved import delete_deck, deleted, find_deck
    from cardbase.text import plural

    with STATE.connect() as conn:
        deck = find_deck(conn, name)
    confirm(f"Delete the deck '{deck.name}' ({plural(deck.cards, 'card')})?", yes)
    render.echo(deleted(deck, delete_deck(STATE.library, deck)))


@command(deck_app, "export")
def export(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    file: Annotated[Path, typer.Argument(readable=False, help="Where to write: .txt or .xlsx.")],
    force: opt.Overwrite = False,
) -> None:
    """Export a saved deck as a text list, or a workbook with a stats sheet and cost chart.

    \b
    Example: cardbase deck export "Bog Stew" bog-stew.xlsx
    """
    deck = STATE.library.export_deck(name, file, force=force)
    render.echo(f"{file}: '{deck.name}' written")


@command(deck_app, "code")
def code(deck: DeckArg, format_: FormatOption = None, output: OutputOption = Output.table) -> None:
    """Print a deck's code: a short text to paste in a chat, which 'deck import' reads back.

    \b
    Example: cardbase deck code "Bog Stew"
    """
    made = STATE.library.deck_code(deck, format_, default_format=STATE.config.get("format"))
    if output in (Output.json, Output.jsonl):
        render.print_json({"deck": deck, "code": made})
    elif output in (Output.csv, Output.tsv):
        render.print_csv(["deck", "code"], [[deck, made]])
    else:
        render.echo(made)


@command(deck_app, "odds")
def odds(
    deck: DeckArg,
    queries: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[QUERY]...",
            help="Cards to draw, as search queries ('t:creature cost=2'); several: each of them.",
        ),
    ] = None,
    at_least: Annotated[int, typer.Option("--at-least", min=0, help="Cards of each.")] = 1,
    hand: Annotated[
        int | None, typer.Option("--cards", min=0, help="Cards seen (default: the opening hand).")
    ] = None,
    by_turn: Annotated[
        int | None, typer.Option("--by-turn", min=1, help="Cards seen by this turn's draw.")
    ] = None,
    second: Annotated[
        bool, typer.Option("--second", help="Going second: a draw on the first turn too.")
    ] = False,
    output: OutputOption = Output.table,
) -> None:
    """The exact chance of drawing the cards you want: in the opening hand, by a turn, or in
    so many cards.

    \b
    Example: cardbase deck odds "Bog Stew" "t:creature cost=2"
    Example: cardbase deck odds "Bog Stew" "Mistfen Bog" --at-least 2 --by-turn 3
    """
    from cardbase.query.argv import argument_term

    asked = [argument_term(query) for query in queries or []]  # `!Mistfen Bog` as one name
    found = STATE.library.deck_odds(
        deck, asked, at_least=at_least, draws=hand, turn=by_turn, first_player=not second
    )
    if output in (Output.json, Output.jsonl):
        render.print_json(found.to_dict())
    elif output in (Output.csv, Output.tsv):
        render.print_csv(
            ["query", "in_deck", "at_least", "cards_seen", "chance"],
            [[g.label, g.copies, g.wanted, found.draws, f"{float(found.chance):.6f}"]
             for g in found.groups],
        )  # fmt: skip
    else:
        render.echo(found.describe())


@command(deck_app, "diff")
def diff(
    old: Annotated[
        str, typer.Argument(metavar="OLD", help="A deck file, saved deck, or NAME@N (a version).")
    ],
    new: Annotated[
        str, typer.Argument(metavar="NEW", help="A deck file, saved deck, or NAME@N (a version).")
    ],
    output: OutputOption = Output.table,
) -> None:
    """What changed between two decks: cards added, removed and recounted, per section.

    \b
    Example: cardbase deck diff "Bog Stew" new-stew.txt
    Example: cardbase deck diff "Bog Stew@1" "Bog Stew"
    """
    changes = STATE.library.diff_decks(old, new)
    if output in (Output.json, Output.jsonl):
        render.print_json([change.to_dict() for change in changes])
    elif output in (Output.csv, Output.tsv):
        render.print_csv(
            ["section", "card", "before", "after", "kind"],
            [[c.section, c.card, c.before, c.after, c.kind] for c in changes],
        )
    elif not changes:
        render.echo("The decks hold the same cards.")
    else:
        section = None
        for change in changes:
            if change.section != section:
                section = change.section
                render.echo(f"{section.title()}:")
            render.echo(f"  {change.describe()}")


@command(deck_app, "history")
def history(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    output: OutputOption = Output.table,
) -> None:
    """A saved deck's versions (every save is one): when, its format, its cards, and what
    it changed from the version before. 'deck diff NAME@1 NAME@3' compares two.

    \b
    Example: cardbase deck history "Bog Stew"
    """
    deck, versions = STATE.library.deck_history(name)
    if output in (Output.json, Output.jsonl):
        render.print_json({"deck": deck.name, "versions": [v.to_dict() for v in versions]})
    elif output in (Output.csv, Output.tsv):
        keys = ["number", "saved_at", "format", "cards", "added", "removed", "changed"]
        render.print_csv(keys, [list(v) for v in versions])
    else:
        render.print_table(
            ("Version", "Saved", "Format", "Cards", "Changes"),
            [(str(v.number), v.saved_at, v.format, str(v.cards),
              f"{v.added} added, {v.removed} removed, {v.changed} changed")
             for v in versions],
        )  # fmt: skip


@command(deck_app, "restore")
def restore(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    version: Annotated[str, typer.Argument(metavar="N", help="The version ('deck history').")],
    output: ReportOutputOption = Output.table,
) -> None:
    """Save an old version's cards again as the deck's newest version; every version
    stays, so a restore can be undone by restoring the one before.

    \b
    Example: cardbase deck restore "Bog Stew" 2
    """
    done = STATE.library.restore_deck(name, version)
    if output in (Output.json, Output.jsonl):
        render.print_json(done.to_dict())
        return
    render.echo(
        f"Restored '{done.deck.name}' version {done.restored} as version {done.number}: "
        f"{plural(done.deck.cards, 'card')}"
    )


@command(deck_app, "sleeve")
def sleeve(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    take: Annotated[
        list[str] | None,
        typer.Option(
            "--take",
            metavar="ITEM",
            help="Copies to take first, as add reads them: 'Mistfen Bog foil lp', '1 C 14 x2 fr'.",
        ),
    ] = None,
    partial: Annotated[
        bool, typer.Option("--partial", help="Sleeve what is free; list the rest.")
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Mark a saved deck as built: its copies are taken from your free copies (the most worn
    first, non-foil before foil), so no other deck or trade counts them. Again after an
    edit: takes what the deck needs more, lets go what it no longer holds. Exit 1 if copies
    are lacking (nothing sleeved) unless --partial.

    \b
    Example: cardbase deck sleeve "Bog Stew"
    Example: cardbase deck sleeve "Bog Stew" --take "Mistfen Bog foil" --partial
    """
    done = STATE.library.sleeve_deck(name, take or [], partial=partial)
    if output in (Output.json, Output.jsonl):
        render.print_json(done.to_dict())
        return
    render.echo(
        f"'{done.deck}': {done.sleeved} of {plural(done.cards, 'card')} sleeved; "
        f"took {plural(sum(c.copies for c in done.taken), 'copy', 'copies')}, "
        f"released {sum(c.copies for c in done.released)}"
    )
    for copies in done.taken:
        render.echo(f"  took {copies.describe()}")
    for copies in done.released:
        render.echo(f"  released {copies.describe()}")
    if done.missing:
        import shlex

        render.echo("Not free, still missing: " + "; ".join(m.describe() for m in done.missing))
        render.echo(f"Print them: cardbase deck proxies {shlex.quote(done.deck)} OUT.pdf --missing")


@command(deck_app, "unsleeve")
def unsleeve(
    name: Annotated[str, typer.Argument(help="A saved deck's name.")],
    output: ReportOutputOption = Output.table,
) -> None:
    """Free a built deck's copies again (the deck stays saved).

    \b
    Example: cardbase deck unsleeve "Bog Stew"
    """
    done = STATE.library.unsleeve_deck(name)
    if output in (Output.json, Output.jsonl):
        render.print_json(done.to_dict())
        return
    if not done.released:
        render.echo(f"'{done.deck}' has no sleeved copies; nothing changed.")
        return
    freed = sum(c.copies for c in done.released)
    render.echo(f"'{done.deck}': {plural(freed, 'copy', 'copies')} free again")
    for copies in done.released:
        render.echo(f"  released {copies.describe()}")


@command(deck_app, "hand")
def hand(
    deck: DeckArg,
    cards: Annotated[
        int | None, typer.Option("--cards", min=1, help="Cards (default: the opening hand).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="Deal this hand again (it is printed).")
    ] = None,
    output: OutputOption = Output.table,
) -> None:
    """Deal a sample opening hand from a deck.

    \b
    Example: cardbase deck hand "Bog Stew"
    Example: cardbase deck hand "Bog Stew" --seed 4127
    """
    dealt = STATE.library.deal_hand(deck, cards, seed)
    if output in (Output.json, Output.jsonl):
        render.print_json(dealt.to_dict())
    elif output in (Output.csv, Output.tsv):
        render.print_csv(["seed", "card"], [[dealt.seed, card] for card in dealt.cards])
    else:
        render.echo(f"{dealt.deck}, seed {dealt.seed}:")
        for card in dealt.cards:
            render.echo(f"  {card}")


@command(deck_app, "import")
def import_code(
    code: Annotated[str, typer.Argument(metavar="CODE", help="A code 'deck code' printed.")],
    name: Annotated[str, typer.Option("--name", "-n", help="The deck's name.")],
    format_: Annotated[
        str | None,
        typer.Option("--format", "-f", help="The deck's format (default: its game's first)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a saved deck of that name.")
    ] = False,
) -> None:
    """Save the deck a deck code holds, under a name.

    \b
    Example: cardbase deck import CB1AAEAAQMBAQAOAQEBAQEBAQEBAQEBAQGxJw --name "From Ada"
    """
    saved, fmt = STATE.library.save_code(code, name, format_, replace=force)
    render.echo(f"Saved '{saved.name}': {plural(saved.cards, 'card')}, {fmt.title}")


@command(deck_app, "sheet")
def sheet(
    deck: DeckArg,
    file: Annotated[
        Path, typer.Argument(readable=False, help="Where to write the .xlsx registration sheet.")
    ],
    player: Annotated[str, typer.Option("--player", help="The player's name.")] = "",
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Overwrite the file; write a sheet marked NOT VALID for an illegal deck.",
        ),
    ] = False,
) -> None:
    """Write a printable tournament registration sheet for a deck file or saved deck; an
    illegal deck is refused (exit 1) unless --force.

    \b
    Example: cardbase deck sheet "Bog Stew" registration.xlsx --player "Ada"
    Example: cardbase deck sheet my-deck.txt ada.xlsx --player Ada --paper letter
    """
    report = STATE.library.registration_sheet(
        deck, file, player, paper, force=force, default_format=STATE.config.get("format")
    )
    note = "" if report.valid else f", marked NOT VALID ({plural(len(report.problems), 'problem')})"
    render.echo(f"{file}: registration sheet for '{report.source}' written{note}")


@command(deck_app, "proxies")
def proxies(
    deck: DeckArg,
    file: Annotated[Path, typer.Argument(readable=False, metavar="OUT.pdf", help="The PDF.")],
    missing: Annotated[
        bool, typer.Option("--missing", help="Only the copies your collection lacks.")
    ] = False,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
    force: opt.Overwrite = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Write a print-ready PDF of a deck's cards at true size (63 x 88 mm, nine a page, cut
    marks), each marked PROXY; with --missing only the copies you lack.

    \b
    Example: cardbase deck proxies "Bog Stew" bog-proxies.pdf --missing
    Example: cardbase deck proxies my-deck.txt proxies.pdf --paper letter
    """
    sheet = STATE.library.proxy_sheet(deck, file, missing=missing, paper=paper, force=force)
    if output in (Output.json, Output.jsonl):
        render.print_json(sheet.to_dict())
        return
    owned = f"; {plural(sheet.owned_left_out, 'copy', 'copies')} left out, owned" if missing else ""
    render.echo(
        f"{file}: {plural(sheet.copies, 'proxy', 'proxies')} of '{sheet.deck}' on "
        f"{plural(sheet.pages, 'page')} ({sheet.paper}){owned}"
    )
    if sheet.without_text:
        shown = ", ".join(first_few(sheet.without_text, 3, "more"))
        render.echo(
            f"{plural(len(sheet.without_text), 'card')} printed without game text ({shown}): "
            "'cardbase catalog import-client DIR' reads it from your game client",
            err=True,
        )
    if sheet.text_cut:
        shown = ", ".join(first_few(sheet.text_cut, 3, "more"))
        render.echo(
            f"game text too long for the card, cut short on {plural(len(sheet.text_cut), 'card')} "
            f"({shown})",
            err=True,
        )


@command(deck_app, "build")
def build(
    sphere: Annotated[str, typer.Option("--sphere", "-s", help=f"{', '.join(builder.spheres())}.")],
    heroes: Annotated[
        int | None,
        typer.Option(
            "--heroes",
            help=f"At most this many Heroes, 0 to {builder.MAX_HEROES} (default: two, and "
            "more only to fill what the sphere's cards cannot).",
        ),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name for --save.")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", readable=False, help="Write the deck list to this file.")
    ] = None,
    save: Annotated[bool, typer.Option("--save", help="Keep it as a saved deck.")] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Overwrite the --out file, and replace a saved deck."),
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Deck Builder Helper: a legal 40-card deck of one sphere plus Heroes from what you own;
    it says how it filled each part of the deck, and what it could not fill.

    \b
    Example: cardbase deck build --sphere chaos --heroes 3 --save
    """
    built = STATE.library.build_deck(sphere, heroes, save=save, name=name, out=out, force=force)
    result, stats = built.result, built.stats
    if result.shortage or built.report is None:
        short = result.shortage.cli if result.shortage else ""
        render.echo(f"{CROSS} cannot build {a(result.sphere)} deck: {short}", err=True)
        raise typer.Exit(1)
    if output is Output.json:
        render.print_json(
            {
                "sphere": result.sphere,
                "valid": built.report.valid,
                "deck": built.text,
                "stats": stats.to_dict(),
                "notes": result.notes,
                "left_out": result.left_out,
            }
        )
        return
    if out is None:
        render.echo(built.text, nl=False)
    _explain_build(built)


def _explain_build(built: BuiltDeck) -> None:
    """On stderr, so that stdout stays the deck list: the verdict, the deck's shape, how each
    part was filled and what was left out."""
    result, stats = built.result, built.stats
    mark = f"{CHECK} valid" if built.report and built.report.valid else f"{CROSS} invalid"
    render.echo(
        f"{mark}: {plural(stats.cards, 'card')}, average gems per card {stats.average_gems:.2f}",
        err=True,
    )
    render.echo(
        "Types: "
        + ", ".join(f"{t} {n}" for t, n in stats.types.items())
        + f"; Heroes {stats.heroes}",
        err=True,
    )
    render.echo(
        "Creature costs: " + ", ".join(f"{c}: {n}" for c, n in stats.cost_curve.items() if n),
        err=True,
    )
    for note in result.notes:
        render.echo(f"  {note}", err=True)
    notes = [f"left out: {note}" for note in result.left_out]
    for line in first_few(notes, builder.LEFT_OUT_SHOWN, "more left out"):
        render.echo(f"  {line}", err=True)
    if built.saved_as:
        render.echo(f"Saved as '{built.saved_as}'.", err=True)
