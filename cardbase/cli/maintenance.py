"""Safety commands: backup, restore, doctor."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.root import STATE, Output, OutputOption, app, command

GOOD, BAD = "\u2714", "\u2718"


@command(app)
def backup(
    file: Annotated[Path, typer.Argument(help="Where to write the copy.")],
    force: opt.Overwrite = False,
) -> None:
    """Copy the database safely, even while another cardbase command is running.

    \b
    Example: cardbase backup ~/cardbase-2026-11-29.db
    """
    from cardbase.maintenance import backup as make_backup

    render.echo(f"Backed up to {make_backup(STATE.db_path, file, force)}")


@command(app)
def restore(
    file: Annotated[Path, typer.Argument(help="A backup made by cardbase backup.")],
) -> None:
    """Replace the database with a backup (checked first); the replaced one is kept beside it.

    \b
    Example: cardbase restore ~/cardbase-2026-11-29.db
    """
    from cardbase.maintenance import restore as do_restore

    kept = do_restore(STATE.db_path, file)
    render.echo(f"Restored {STATE.db_path} from {file}")
    if kept:
        render.echo(f"The database it replaced is kept as {kept}")


@command(app)
def doctor(
    fix: Annotated[
        bool, typer.Option("--fix", help="Rebuild the full-text index if it is out of sync.")
    ] = False,
    output: OutputOption = Output.table,
) -> None:
    """Check the database: integrity, schema, references, full-text index. Exit 1 if unhealthy.

    \b
    Example: cardbase doctor --fix
    """
    from cardbase.db.health.doctor import doctor as examine

    findings = examine(STATE.db_path, fix)
    if output is Output.json:
        render.print_json([finding.to_dict() for finding in findings])
    elif output is Output.csv:
        render.print_csv(["check", "ok", "detail"], [list(finding) for finding in findings])
    else:
        for finding in findings:
            mark = GOOD if finding.ok else BAD
            render.echo(f"{mark} {finding.check}: {finding.detail}")
    if not all(finding.ok for finding in findings):
        raise typer.Exit(1)
