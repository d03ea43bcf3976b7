"""`cardbase db copy`: a whole database from SQLite to PostgreSQL and back, every row with its
id, verified; what may not be copied over is refused in one line, and a copy that fails
half-way leaves the target as it was."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from cardbase.db import transfer
from cardbase.db.location import PostgresUrl
from cardbase.db.postgres import schema as postgres_schema
from cardbase.db.postgres.connection import POSTGRES
from cardbase.db.sqlite import SQLITE
from cardbase.db.transfer import table_specs
from cardbase.library import Library
from tests.conftest import postgres_database
from tests.helpers import DATA, MINI_CATALOGUE, Run, database_checksum, ok
from tests.test_cli_foundation import one_line_error

# Each test makes PostgreSQL databases and copies whole ones: seconds, not milliseconds.
pytestmark = pytest.mark.slow

Rows = dict[str, list[tuple[Any, ...]]]


def copy(*args: str) -> Any:
    return Run(Path("unused.db"))("db", "copy", *args)


@pytest.fixture
def league_db(db_path: Path, run: Run, tmp_path: Path) -> Path:
    """Two collectors, holdings of every attribute, history with an undone batch, decks (one
    built, one saved twice), an event with a round paired, a player's report and the
    organiser's result, and a card's value of a game's own field."""
    ok(run, "collectors", "add", "Bo")
    ok(run, "add", "1 C 14 x2 foil lp fr", "--location", "Binder 1", "--tag", "trade",
       "--note", "signed by the artist")  # fmt: skip
    ok(run, "add", "1 U 15 x3", "--location", "binder 1")
    ok(run, "add", "1 C 1 x1", "--location", "Zebra box")  # before 'apple box' in bytes only
    ok(run, "add", "1 C 1 x1", "--location", "apple box", "--tag", "Zeta,alpha")
    ok(run, "add", "1 R 20 x1", "--location", "Böx", "--tag", "Foil,zeta", "--collector", "Bo")
    ok(run, "add", "1 C 14 x4", "--collector", "Bo")
    ok(run, "undo", "--collector", "Bo")  # Bo's last batch, undone: redo can bring it back
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n2 Chugawug Elder\n\nSideboard\n1 Mistfen Bog\n")
    ok(run, "deck", "save", str(deck), "--name", "Bog Stew")
    ok(run, "deck", "save", str(deck), "--name", "Bo's Stew", "--collector", "Bo")
    ok(run, "event", "create", "Spring Cup", "--format", "free-realms", "--seed", "3")
    for player in ("Ana", "Bo", "Cy"):  # an odd count: a bye too
        ok(run, "event", "register", "Spring Cup", player)
    ok(run, "deck", "sleeve", "Bog Stew", "--partial")  # built: copies in deck_sleeve
    ok(run, "deck", "save", str(deck), "--name", "Bog Stew", "--force")  # its version 2
    ok(run, "event", "pair", "Spring Cup")
    library = Library(db_path)
    first = library.event("Spring Cup").seats[0].first  # a player's own report, by code
    code = next(player.code for player in library.event("Spring Cup").players
                if player.name == first)  # fmt: skip
    library.player_report("Spring Cup", code, "2-1")
    ok(run, "event", "report", "Spring Cup", "--table", "1", "2-1")
    # a card with names in other languages, and a text in one as `catalog import-client`
    # writes them (the mini catalogue has neither)
    named = tmp_path / "named.csv"
    named.write_text(
        "code,name,type,sphere,cost,attack,defense,gems,name_de,name_fr\n"
        "9 C 1,Bog Cook,Creature,Nature,1,1,1,G,Sumpfkoch,Cuisinier des marais\n",
        encoding="utf-8",
    )
    ok(run, "catalog", "import", str(named))
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO card_text SELECT id, 'de', 'Betäube einen Gegner.', 'Sumpf.' FROM card "
            "WHERE name = 'Bog Cook'"
        )
        # a value of a game's own field, as a catalogue of such a game stores it (the
        # shipped games have none)
        conn.execute("INSERT INTO card_value SELECT id, 'dust', 3, NULL FROM card "
                     "WHERE name = 'Bog Cook'")  # fmt: skip
    return db_path


