"""Hardening of the database layer: passwords never shown in any spelling of a URL; what a
killed `db copy`, `restore` or `collectors remove --force` leaves is cleared by the next run
(and by any write); a schema object that is not cardbase's stops every write; a missing
PostgreSQL driver is one line with the install hint."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardbase.db import dbfiles, schema
from cardbase.db.health import damage
from cardbase.db.location import PostgresUrl
from cardbase.errors import DatabaseError
from cardbase.library import Library
from tests.helpers import ROOT, Run, copy_database, database_checksum, new_database, subprocess_env

# -- 1. passwords in URLs -----------------------------------------------------------------

MARKS = ("Sx7q", "Kz9w")  # the ends of every password below: neither may ever be shown
SPECIALS = "?#@/%&="
FORMS = {
    "user raw": "postgresql://ann:{raw}@127.0.0.1:1/cards",
    "user encoded": "postgresql://ann:{encoded}@127.0.0.1:1/cards",
    "param raw": "postgresql://ann@127.0.0.1:1/cards?sslmode=disable&password={raw}"
    "&application_name=cb",
    "param encoded": "postgresql://ann@127.0.0.1:1/cards?sslmode=disable&password={encoded}"
    "&application_name=cb",
}
TABLE = [(form, char) for form in FORMS for char in SPECIALS]  # 28 forms
PRINTABLE = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20)


def url_for(form: str, password: str) -> str:
    return FORMS[form].format(raw=password, encoded=quote(password, safe=""))


def connect_error(url: str) -> str:
    """The one line `connect` raises for a server that is not there (port 1)."""
    from cardbase.db.postgres.connection import connect

    with pytest.raises(DatabaseError) as raised:
        connect(PostgresUrl(url)).close()
    return str(raised.value)


def assert_hidden(text: str, password: str) -> None:
    for secret in (*MARKS, password, quote(password, safe="")):
        assert secret not in text, (secret, text)


@pytest.mark.parametrize(("form", "char"), TABLE)
def test_no_form_of_url_shows_its_password(form: str, char: str) -> None:
    password = f"{MARKS[0]}{char}{MARKS[1]}"
    url = url_for(form, password)
    shown = str(PostgresUrl(url))
    assert_hidden(shown, password)
    assert "***" in shown and "127.0.0.1:1/cards" in shown
    assert_hidden(connect_error(url), password)
    result = Run(url)("search", "chug")  # type: ignore[arg-type]
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.output
    assert_hidden(result.stderr, password)
    assert "at 127.0.0.1:1:" in result.stderr


@pytest.mark.parametrize(("form", "char"), TABLE)
def test_a_url_is_shown_as_libpq_reads_it_or_refused(form: str, char: str) -> None:
    """What libpq reads (psycopg's conninfo_to_dict is libpq's own parser): a URL shown
    normally is one whose password libpq reads whole; any other is refused before libpq
    sees it, naming the characters to encode."""
    from psycopg.conninfo import conninfo_to_dict

    password = f"{MARKS[0]}{char}{MARKS[1]}"
    url = PostgresUrl(url_for(form, password))
    if url.problem() is None:
        read = conninfo_to_dict(url.url)
        assert read["password"] == password
        assert (read["host"], read["port"], read["dbname"]) == ("127.0.0.1", "1", "cards")
        return
    assert "encoded" not in form  # an encoded password is always read whole
    try:
        misread = conninfo_to_dict(url.url).get("password")
    except Exception:  # libpq itself refuses it (and would quote it)
        misread = None
    assert misread != password
    said = connect_error(url.url)
    assert "in the URL holds" in said and "Percent-encode" in said


def test_the_forms_libpq_reads_whole_are_shown_plainly() -> None:
    shown = str(PostgresUrl("postgresql://pwuser:sec?ret@host/small"))
    assert shown == "postgresql://pwuser:***@host/small"
    refused = PostgresUrl("postgresql://u:p@ss:w/rd#?%&=+x@host/db")
    assert str(refused) == "postgresql://u:***@host/db" and refused.problem()
    tail = PostgresUrl("postgresql://ann@host/db?password=pw&rest=1")
    assert str(tail) == "postgresql://ann@host/db?password=***" and tail.problem()
    plain = PostgresUrl("postgresql://ann@host/db?sslmode=disable&application_name=a@b")
    assert str(plain) == plain.url and plain.problem() is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(middle=PRINTABLE, form=st.sampled_from(sorted(FORMS)))
@example(middle=" failed: ", form="param raw")  # found by hypothesis: cut before masked
def test_no_printable_password_is_ever_shown(middle: str, form: str) -> None:
    password = f"{MARKS[0]}{middle}{MARKS[1]}"
    url = url_for(form, password)
    shown = str(PostgresUrl(url))
    assert_hidden(shown, password)
    assert_hidden(PostgresUrl(url).host, password)
    assert_hidden(connect_error(url), password)


def test_a_password_of_every_special_character_connects_when_encoded(
    postgres_server: str, pg_url: PostgresUrl
) -> None:
    """On the server, for a role that must give its password: encoded in the user part or
    as ?password=, it connects; wrong, the one line shows neither it nor the right one."""
    import psycopg
    from psycopg import sql

    secret = "p@ss:w/rd#?%&=+x"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE fussy LOGIN PASSWORD {}").format(sql.Literal(secret)))
        rules = admin.execute("SELECT pg_read_file('pg_hba.conf')").fetchone()[0]  # type: ignore[index]
        hba = admin.execute("SHOW hba_file").fetchone()[0]  # type: ignore[index]
        lines = ["host all fussy 127.0.0.1/32 scram-sha-256", *rules.splitlines()]
        admin.execute(
            sql.SQL("COPY (SELECT unnest({}::text[])) TO {}").format(
                sql.Literal(lines), sql.Literal(hba)
            )
        )
        admin.execute("SELECT pg_reload_conf()")
    with psycopg.connect(pg_url.url, autocommit=True) as conn:
        conn.execute("GRANT ALL ON SCHEMA public TO fussy")
    host = postgres_server.split("@", 1)[1].rsplit("/", 1)[0]
    database = pg_url.url.rsplit("/", 1)[1]
    encoded = quote(secret, safe="")
    for url in (f"postgresql://fussy:{encoded}@{host}/{database}",
                f"postgresql://fussy@{host}/{database}?password={encoded}"):  # fmt: skip
        found = Run(url)("search", "chug", "--count")  # type: ignore[arg-type]
        assert found.exit_code == 0, found.output
    wrong = quote("q@ss:w/rd#?%&=+x", safe="")
    refused = Run(f"postgresql://fussy:{wrong}@{host}/{database}")("search")  # type: ignore[arg-type]
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert 'password authentication failed for user "fussy"' in refused.stderr
    for shown in ("ss:w", wrong, encoded, "rd#"):
        assert shown not in refused.stderr


# -- 2. what a killed command leaves ------------------------------------------------------

HOLDINGS_PER_CARD = 300  # about 212k holdings: a 40 MB file that takes seconds to copy


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample catalogue and a second collector, Bo, with some 200k holdings."""
    path = tmp_path_factory.mktemp("big") / "big.db"
    new_database(path)
    assert Run(path)("collectors", "add", "Bo").exit_code == 0
    with sqlite3.connect(path) as conn:
        bo = conn.execute("SELECT id FROM collector WHERE name = 'Bo'").fetchone()[0]
        cards = [row[0] for row in conn.execute("SELECT id FROM card")]
        conn.executemany(
            "INSERT INTO holding VALUES (?, ?, 'nonfoil', 'NM', 'en', ?, '', 1, ?)",
            ((bo, card, f"box {n}", f"note {n} " * 8) for card in cards
             for n in range(HOLDINGS_PER_CARD)),
        )  # fmt: skip
        conn.execute(
            "INSERT INTO ownership SELECT collector_id, card_id, sum(copies), 0 FROM holding "
            "GROUP BY collector_id, card_id"
        )
    return path


