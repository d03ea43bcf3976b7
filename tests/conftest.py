"""Fixtures: small catalogues in tests/data, fresh databases made from them, a CLI runner."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.db import schema
from cardbase.db.location import PostgresUrl

ROOT = Path(__file__).resolve().parent.parent
# A database a test creates without naming a catalogue starts from the sample: most tests
# were written for its cards (Chugawug Cook is 1 C 14), module fixtures included, which run
# before any function fixture could set this. Tests of the real catalogue name it.
os.environ["CARDBASE_CATALOGUE"] = "sample"
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


@pytest.fixture(autouse=True)
def _no_user_database(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test may touch the real per-user database; new databases start from the sample
    (see CARDBASE_CATALOGUE above), whatever a test before this one did to the variable."""
    monkeypatch.setenv("CARDBASE_DB", str(tmp_path_factory.mktemp("home") / "default.db"))
    monkeypatch.setenv("CARDBASE_CATALOGUE", "sample")
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "mini.db"
    schema.prepare(path, catalogue=MINI_CATALOGUE)
    return path


@pytest.fixture
def conn(db_path: Path) -> sqlite3.Connection:
    from cardbase.db.connect import open_db

    connection = open_db(db_path)
    yield connection  # type: ignore[misc]
    connection.close()


class Run:
    """Invoke the CLI against one database, as a user would type it."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(app, ["--db", str(self.db_path), *args], input=input)


@pytest.fixture
def run(db_path: Path) -> Run:
    return Run(db_path)


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


@pytest.fixture
def checksum() -> Callable[[Path], str]:
    return database_checksum


def copy_database(source: Path, target: Path) -> Path:
    """A consistent copy (WAL included) through SQLite's online backup."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


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
    path = tmp_path / "formulas.db"
    schema.prepare(path, catalogue)
    return catalogue, path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for the tests: $CARDBASE_TEST_POSTGRES, else a throwaway cluster
    (tests/pg_cluster.py); without either the test skips, saying how to run it."""
    from tests import pg_cluster

    given = os.environ.get(pg_cluster.ENV_URL)
    if given:
        yield given
        return
    binaries = pg_cluster.server_binaries()
    missing = "psycopg" if not _importable("psycopg") else None
    if binaries is None or missing:
        reason = f"{missing} is not installed: pip install -e '.[test]'" if missing else ""
        reason = reason or pg_cluster.HOW_TO_RUN
        if os.environ.get(pg_cluster.ENV_REQUIRE) == "1":
            pytest.fail(f"{pg_cluster.ENV_REQUIRE}=1 but {reason}")
        pytest.skip(reason)
    cluster = pg_cluster.Cluster(binaries)
    url = cluster.start()
    try:
        yield url
    finally:
        cluster.stop()


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[PostgresUrl]:
    """A new, empty database on the test server, dropped afterwards."""
    yield from postgres_database(postgres_server)


def postgres_database(server: str) -> Iterator[PostgresUrl]:
    import uuid

    import psycopg

    name = f"cardbase_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield PostgresUrl(f"{server.rsplit('/', 1)[0]}/{name}")
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
