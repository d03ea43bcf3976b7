"""Fixtures: small catalogues in tests/data, new databases copied from templates made once
per session, a CLI runner. What modules share besides fixtures is in tests/helpers.py."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import typer.testing
from hypothesis import settings

from cardbase.library import Library

# A database a test creates without naming a catalogue starts from the sample: most tests
# were written for its cards (Chugawug Cook is 1 C 14), module fixtures included, which run
# before any function fixture could set this. Tests of the real catalogue name it.
os.environ["CARDBASE_CATALOGUE"] = "sample"

from cardbase.db.location import PostgresUrl
from tests import helpers

# Re-exported for the modules that import them from here.
from tests.helpers import (  # noqa: F401
    DATA,
    FORMULA_NAME,
    FORMULA_ROWS,
    MINI_CATALOGUE,
    QUERY_TOKENS,
    ROOT,
    Run,
    copy_database,
    database_checksum,
    formula_database,
    new_database,
    subprocess_env,
)

# Property tests check what is true, not how fast: hypothesis's 200 ms deadline per example
# failed a deck code's round trip on a machine busy with other work. Speed is measured in
# benchmarks/, never in tests.
settings.register_profile("cardbase", deadline=None)
settings.load_profile("cardbase")

# Every CliRunner.invoke builds the click command from the app anew; once per app will do.
typer.testing._get_command = helpers.built_command  # type: ignore[attr-defined]


@pytest.fixture(scope="session", autouse=True)
def database_templates(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[helpers.DatabaseTemplates]:
    """The session's template databases, one per catalogue, which `new_database` copies
    (each xdist worker has its own)."""
    templates = helpers.DatabaseTemplates(tmp_path_factory.mktemp("templates"))
    helpers.use_templates(templates)
    yield templates
    helpers.use_templates(None)


@pytest.fixture(autouse=True)
def _nothing_left_to_tell() -> Iterator[None]:
    """A test starts with nothing pending to tell (`cardbase.notices`): what a library call
    in the test before had to say is not printed by this test's command."""
    from cardbase import notices

    notices.take()
    yield
    notices.take()


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
    """A new database of the mini catalogue (a copy of its template)."""
    return new_database(tmp_path / "mini.db", MINI_CATALOGUE)


@pytest.fixture
def conn(db_path: Path) -> sqlite3.Connection:

    connection = Library(db_path).connect()
    yield connection  # type: ignore[misc]
    connection.close()


@pytest.fixture
def run(db_path: Path) -> Run:
    return Run(db_path)


@pytest.fixture
def checksum() -> Callable[[Path], str]:
    return database_checksum


@pytest.fixture
def two_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """A database of the sample with Wildhearts' cards too, whose codes repeat Free Realms'
    (1 C 41), and no game chosen by the config or $CARDBASE_GAME."""
    monkeypatch.setenv("CARDBASE_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.delenv("CARDBASE_GAME", raising=False)
    run = Run(new_database(tmp_path / "two.db"))
    helpers.ok(run, "catalog", "import", str(ROOT / "wildhearts-cards.csv"))
    return run


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
    cluster = pg_cluster.Cluster(binaries, parent=pg_cluster.memory_folder())
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


@pytest.fixture(scope="session")
def pg_sample_template(postgres_server: str) -> Iterator[str]:
    """A database on the test server made once as a first open makes one (the sample
    catalogue, the default collector), for `pg_sample` to copy: PostgreSQL's own template
    databases, as the SQLite tests copy template files."""
    from cardbase.library import Library

    for url in postgres_database(postgres_server):
        Library.open(url)  # every connection closed again: a template must have none
        yield url.url.rsplit("/", 1)[1]


@pytest.fixture
def pg_sample(postgres_server: str, pg_sample_template: str) -> Iterator[PostgresUrl]:
    """A new database holding what a first open of an empty one makes, copied from
    `pg_sample_template` (about 20 ms, where making it takes over a second)."""
    yield from postgres_database(postgres_server, template=pg_sample_template)


@pytest.fixture(scope="session")
def pg_templates(postgres_server: str) -> Iterator[PostgresTemplates]:
    """The session's template databases on the test server, one per catalogue, which
    `pg_mini` and the modules' databases copy (each xdist worker has its own server)."""
    templates = PostgresTemplates(postgres_server)
    try:
        yield templates
    finally:
        templates.drop()


@pytest.fixture
def pg_mini(pg_templates: PostgresTemplates) -> Iterator[PostgresUrl]:
    """A new database of the mini catalogue as `postgres_schema.prepare` makes one, copied
    from its template; dropped afterwards."""
    yield from pg_templates.copy(MINI_CATALOGUE)


def postgres_database(server: str, template: str | None = None) -> Iterator[PostgresUrl]:
    import uuid

    import psycopg

    name = f"cardbase_test_{uuid.uuid4().hex[:12]}"
    copied = f" TEMPLATE {template}" if template else ""
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}{copied}")
    try:
        yield PostgresUrl(f"{server.rsplit('/', 1)[0]}/{name}")
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class PostgresTemplates:
    """New PostgreSQL databases as `postgres_schema.prepare` makes them, made once per
    catalogue (by its contents) and copied with CREATE DATABASE ... TEMPLATE, as
    `helpers.DatabaseTemplates` does for SQLite files: what the schema, the full-text
    vectors and the catalogue take to make, a copy takes a fraction of.

    A copy holds what the template holds (only the default collector's created_at is the
    time the template was made). Tests of creating a database itself (first runs,
    upgrades, db copy into an empty one) start from `pg_url`, an empty database, instead.
    """

    def __init__(self, server: str) -> None:
        self.server = server
        self._made: dict[str, str] = {}

    def template(self, catalogue: Path) -> str:
        """The name of the template database of `catalogue`, made the first time."""
        import hashlib
        import uuid

        import psycopg

        from cardbase.db.postgres import schema as postgres_schema

        key = hashlib.sha256(catalogue.read_bytes()).hexdigest()[:16]
        name = self._made.get(key)
        if name is None:
            # a name of its own: workers may share a server ($CARDBASE_TEST_POSTGRES)
            name = f"cardbase_template_{uuid.uuid4().hex[:12]}"
            with psycopg.connect(self.server, autocommit=True) as admin:
                admin.execute(f"CREATE DATABASE {name}")
            url = PostgresUrl(f"{self.server.rsplit('/', 1)[0]}/{name}")
            # every connection closed again: a database with one cannot be a template
            postgres_schema.prepare(url, Library(url), catalogue)
            with psycopg.connect(self.server, autocommit=True) as admin:
                # and none may write to it, even by mistake, nor connect to it (copies can)
                admin.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false")
            self._made[key] = name
        return name

    def copy(self, catalogue: Path) -> Iterator[PostgresUrl]:
        """A new database copied from `catalogue`'s template, dropped when the generator
        is closed (as `postgres_database`, whose fixtures yield from it)."""
        yield from postgres_database(self.server, template=self.template(catalogue))

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as admin:
            for name in self._made.values():
                admin.execute(f"DROP DATABASE IF EXISTS {name}")
        self._made.clear()