def cardbase(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardbase", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=subprocess_env(),
    )  # fmt: skip


def again(*args: str) -> str:
    """The command run to the end; its stderr."""
    process = cardbase(*args)
    _, errors = process.communicate(timeout=300)
    assert process.returncode == 0, errors.decode()
    return errors.decode()


def kill_when_written(process: subprocess.Popen[bytes], folder: Path, pattern: str) -> list[Path]:
    """SIGKILL the command once its temporary file beside the target has grown; returns
    what it left behind."""
    deadline = time.monotonic() + 120
    while not any(p.stat().st_size > 1_000_000 for p in folder.glob(pattern) if p.exists()):
        assert process.poll() is None, "the command ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    return sorted(folder.glob(pattern + "*"))


def assert_cleared(stderr: str, folder: Path, pattern: str) -> None:
    assert not list(folder.glob(pattern)), list(folder.glob(pattern))
    assert "note: removed" in stderr and "stopped" in stderr, stderr
    assert len([line for line in stderr.splitlines() if "removed" in line]) == 1


@pytest.mark.slow
def test_a_killed_sqlite_copy_is_cleared_by_the_next(big_db: Path, tmp_path: Path) -> None:
    source = copy_database(big_db, tmp_path / "source.db")
    target = tmp_path / "copy.db"
    process = cardbase("db", "copy", str(source), str(target))
    left = kill_when_written(process, tmp_path, ".copy.db.*.copying")
    assert left and not target.exists()
    assert_cleared(again("db", "copy", str(source), str(target)), tmp_path, ".copy.db.*")
    assert database_checksum(target) == database_checksum(source)