def sqlite_rows(path: Path) -> Rows:
    with sqlite3.connect(path) as conn:
        return {s.name: conn.execute(s.select(SQLITE)).fetchall() for s in table_specs()}


def postgres_rows(url: PostgresUrl) -> Rows:
    """As SQLite holds them: booleans as 0 and 1."""
    with psycopg.connect(url.url) as conn:
        found = {}
        for spec in table_specs():
            rows = conn.execute(spec.select(POSTGRES)).fetchall()
            found[spec.name] = [tuple(map(_as_sqlite, row)) for row in rows]
    return found


def _as_sqlite(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def test_a_round_trip_through_postgresql_keeps_every_row(
    league_db: Path, pg_url: PostgresUrl, tmp_path: Path
) -> None:
    before = sqlite_rows(league_db)
    assert all(before[table] for table in before)  # every table has rows to copy
    report = json.loads(ok(Run(league_db), "db", "copy", str(league_db), pg_url.url, "-o", "json"))
    counts = {entry["table"]: entry["rows"] for entry in report["tables"]}
    assert counts == {table: len(rows) for table, rows in before.items()}
    assert report["replaced"] is False
    assert postgres_rows(pg_url) == before
    back = tmp_path / "back.db"
    ok(Run(league_db), "db", "copy", pg_url.url, str(back))
    assert sqlite_rows(back) == before
    ok(Run(back), "doctor")  # schema, references and full-text index as a new database's


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_the_copy_is_a_working_database(
    engine: str, league_db: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if engine == "postgresql":
        target = request.getfixturevalue("pg_url").url
    else:
        target = str(tmp_path / "copy.db")
    ok(Run(league_db), "db", "copy", str(league_db), target)
    original, copied = Run(league_db), Run(target)  # type: ignore[arg-type]
    for args in (("search", "chugawug", "-o", "json"), ("collection", "-o", "json"),
                 ("collection", "--collector", "Bo", "-o", "json"), ("history", "-o", "json"),
                 ("deck", "list", "-o", "json"), ("collectors", "-o", "json")):  # fmt: skip
        assert ok(copied, *args) == ok(original, *args), args
    assert "Chugawug Cook" in ok(copied, "search", "chug*")
    assert "Undid add '1 C 1 x1'" in ok(copied, "undo")  # the default collector's last add
    assert "apple box" not in ok(copied, "collection", "--copies")
    assert "Chugawug Cook" not in ok(copied, "collection", "--collector", "Bo")
    ok(copied, "redo", "--collector", "Bo")  # the batch undone before the copy
    assert "Chugawug Cook" in ok(copied, "collection", "--collector", "Bo")
    _new_rows_get_new_ids(copied, sqlite_rows(league_db))


def _new_rows_get_new_ids(run: Run, before: Rows) -> None:
    ok(run, "collectors", "add", "Cy")
    ok(run, "add", "1 C 1 x2", "--collector", "Cy")
    collectors = json.loads(ok(run, "collectors", "-o", "json"))
    assert [c["name"] for c in collectors][-1] == "Cy"
    history = json.loads(ok(run, "history", "--collector", "Cy", "-o", "json"))
    assert history, "Cy's add is in the history"
    ids = _max_ids(run)
    assert ids["collector"] == max(row[0] for row in before["collector"]) + 1
    assert ids["batch"] > max(row[0] for row in before["batch"])
    assert ids["history"] > max(row[0] for row in before["history"])


def _max_ids(run: Run) -> dict[str, int]:
    query = "SELECT (SELECT max(id) FROM collector), (SELECT max(id) FROM batch), " \
            "(SELECT max(id) FROM history)"  # fmt: skip
    target = str(run.db_path)
    if target.startswith("postgresql://"):
        with psycopg.connect(target) as conn:
            row = conn.execute(query).fetchone()
    else:
        with sqlite3.connect(target) as conn:
            row = conn.execute(query).fetchone()
    assert row is not None
    return dict(zip(("collector", "batch", "history"), row, strict=True))


def test_postgresql_to_postgresql_and_sqlite_to_sqlite(
    league_db: Path, postgres_server: str, tmp_path: Path
) -> None:
    before = sqlite_rows(league_db)
    first, second = postgres_database(postgres_server), postgres_database(postgres_server)
    try:
        one, two = next(first), next(second)
        ok(Run(league_db), "db", "copy", str(league_db), one.url)
        ok(Run(league_db), "db", "copy", one.url, two.url)
        assert postgres_rows(two) == before
        ok(Run(league_db), "db", "copy", str(league_db), str(tmp_path / "same.db"))
        assert sqlite_rows(tmp_path / "same.db") == before
    finally:
        first.close(), second.close()


def test_the_postgresql_copy_has_the_schema_a_new_database_gets(
    league_db: Path, postgres_server: str
) -> None:
    """The indexes and the full-text trigger set aside during the copy are all back."""
    made, copied = postgres_database(postgres_server), postgres_database(postgres_server)
    try:
        fresh, target = next(made), next(copied)
        postgres_schema.prepare(fresh, Library(fresh), MINI_CATALOGUE)
        ok(Run(league_db), "db", "copy", str(league_db), target.url)
        assert _pg_schema(target) == _pg_schema(fresh)
        with psycopg.connect(target.url) as conn:
            conn.execute("UPDATE card SET name = 'Zorblax Quux' WHERE id = 1")  # the trigger
            found = conn.execute(
                "SELECT count(*) FROM card_fts WHERE name_v @@ to_tsquery('english', 'zorblax')"
            ).fetchone()
            assert found == (1,)
            assert conn.execute("SELECT count(*) FROM card_fts").fetchone() == (len(
                sqlite_rows(league_db)["card"]),)  # fmt: skip
    finally:
        made.close(), copied.close()


def _pg_schema(url: PostgresUrl) -> list[tuple[Any, ...]]:
    with psycopg.connect(url.url) as conn:
        indexes = conn.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = 'public' ORDER BY 1, 2"
        ).fetchall()
        triggers = conn.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1"
        ).fetchall()
    return [*indexes, *triggers]


