"""The tournament desk's output: `deck check FILES... | DIR`, one line a deck, and its
csv rows and report; `cli/decks.py` hands a check of several decks here."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cardbase.cli import render
from cardbase.cli.render import CHECK, CROSS
from cardbase.cli.root import STATE, Output
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.decks.batch import DeskLine


def check_many(
    targets: list[str],
    format_: str | None,
    players: int | None,
    owned: bool,
    report: Path | None,
    force: bool,
    output: Output,
) -> None:
    """The tournament desk: one line a deck (player or file, format, verdict)."""
    from cardbase.decks.batch import check_files, deck_files
    from cardbase.fileio.writing import check_target

    files = deck_files(targets)
    if report is not None:
        check_target(report, force, (".xlsx",))  # refused before any deck is read
        files = [file for file in files if file.resolve() != report.resolve()]  # last run's
    default = STATE.config.get("format")
    with STATE.connect() as conn, render.progress_bar() as progress:
        lines = check_files(conn, files, format_, players, owned, default, progress)
    if report is not None:
        from cardbase.decks.deskreport import write_desk_report

        write_desk_report(report, lines, force=force)
    if output is Output.json:
        render.print_json([line.to_dict() for line in lines])
    elif output is Output.csv:
        render.print_csv(
            ["file", "player", "format", "cards", "valid", "problems", "error"],
            [_csv_row(line) for line in lines],
        )
    else:
        for line in lines:
            render.echo(_desk_line(line))
    bad = sum(not line.valid for line in lines)
    summary = f"{plural(len(lines), 'deck')}: {len(lines) - bad} valid, {bad} not valid"
    render.echo(summary + (f"; report in {report}" if report else ""), err=True)
    if bad:
        raise typer.Exit(1)


def _desk_line(line: DeskLine) -> str:
    report = line.report
    who = f"{line.player} ({line.file})" if line.player else line.file
    if report is None:
        return f"{CROSS} {who}: unreadable: {line.error}"
    verdict = "valid" if line.valid else " ".join(line.codes())
    return f"{CHECK if line.valid else CROSS} {who}: {report.format.title}, {verdict}"


def _csv_row(line: DeskLine) -> list[object]:
    report = line.report
    return [
        line.file,
        line.player or "",
        report.format.key if report else "",
        report.cards if report else "",
        "yes" if line.valid else "no",
        " ".join(line.codes()),
        line.error or "",
    ]
