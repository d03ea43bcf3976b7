"""Many writers on one PostgreSQL database, as a league has them: eight processes adding to
overlapping cards of two collectors end with exact counts and complete history; an import
killed with SIGKILL leaves the database before or after it, never between."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from cardbase.db.location import PostgresUrl
from cardbase.db.postgres import schema as postgres_schema
from cardbase.library import Library
from tests.conftest import MINI_CATALOGUE, ROOT, Run, subprocess_env

ADDS_PER_WORKER = 500
CARDS = ("1 C 14", "1 U 15", "1 C 41")
# A worker adds, card after card in turn, through the library as the CLI does: each add is
# its own transaction, with its own connections.
WORKER = """
import sys
from cardbase.collection.changes import Mode
from cardbase.collection.items import change_items
from cardbase.db.location import PostgresUrl
from cardbase.library import Library
url, collector, adds = PostgresUrl(sys.argv[1]), sys.argv[2], int(sys.argv[3])
cards = {cards!r}
for n in range(adds):
    change_items(Library(url, collector), [cards[n % len(cards)]], Mode.ADD)
"""


def _rows(url: PostgresUrl, sql: str) -> list[tuple]:
    with psycopg.connect(url.url) as conn:
        return conn.execute(sql).fetchall()


@pytest.mark.slow
def test_eight_writers_at_once_all_count(pg_url: PostgresUrl) -> None:
    postgres_schema.prepare(pg_url, Library(pg_url), MINI_CATALOGUE)
    Run(pg_url.url)("collectors", "add", "Bo")  # type: ignore[arg-type]
    collectors = ["me", "Bo"] * 4
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER.format(cards=CARDS),
                pg_url.url,
                who,
                str(ADDS_PER_WORKER),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=subprocess_env(),
        )
        for who in collectors
    ]
    for worker in workers:
        _, errors = worker.communicate(timeout=900)
        assert worker.returncode == 0, errors.decode()[-2000:]
    per_card = {card: len(range(n, ADDS_PER_WORKER, len(CARDS))) for n, card in enumerate(CARDS)}
    expected = {(who, card): 4 * adds for who in ("me", "Bo") for card, adds in per_card.items()}
    owned = _rows(
        pg_url,
        "SELECT k.name, c.series || ' ' || c.rarity || ' ' || c.number, o.nonfoil "
        "FROM ownership o JOIN card c ON c.id = o.card_id JOIN collector k ON k.id = o.collector_id",
    )
    assert {(who, code): copies for who, code, copies in owned} == expected
    held = _rows(pg_url, "SELECT collector_id, card_id, sum(copies) FROM holding GROUP BY 1, 2")
    totals = _rows(pg_url, "SELECT collector_id, card_id, nonfoil + foil FROM ownership")
    assert sorted(held) == sorted(totals)
    (batches,), (changes,), (added,) = (
        _rows(pg_url, "SELECT count(*) FROM batch")[0],
        _rows(pg_url, "SELECT count(*) FROM history")[0],
        _rows(pg_url, "SELECT sum(delta) FROM history")[0],
    )
    assert batches == changes == added == 8 * ADDS_PER_WORKER


IMPORT_ROWS = 20_000


def _collection(url: PostgresUrl) -> list[tuple]:
    return _rows(url, "SELECT collector_id, card_id, nonfoil, foil FROM ownership ORDER BY 1, 2")


@pytest.mark.slow
def test_a_killed_import_leaves_before_or_after(pg_url: PostgresUrl, tmp_path: Path) -> None:
    postgres_schema.prepare(
        pg_url, Library(pg_url)
    )  # the bundled catalogue: 254 names to spread over
    run = Run(pg_url.url)  # type: ignore[arg-type]
    assert run("add", "Chugawug Cook x2").exit_code == 0
    names = [row[0] for row in _rows(pg_url, "SELECT name FROM card ORDER BY id")]
    unique = sorted({name for name in names if names.count(name) == 1})
    rng = random.Random(21)
    sheet = tmp_path / "big.csv"
    sheet.write_text("Name,Qty,Foil\n" + "".join(
        f"{rng.choice(unique)},{rng.randint(1, 3)},{rng.randint(0, 1)}\n" for _ in range(IMPORT_ROWS)
    ))  # fmt: skip
    command = [sys.executable, "-m", "cardbase", "--db", pg_url.url, "import", str(sheet)]
    before = _collection(pg_url)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=subprocess_env())
    duration = time.perf_counter() - start
    after = _collection(pg_url)
    assert before != after
    assert run("undo").exit_code == 0
    assert _collection(pg_url) == before
    outcomes = set()
    for attempt in range(8):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   cwd=ROOT, env=subprocess_env())  # fmt: skip
        time.sleep(rng.uniform(0.2, duration * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        time.sleep(0.2)  # the server notices the lost client and rolls its transaction back
        state = _collection(pg_url)
        assert state in (before, after), f"attempt {attempt}: a state between before and after"
        outcomes.add("after" if state == after else "before")
        if state == after:
            assert run("undo").exit_code == 0
    assert "before" in outcomes  # the kills did land mid-import