def test_text_keys_are_ordered_alike_on_a_database_with_a_language_collation(
    league_db: Path, postgres_server: str
) -> None:
    """Holdings are keyed by text ('Zebra box', 'apple box'): in English order they sort
    otherwise than by bytes, and the checksums must still agree."""
    name = "cardbase_copy_icu"
    base = postgres_server.rsplit("/", 1)[0]
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu "
                      "ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'")  # fmt: skip
    try:
        ok(Run(league_db), "db", "copy", str(league_db), f"{base}/{name}")
        assert postgres_rows(PostgresUrl(f"{base}/{name}")) == sqlite_rows(league_db)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_an_older_sqlite_database_is_upgraded_then_copied(
    pg_url: PostgresUrl, tmp_path: Path
) -> None:
    old = shutil.copy(DATA / "schema-v3.db", tmp_path / "old.db")
    ok(Run(old), "db", "copy", str(old), pg_url.url)
    assert postgres_rows(pg_url) == sqlite_rows(Path(old))


# -- refusals -------------------------------------------------------------------------------


def test_a_target_holding_a_cardbase_database_needs_force(
    league_db: Path, pg_url: PostgresUrl, tmp_path: Path
) -> None:
    other = tmp_path / "other.db"
    ok(Run(other), "collectors")  # a new database: the bundled catalogue, one collector
    for target, rows in ((str(other), lambda: sqlite_rows(other)),
                         (pg_url.url, lambda: postgres_rows(pg_url))):  # fmt: skip
        if target == pg_url.url:
            ok(Run(other), "db", "copy", str(other), target)
        before = rows()
        line = one_line_error(copy(str(league_db), target))
        assert "already holds a cardbase database" in line and "--force" in line
        assert rows() == before
        report = json.loads(ok(Run(other), "db", "copy", str(league_db), target, "--force",
                               "-o", "json"))  # fmt: skip
        assert report["replaced"] is True
        assert rows() == sqlite_rows(league_db)


