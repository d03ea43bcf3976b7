"""What test modules share: paths, the CLI runner, database checksums and copies, new
databases copied from templates, and the assertions more than one module makes.

tests/conftest.py holds the fixtures; it re-exports these names for modules that still
import them from there.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

import typer
import typer.main
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.library import Library

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
MINI_CATALOGUE = DATA / "mini_cards.csv"

# Words and query syntax that users type and that mean something to FTS5 or SQL: the
# property tests glue them (and random text) into query soups.
QUERY_TOKENS = [
    "dragon",
    "chug*",
    "or",
    "OR",
    "and",
    "not",
    "near",
    "(",
    ")",
    "-",
    '"',
    "'",
    "!",
    "/",
    "s:chaos",
    "t:",
    "cost>=2",
    "atk>def",
    "r>=r",
    "gem:rr",
    "is:hero",
    "order:-cost",
    "1U132",
    ":",
    "..",
    "cost:2..4",
    '"draw a',
    "name:/x/",
    "-(",
    "NEAR(a b)",
    "NEAR(",
    "*",
    "^",
    "{name}",
    "o:stun",
    "; DROP TABLE card; --",
    "cond>=lp",
    "cond:",
    "lang:fr",
    'in:"binder 1"',
    "in:none",
    "tag:trade,",
    "tag!=none",
]


def subprocess_env() -> dict[str, str]:
    """The environment for `python -m cardbase` children: they import this worktree's package,
    whatever the current directory and whichever cardbase is installed."""
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


_built: dict[int, tuple[typer.Typer, tuple[object, ...], object]] = {}


def built_command(typer_app: typer.Typer):  # -> the vendored click's Command
    """`typer.main.get_command`, once per app rather than on every `CliRunner.invoke`:
    building cardbase's forty commands (their signatures, their type hints) costs some
    60 ms, more than most commands take to run; a process of the installed `cardbase` builds
    once too. Built anew when what the build reads changes: the commands registered, the
    completion options, and the variable that turns typer's shell detection off.
    tests/conftest.py puts this in `typer.testing`."""
    shape = (
        len(typer_app.registered_commands),
        len(typer_app.registered_groups),
        typer_app._add_completion,
        os.environ.get("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"),
    )
    hit = _built.get(id(typer_app))
    if hit is None or hit[0] is not typer_app or hit[1] != shape:
        hit = (typer_app, shape, typer.main.get_command(typer_app))
        _built[id(typer_app)] = hit
    return hit[2]


class Run:
    """Invoke the CLI against one database, as a user would type it."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(app, ["--db", str(self.db_path), *args], input=input)


def ok(run: Run, *args: str, input: str | None = None) -> str:
    """The standard output of a command that must succeed."""
    result = run(*args, input=input)
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def assert_one_line(result, code: int = 2) -> str:
    """A command that failed with `code` and said why in one line of standard error."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    assert result.stderr.startswith("cardbase: ") and result.stderr.count("\n") == 1
    return result.stderr


def owned(run: Run) -> dict[tuple[str, str], int]:
    """The collection as {(code, finish): copies}, from `collection -o json`."""
    counts = {}
    for card in json.loads(run("collection", "-o", "json").stdout):
        for finish in ("nonfoil", "foil"):
            if card[finish]:
                counts[(card["code"], finish)] = card[finish]
    return counts


def database_checksum(path: Path) -> str:
    """A digest over the header and every row of every table: equal before and after means
    nothing changed."""
    digest = hashlib.sha256()
    with sqlite3.connect(path) as connection:
        for pragma in ("application_id", "user_version"):
            digest.update(repr(connection.execute(f"PRAGMA {pragma}").fetchone()).encode())
        tables = [
            r[0]
            for r in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'card_fts%' "
                "ORDER BY name"
            )
        ]
        for table in tables:
            digest.update(table.encode())
            for row in connection.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(repr(row).encode())
    return digest.hexdigest()


def copy_database(source: Path, target: Path) -> Path:
    """A consistent copy (WAL included) through SQLite's online backup."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


# -- new databases, copied from templates ----------------------------------------------------


# What fills a new database for a fixture: given the database's path, it writes through the
# CLI or the library and closes every connection it opened.
Build = Callable[[Path], object]


