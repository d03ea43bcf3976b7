"""cardbase on PostgreSQL: the commands a collector uses, through the CLI as typed, on a real
server (a throwaway cluster, tests/pg_cluster.py); bad URLs and rights as one line, exit 2.

The query language's whole table runs on both engines in tests/test_query.py.
"""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest
from psycopg import sql

from cardbase.db.location import PostgresUrl
from cardbase.library import Library
from tests.conftest import ROOT, PostgresTemplates, Run, subprocess_env


@pytest.fixture
def league(pg_mini: PostgresUrl) -> Run:
    """The CLI on a PostgreSQL database holding the test catalogue (a copy of its
    template: `pg_mini`, which the tests that reach the database themselves ask for too)."""
    return Run(pg_mini.url)  # type: ignore[arg-type]


def ok(run: Run, *args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def test_a_first_run_creates_the_schema_and_loads_the_bundled_catalogue(
    pg_url: PostgresUrl,
) -> None:
    found = Run(pg_url.url)("search", "chugawug", "-o", "csv")  # type: ignore[arg-type]
    assert found.exit_code == 0, found.output
    assert "Chugawug Cook" in found.stdout
    with psycopg.connect(pg_url.url) as conn:
        (cards,) = conn.execute("SELECT count(*) FROM card").fetchone() or (0,)
        (indexed,) = conn.execute("SELECT count(*) FROM card_fts").fetchone() or (0,)
    assert cards == indexed > 200


def test_collecting_undo_and_redo(league: Run) -> None:
    ok(league, "add", "1 C 14 x2 foil lp fr", "--location", "Binder 1", "--tag", "trade")
    ok(league, "add", "1 U 15 x3")
    assert "5 cards (3 non-foil, 2 foil), 2 distinct" in ok(league, "collection")
    assert "Chugawug Elder" in ok(league, "collection", "tag:none")
    assert "Chugawug Cook" in ok(league, "collection", 'in:"binder 1"', "cond:lp", "lang:fr")
    ok(league, "undo")
    assert "2 cards (0 non-foil, 2 foil), 1 distinct" in ok(league, "collection")
    ok(league, "redo")
    assert "5 cards" in ok(league, "collection")
    assert "Binder 1" in ok(league, "stats")


def test_collectors_keep_their_own_cards_and_trade(league: Run) -> None:
    ok(league, "collectors", "add", "Bo")
    ok(league, "add", "1 C 14 x4", "--collector", "Bo")
    ok(league, "add", "1 U 15 x4")
    assert "Chugawug Cook" not in ok(league, "collection")
    assert "Chugawug Cook" in ok(league, "collection", "--collector", "Bo")
    ok(league, "trade", "match", "--with", "Bo")
    ok(league, "undo", "--collector", "Bo")
    assert "You own no cards" in league("collection", "--collector", "Bo").stderr
    assert "4 cards" in ok(league, "collection")  # undo by one collector never touches another's


def test_import_export_and_decks(league: Run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    sheet = tmp_path / "mine.csv"
    sheet.write_text("Code,Name,Qty,Foil\n1 C 14,Chugawug Cook,3,\n1 U 15,Chugawug Elder,1,yes\n")
    ok(league, "import", str(sheet))
    out = tmp_path / "out.csv"
    ok(league, "export", str(out))
    assert "Chugawug Cook" in out.read_text()
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n2 Chugawug Elder\n")
    ok(league, "deck", "save", str(deck), "--name", "Bog Stew")
    assert "Bog Stew" in ok(league, "deck", "list")
    assert league("deck", "check", str(deck)).exit_code == 1  # 5 cards: invalid, exit 1


def test_the_query_language_is_the_same(league: Run) -> None:
    for query in ("chug*", '"draw a card"', "o:stun", "s:chaos -t:creature", "name:/^c.*k$/",
                  "cost:2..4 order:-attack", "r>=r gems>=3"):  # fmt: skip
        assert league("search", query).exit_code == 0, query


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://ann:s3cret@127.0.0.1:1/cards", "127.0.0.1:1"),
        ("postgresql://ann:s3cret@nosuchhost.invalid/cards", "nosuchhost.invalid"),
    ],
)
def test_a_server_that_cannot_be_reached_is_one_line_without_the_password(
    url: str, said: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cardbase", "--db", url, "search", "chug"],
        capture_output=True, text=True, cwd=ROOT, env=subprocess_env(), timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0], result.stderr
    assert "s3cret" not in result.stderr and "***" in lines[0]
    assert "Traceback" not in result.stderr