def test_a_replaced_sqlite_file_loses_its_old_write_ahead_log(
    league_db: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target.db"
    ok(Run(target), "add", "1 C 1 x1")
    wal = Path(f"{target}-wal")
    wal.write_bytes(b"not for the copy")
    ok(Run(league_db), "db", "copy", str(league_db), str(target), "--force")
    assert not wal.exists()
    assert sqlite_rows(target) == sqlite_rows(league_db)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("content", [b"", b"hello\n", b"SQLite format 3\x00" + b"\x00" * 84])
def test_a_target_that_is_not_a_cardbase_database_is_refused_even_with_force(
    league_db: Path, tmp_path: Path, content: bytes
) -> None:
    target = tmp_path / "notes.db"
    target.write_bytes(content)
    line = one_line_error(copy(str(league_db), str(target), "--force"))
    assert "not a cardbase database" in line
    assert target.read_bytes() == content


def test_a_postgresql_database_with_other_tables_is_refused_even_with_force(
    league_db: Path, pg_url: PostgresUrl
) -> None:
    with psycopg.connect(pg_url.url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    line = one_line_error(copy(str(league_db), pg_url.url, "--force"))
    assert "not cardbase's" in line
    with psycopg.connect(pg_url.url) as conn:
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchall() == [("invoices",)]


def test_a_missing_or_empty_source_is_refused_and_nothing_is_made(
    pg_url: PostgresUrl, tmp_path: Path
) -> None:
    target = tmp_path / "copy.db"
    assert "no such database" in one_line_error(copy(str(tmp_path / "nope.db"), str(target)))
    (tmp_path / "empty.db").write_bytes(b"")
    assert "not a cardbase database" in one_line_error(
        copy(str(tmp_path / "empty.db"), str(target))
    )
    assert (tmp_path / "empty.db").read_bytes() == b""
    assert "holds no cardbase database" in one_line_error(copy(pg_url.url, str(target)))
    with psycopg.connect(pg_url.url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")\
            .fetchone() == (0,)  # fmt: skip
        conn.execute("CREATE TABLE invoices (id integer)")
    assert "not a cardbase database" in one_line_error(copy(pg_url.url, str(target)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_the_same_database_as_source_and_target_is_refused(
    league_db: Path, pg_url: PostgresUrl, tmp_path: Path
) -> None:
    before = database_checksum(league_db)
    (tmp_path / "link.db").symlink_to(league_db)
    for target in (str(league_db), str(tmp_path / "link.db")):
        line = one_line_error(copy(str(league_db), target, "--force"))
        assert "the source database itself" in line
    assert database_checksum(league_db) == before
    ok(Run(league_db), "db", "copy", str(league_db), pg_url.url)
    spelled_otherwise = f"{pg_url.url}?application_name=another"
    line = one_line_error(copy(pg_url.url, spelled_otherwise, "--force"))
    assert "the source database itself" in line
    assert postgres_rows(pg_url) == sqlite_rows(league_db)


def test_a_missing_folder_is_refused(league_db: Path, tmp_path: Path) -> None:
    line = one_line_error(copy(str(league_db), str(tmp_path / "nope" / "copy.db")))
    assert "does not exist" in line
    assert not (tmp_path / "nope").exists()


# -- failures half-way ----------------------------------------------------------------------


def _fail_after(monkeypatch: pytest.MonkeyPatch, table: str, error: BaseException) -> None:
    """The copy of `table` raises once its rows are written, as a failing insert would."""
    real = transfer._copy_table

    def failing(source: Any, target: Any, spec: transfer.TableSpec, stage: Any) -> Any:
        summed = real(source, target, spec, stage)
        if spec.name == table:
            raise error
        return summed

    monkeypatch.setattr(transfer, "_copy_table", failing)


@pytest.mark.parametrize(
    ("error", "code", "said"),
    [(sqlite3.IntegrityError("disk on fire"), 2, "cannot copy table history (disk on fire)"),
     (KeyboardInterrupt(), 130, "interrupted; nothing was changed")],
)  # fmt: skip
def test_a_failure_half_way_leaves_the_target_as_it_was(
    league_db: Path,
    pg_url: PostgresUrl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: BaseException,
    code: int,
    said: str,
) -> None:
    other = tmp_path / "other.db"
    ok(Run(other), "add", "1 C 1 x1")
    ok(Run(other), "db", "copy", str(other), pg_url.url)
    pg_before, file_before = postgres_rows(pg_url), database_checksum(other)
    listing = sorted(p.name for p in tmp_path.iterdir())
    _fail_after(monkeypatch, "history", error)
    for target in (pg_url.url, str(other), str(tmp_path / "new.db")):
        assert said in one_line_error(copy(str(league_db), target, "--force"), code)
    assert postgres_rows(pg_url) == pg_before
    assert database_checksum(other) == file_before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no new or partial file


def test_a_failure_half_way_into_a_new_postgresql_database_leaves_it_empty(
    league_db: Path, pg_url: PostgresUrl, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fail_after(monkeypatch, "deck", sqlite3.IntegrityError("no"))
    one_line_error(copy(str(league_db), pg_url.url))
    with psycopg.connect(pg_url.url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")\
            .fetchone() == (0,)  # fmt: skip


def test_a_checksum_that_differs_rolls_back_and_names_the_table(
    league_db: Path, pg_url: PostgresUrl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = transfer.table_sum

    def tampered(conn: Any, spec: transfer.TableSpec) -> transfer.TableSum:
        found = real(conn, spec)
        return replace(found, checksum="0" * 64) if spec.name == "ownership" else found

    monkeypatch.setattr(transfer, "table_sum", tampered)
    for target in (pg_url.url, str(tmp_path / "new.db")):
        line = one_line_error(copy(str(league_db), target))
        assert "table ownership differs after the copy" in line and "checksums different" in line
    assert not (tmp_path / "new.db").exists()
    with psycopg.connect(pg_url.url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")\
            .fetchone() == (0,)  # fmt: skip


def test_the_table_output_lists_every_table(league_db: Path, tmp_path: Path) -> None:
    out = ok(Run(league_db), "db", "copy", str(league_db), str(tmp_path / "copy.db"))
    for spec in table_specs():
        assert spec.name in out
    assert "each verified by count and checksum" in out
    csv_lines = ok(Run(league_db), "db", "copy", str(league_db), str(tmp_path / "two.db"),
                   "-o", "csv").splitlines()  # fmt: skip
    assert csv_lines[0] == "table,rows,checksum" and len(csv_lines) == 1 + len(table_specs())


def test_ctrl_c_in_a_postgresql_pipeline_stays_an_interrupt() -> None:
    """Ctrl-C in executemany's pipeline makes psycopg's cleanup fail too ("cannot exit
    pipeline mode while busy"): the command must still end as interrupted, exit 130."""
    from cardbase.db.postgres.connection import _as_sqlite_errors

    with pytest.raises(KeyboardInterrupt), _as_sqlite_errors():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise psycopg.OperationalError("cannot exit pipeline mode while busy") from None


def test_a_postgresql_target_of_another_schema_never_points_at_force(
    league_db: Path, pg_url: PostgresUrl
) -> None:
    """Its own refusal first: --force would refuse it too, so it was no advice to give."""
    ok(Run(league_db), "db", "copy", str(league_db), pg_url.url)
    with psycopg.connect(pg_url.url, autocommit=True) as conn:
        conn.execute("UPDATE cardbase_meta SET value = '3' WHERE key = 'schema_version'")
    for force in ((), ("--force",)):
        line = one_line_error(copy(str(league_db), pg_url.url, *force))
        assert "which even --force cannot refill" in line and "add --force" not in line