class DatabaseTemplates:
    """New SQLite databases as `schema.prepare` makes them, made once per catalogue (by its
    contents) and copied: a copy takes a few milliseconds where the schema, the full-text
    index and the catalogue take some 40.

    A copy is the template's bytes, so it has the same header (schema version, application
    id, WAL mode), the catalogue and the default collector; only that collector's
    created_at is the time the template was made. Tests of creating a database itself (db
    init, first runs, upgrades) call `schema.prepare` or the CLI, not this.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._made: dict[str, Path] = {}

    def template(self, catalogue: Path, build: Build | None = None) -> Path:
        """The template database of `catalogue`, made the first time it is asked for; with
        `build`, the template of what `build` makes of a new database of `catalogue`."""
        from cardbase.db import schema

        key = hashlib.sha256(catalogue.read_bytes()).hexdigest()[:16]
        if build is not None:
            key = f"{key}-{build.__module__}.{build.__qualname__}"
        made = self._made.get(key)
        if made is None:
            if build is None:
                made = self.folder / f"{key}.db"
                schema.prepare(made, Library(made), catalogue)
            else:  # a folder of its own, for any file `build` writes beside the database
                folder = self.folder / key
                folder.mkdir()
                made = folder / "template.db"
                shutil.copyfile(self.template(catalogue), made)  # writable: a copy's own mode
                try:
                    build(made)
                    # a connection only a reference cycle keeps (sqlite3's, once it has run a
                    # statement) closes when the collector next runs: now, not by chance
                    gc.collect()
                except BaseException:
                    shutil.rmtree(folder)  # the next test that asks builds it again
                    raise
            sides = [p for p in (Path(f"{made}-wal"), Path(f"{made}-journal")) if p.exists()]
            assert not sides, f"the template {made} was left with {sides}: it cannot be copied"
            made.chmod(0o444)  # no test writes to a template, even by mistake
            self._made[key] = made
        return made

    def new(self, path: Path, catalogue: Path | None = None, build: Build | None = None) -> Path:
        """A new database at `path` from `catalogue` (default: the one cardbase would pick,
        $CARDBASE_CATALOGUE's): a copy of the template, where `schema.prepare` would create
        one; anything else (a file already there, no such folder) goes to `schema.prepare`.

        With `build` (a module-level function of a database's path that fills it through the
        CLI or the library, as a fixture would for each test), a copy of what `build` made
        of the template once: the same rows, made once a session rather than once a test."""
        from cardbase.catalog.choice import new_database_catalogue
        from cardbase.db import schema

        chosen = catalogue if catalogue is not None else new_database_catalogue()
        if path.exists() or not path.parent.is_dir():
            schema.prepare(path, Library(path), chosen)
            if build is not None:
                build(path)
            return path
        shutil.copyfile(self.template(chosen, build), path)
        return path


_templates: DatabaseTemplates | None = None


def use_templates(templates: DatabaseTemplates | None) -> None:
    """Where `new_database` keeps its templates: the session's, set by tests/conftest.py."""
    global _templates
    _templates = templates


def new_database(path: Path, catalogue: Path | None = None, build: Build | None = None) -> Path:
    """A new database at `path`, copied from the session's template of `catalogue`, or of
    what `build` makes of one (see `DatabaseTemplates.new`)."""
    global _templates
    if _templates is None:  # outside a pytest session: templates in a folder of their own
        _templates = DatabaseTemplates(Path(tempfile.mkdtemp(prefix="cardbase-templates-")))
    return _templates.new(path, catalogue, build)


# Cards whose name, traits, text and lore a spreadsheet would run as formulas or read as an
# error value, were they not stored as text.
FORMULA_NAME = '=HYPERLINK("http://x","y")'
FORMULA_ROWS = (
    '3 C 1,"=HYPERLINK(""http://x"",""y"")",Trick,,Order,"@Maneuver",1,,,Y,"=1+2 attack","-lore"\n'
    "3 C 2,#N/A,Trick,,Order,,1,,,Y,+SUM(A1),\n"
)


def formula_database(tmp_path: Path) -> tuple[Path, Path]:
    """The mini catalogue plus `FORMULA_ROWS`, as a catalogue file and a database made from it."""
    catalogue = tmp_path / "formulas.csv"
    catalogue.write_text(MINI_CATALOGUE.read_text() + FORMULA_ROWS)
    return catalogue, new_database(tmp_path / "formulas.db", catalogue)