def test_a_missing_database_and_missing_rights_are_one_line(
    postgres_server: str, pg_url: PostgresUrl
) -> None:
    base = postgres_server.rsplit("/", 1)[0]
    missing = Run(f"{base}/no_such_db")("search", "chug")  # type: ignore[arg-type]
    assert missing.exit_code == 2
    assert 'database "no_such_db" does not exist' in missing.stderr
    with psycopg.connect(pg_url.url, autocommit=True) as admin:
        admin.execute("CREATE ROLE reader LOGIN")
        admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    reader = pg_url.url.replace("//" + pg_url.url.split("//")[1].split("@")[0], "//reader")
    denied = Run(reader)("search", "chug")  # type: ignore[arg-type]
    assert denied.exit_code == 2, denied.output
    assert len(denied.stderr.splitlines()) == 1
    assert "permission denied" in denied.stderr and "nothing was changed" in denied.stderr


def test_doctor_checks_what_is_cardbases_and_fixes_the_search_vectors(
    league: Run, pg_mini: PostgresUrl
) -> None:
    healthy = league("doctor")
    assert healthy.exit_code == 0, healthy.output
    assert "pg_amcheck" in healthy.stdout
    with psycopg.connect(pg_mini.url, autocommit=True) as conn:
        conn.execute("UPDATE card_fts SET text_v = ''::tsvector WHERE id IN (1, 2)")
    stale = league("doctor")
    assert stale.exit_code == 1
    assert "2 cards' vectors out of date" in stale.stdout
    assert league("doctor", "--fix").exit_code == 0
    assert league("doctor").exit_code == 0
    with psycopg.connect(pg_mini.url, autocommit=True) as conn:
        conn.execute("UPDATE ownership SET nonfoil = nonfoil + 1")
    ok(league, "add", "1 C 14")
    with psycopg.connect(pg_mini.url, autocommit=True) as conn:
        conn.execute("UPDATE ownership SET nonfoil = nonfoil + 1")
    assert "totals differ" in league("doctor").stdout


def test_backup_and_restore_name_the_servers_tools(league: Run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    backup = league("backup", str(tmp_path / "b.db"))
    assert backup.exit_code == 2 and "pg_dump" in backup.stderr
    restore = league("restore", str(tmp_path / "b.db"))
    assert restore.exit_code == 2 and "pg_restore" in restore.stderr


def test_explain_shows_the_statement_postgresql_runs(league: Run) -> None:
    explained = ok(league, "search", "o:stun", "--explain")
    assert "text_v @@ phraseto_tsquery('cardbase', ?)" in explained
    assert "MATCH" not in explained


def test_a_wrong_password_is_one_line_without_it(postgres_server: str, pg_url: PostgresUrl) -> None:
    """The test server trusts every local user, but for one role that must give its
    password (a rule put first in pg_hba.conf, as a league's server would have)."""
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute("CREATE ROLE guarded LOGIN PASSWORD 'right-one'")
        rules = admin.execute("SELECT pg_read_file('pg_hba.conf')").fetchone()[0]  # type: ignore[index]
        hba = admin.execute("SHOW hba_file").fetchone()[0]  # type: ignore[index]
        lines = ["host all guarded 127.0.0.1/32 scram-sha-256", *rules.splitlines()]
        admin.execute(  # COPY takes no parameters: the values go in as literals
            sql.SQL("COPY (SELECT unnest({}::text[])) TO {}").format(
                sql.Literal(lines), sql.Literal(hba)
            )
        )
        admin.execute("SELECT pg_reload_conf()")
    host = postgres_server.split("@", 1)[1].rsplit("/", 1)[0]
    database = pg_url.url.rsplit("/", 1)[1]
    wrong = Run(f"postgresql://guarded:wrong-one@{host}/{database}")("search", "chug")  # type: ignore[arg-type]
    assert wrong.exit_code == 2
    lines = wrong.stderr.splitlines()
    assert len(lines) == 1 and 'password authentication failed for user "guarded"' in lines[0]
    assert "wrong-one" not in wrong.stderr and "guarded:***@" in lines[0]


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ann@127.0.0.1:1/cards?password=hunter2",
        "postgresql://ann:hun#ter2@127.0.0.1:1/cards",
        "postgresql://ann:hun@ter2@127.0.0.1:1/cards",
        "postgresql://ann:hun:ter/2@127.0.0.1:1/cards",
    ],
)
def test_no_form_of_url_prints_its_password(url: str) -> None:
    result = Run(url)("search", "chug")  # type: ignore[arg-type]
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "hunter" not in result.stderr and "ter2" not in result.stderr
    assert "ter/2" not in result.stderr and "at 127.0.0.1:1:" in result.stderr