@pytest.mark.slow
def test_a_killed_copy_from_postgresql_is_cleared_by_the_next(
    big_db: Path, tmp_path: Path, pg_url: PostgresUrl
) -> None:
    assert Run(Path("unused.db"))("db", "copy", str(big_db), pg_url.url).exit_code == 0
    target = tmp_path / "back.db"
    process = cardbase("db", "copy", pg_url.url, str(target))
    assert kill_when_written(process, tmp_path, ".back.db.*.copying")
    assert_cleared(again("db", "copy", pg_url.url, str(target)), tmp_path, ".back.db.*")
    assert database_checksum(target) == database_checksum(big_db)


@pytest.mark.slow
def test_a_killed_restore_is_cleared_by_the_next_and_by_any_write(
    big_db: Path, tmp_path: Path
) -> None:
    live = tmp_path / "live.db"
    schema.prepare(live, Library(live))
    for attempt in range(2):
        process = cardbase("--db", str(live), "restore", str(big_db))
        assert kill_when_written(process, tmp_path, ".live.db.*.restoring")
        assert database_checksum(live) != database_checksum(big_db)  # untouched
        if attempt == 0:
            stderr = again("--db", str(live), "add", "1 C 14")  # any write clears them
        else:
            stderr = again("--db", str(live), "restore", str(big_db))
        assert_cleared(stderr, tmp_path, ".live.db.*")
    assert database_checksum(live) == database_checksum(big_db)


@pytest.mark.slow
def test_a_killed_collector_removal_is_cleared_by_the_next(big_db: Path, tmp_path: Path) -> None:
    db = copy_database(big_db, tmp_path / "league.db")
    process = cardbase("--db", str(db), "collectors", "remove", "Bo", "--force", "--yes")
    assert kill_when_written(process, tmp_path, ".league.before-removing-Bo-*.partial")
    assert database_checksum(db) == database_checksum(big_db)
    stderr = again("--db", str(db), "collectors", "remove", "Bo", "--force", "--yes")
    assert_cleared(stderr, tmp_path, ".league.before-removing-*")
    (kept,) = tmp_path.glob("league.before-removing-Bo-*.db")
    assert database_checksum(kept) == database_checksum(big_db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM holding").fetchone()[0] == 0


def test_a_file_a_running_command_holds_is_left_alone(db_path: Path) -> None:
    """Two runs at once: one's temporary file is not the other's to clear, however old."""
    running = dbfiles.temporary_beside(db_path, "copying")
    dead = dbfiles.temporary_beside(db_path, "restoring")
    copy_database(db_path, dead)
    Path(f"{dead}-journal").write_bytes(b"x")
    orphan = Path(f"{dbfiles.temporary_beside(db_path, 'copying')}-wal")
    orphan.write_bytes(b"x")
    other = db_path.with_name(f".{db_path.name}.0123456789ab.partial")  # an export's, say
    other.write_bytes(b"not a database")
    with dbfiles.claimed(running):
        copy_database(db_path, running)
        assert dbfiles.clear_leftovers(db_path) == 3
        assert running.exists() and other.exists()
        assert not dead.exists() and not Path(f"{dead}-journal").exists()
        assert not orphan.exists()
    assert dbfiles.clear_leftovers(db_path) == 1 and not running.exists()
    assert other.exists()


def test_an_empty_file_just_made_is_left_alone(db_path: Path) -> None:
    fresh = dbfiles.temporary_beside(db_path, "copying")
    fresh.touch()
    assert dbfiles.clear_leftovers(db_path) == 0 and fresh.exists()


# -- 3. a schema that is not cardbase's ---------------------------------------------------

PLANTED = [
    ("CREATE TRIGGER x AFTER INSERT ON holding BEGIN DELETE FROM holding; END", "trigger x"),
    ("CREATE VIEW v AS SELECT * FROM card", "view v"),
    ("CREATE TABLE extra (a)", "table extra"),
    ("CREATE INDEX ix_mine ON holding (note)", "index ix_mine"),
    (
        "DROP TRIGGER card_fts_au; CREATE TRIGGER card_fts_au AFTER UPDATE ON card BEGIN "
        "DELETE FROM holding; END",
        "trigger card_fts_au",
    ),
]


@pytest.mark.parametrize(("statement", "named"), PLANTED)
def test_a_write_refuses_a_schema_object_that_is_not_cardbases(
    run: Run, statement: str, named: str
) -> None:
    assert run("add", "1 C 14 x2").exit_code == 0
    with sqlite3.connect(run.db_path) as conn:
        conn.executescript(statement)
    before = database_checksum(run.db_path)
    refused = run("add", "1 U 15")
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert len(refused.stderr.splitlines()) == 1, refused.stderr
    assert f"({named} is not cardbase's)" in refused.stderr
    assert "cardbase doctor" in refused.stderr and "nothing was changed" in refused.stderr
    assert database_checksum(run.db_path) == before
    assert run("doctor").exit_code == 1


def test_the_objects_a_write_expects_are_the_models(db_path: Path) -> None:
    """`SCHEMA_OBJECTS` (named without SQLModel, for speed) against what the models and the
    full-text DDL make, and a new database's."""
    shape = (
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type != 'trigger'"
    )
    reference = damage._reference_schema()
    assert set(reference.execute(shape)) == damage.SCHEMA_OBJECTS
    with sqlite3.connect(db_path) as conn:
        assert set(conn.execute(shape)) == damage.SCHEMA_OBJECTS
        damage.check_before_write(conn, db_path)


# -- 4. no PostgreSQL driver --------------------------------------------------------------

WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None  # what an install without the postgres extra has
from cardbase.cli import main
sys.argv = ["cardbase", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--db", "postgresql://ann:s3cret@127.0.0.1:1/cards", "search", "chug"],
        ["--db", "postgresql://ann@127.0.0.1:1/cards", "add", "1 C 14"],
        ["db", "copy", "postgresql://ann@127.0.0.1:1/cards", "x.db"],
    ],
)
def test_without_the_postgres_extra_a_url_is_one_line_with_the_install_hint(
    args: list[str], tmp_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_PSYCOPG, *args],
        capture_output=True, text=True, cwd=tmp_path, env=subprocess_env(), timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "pip install 'cardbase[postgres]'" in lines[0], result.stderr
    assert "internal error" not in result.stderr and "s3cret" not in result.stderr
    assert not list(tmp_path.iterdir())