def test_trade_lists_of_a_tag_or_a_location(league: Run) -> None:
    ok(league, "add", "1 C 14 x5", "--tag", "trade", "--location", "Box")
    assert "Chugawug Cook" in ok(league, "trade", "list", "--tag", "trade", "--playset", "1")
    assert "Chugawug Cook" in ok(league, "trade", "list", "--location", "box", "--playset", "1")


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory, pg_templates: PostgresTemplates):  # type: ignore[no-untyped-def]
    """The sample catalogue (it has texts) in a SQLite file and on PostgreSQL."""
    from cardbase.catalog.choice import SAMPLE, built_in
    from cardbase.db import schema

    path = tmp_path_factory.mktemp("both") / "sample.db"
    schema.prepare(path, Library(path), built_in(SAMPLE))
    for url in pg_templates.copy(built_in(SAMPLE)):
        yield Run(path), Run(url.url)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "query",
    [
        "the",
        "-the",
        "n:of",
        'n:"of the"',
        "a*",
        '"draw a card"',
        'o:"your foe"',
        "o:if",
        r"o:/\bstun\b/",
        r"o:/\Bun/",
        r"o:/foe\.\z/",
    ],
)
def test_words_and_patterns_find_the_same_cards_on_both_engines(both, query: str) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL's English configuration dropped stop words ('the': 0 cards against 55),
    and read RE2's \\b as a backspace; its own configuration keeps every word."""
    found = [
        sorted(
            row.split(",")[0]
            for row in ok(run, "search", "-o", "csv", "--", query).splitlines()[1:]
        )
        for run in both
    ]
    assert found[0] == found[1] and found[0], query


def test_a_regex_the_server_cannot_read_is_one_line(league: Run) -> None:
    result = league("search", r"name:/\pL+ \pL+$/")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "regular expression" in result.stderr


@pytest.mark.parametrize("value", ["abc", ""])
def test_an_unreadable_schema_version_is_one_line(
    league: Run, pg_mini: PostgresUrl, value: str
) -> None:
    with psycopg.connect(pg_mini.url, autocommit=True) as conn:
        conn.execute("UPDATE cardbase_meta SET value = %s WHERE key = 'schema_version'", (value,))
    result = league("search", "chug")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "holds no schema version cardbase can read" in result.stderr


def test_a_search_path_with_no_schema_is_one_line(pg_url: PostgresUrl) -> None:
    url = f"{pg_url.url}?options=-c%20search_path%3Dnowhere"
    result = Run(url)("search", "chug")  # type: ignore[arg-type]
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("DROP INDEX ix_card_fts_name_v", "index ix_card_fts_name_v"),
        ("DROP TRIGGER card_fts ON card", "trigger card_fts"),
        (
            "ALTER TABLE holding DROP CONSTRAINT holding_card_id_fkey",
            "foreign key holding_card_id_fkey",
        ),
    ],
)
def test_doctor_finds_what_was_dropped(
    league: Run, pg_mini: PostgresUrl, damage: str, said: str
) -> None:
    with psycopg.connect(pg_mini.url, autocommit=True) as conn:
        conn.execute(damage)  # type: ignore[arg-type]
    found = league("doctor")
    assert found.exit_code == 1
    assert said in found.stdout


def test_a_url_in_sqlalchemys_spelling_is_read_as_postgresql(
    league: Run, pg_mini: PostgresUrl
) -> None:
    """postgresql+psycopg:// (a driver in the scheme, as other apps' settings write it) was
    taken for a file path."""
    spelled = pg_mini.url.replace("postgresql://", "postgresql+psycopg://", 1)
    found = Run(spelled)("search", "chugawug", "--count")  # type: ignore[arg-type]
    assert found.exit_code == 0, found.output
    assert found.stdout.strip() == "4"
