"""The write benchmarks: one card, one command, cold; and undoing a whole import.

Separate from run.py because each needs databases of its own that the commands change:
copies of the bundled and the generated catalogue, one with the generated collection
imported (the "100k-holding collection" at --size 100k), one with none.

Each round runs `add`, `remove`, `set` and `undo` of one card in that order, so every one
of them writes (remove takes the copy add put there, set alternates between two counts,
undo reverts the set), then the peers:
- `sqlite-utils insert` of a one-row CSV into a database of its own (target <= 0.3);
- a cold `cardbase search` of the same card on the same database (target <= 1.5);
- the same command on the big collection against the empty one (target <= 1.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from harness import BIN, Context, Row, Run, alternate, copy_database, median, run_command, tool

CARDBASE = str(BIN / "cardbase")
BUNDLED_CARD = ("1 C 143", "chugawug cook")  # a code and the words that find it
STOCK = 1_000  # copies put in first, so that no round's remove runs out


def _run(db: Path, *args: str) -> Run:
    return run_command([CARDBASE, "--db", str(db), *args])


def _collection_db(ctx: Context) -> Path:
    """The generated catalogue with the generated collection imported, made once."""
    path = ctx.work / "with-collection.db"
    if not path.exists():
        copy_database(ctx.database("large"), path)
        sheet = ctx.data / f"collection-{ctx.size}.xlsx"
        _run(path, "import", str(sheet), "--skip-bad")
    return path


def _first_code(ctx: Context) -> str:
    with ctx.catalogue.open(encoding="utf-8") as file:
        file.readline()
        return file.readline().split(",")[0]


def _one_card(db: Path, code: str, label: str) -> dict[str, Callable[[], Run]]:
    """add, remove, set and undo of one card on `db`, each a write in every round."""
    counts = iter(range(10**6))
    # One holding of its own (a location no imported copy has), so that remove and set
    # name exactly the copies add put there, whatever else the collection holds of the card.
    here = ("--location", "Bench")
    _run(db, "add", f"{code} x{STOCK}", *here)
    return {
        f"add ({label})": lambda: _run(db, "add", code, *here),
        f"remove ({label})": lambda: _run(db, "remove", code, *here),
        f"set ({label})": lambda: _run(db, "set", f"{code} x{STOCK + 1 + next(counts) % 2}", *here),
        f"undo ({label})": lambda: _run(db, "undo"),
    }


def bench_one_card(ctx: Context) -> Iterator[Row]:
    bundled = ctx.work / "writes-bundled.db"
    copy_database(ctx.database("bundled"), bundled)
    empty, full = ctx.work / "writes-empty.db", ctx.work / "writes-full.db"
    copy_database(ctx.database("large"), empty)
    copy_database(_collection_db(ctx), full)
    code, words = BUNDLED_CARD
    big_code = _first_code(ctx)
    contenders = {
        **_one_card(bundled, code, "bundled"),
        **_one_card(empty, big_code, "empty"),
        **_one_card(full, big_code, "full"),
        "cardbase search (bundled)": lambda: _run(bundled, "search", words),
    }
    sqlite_utils = tool("sqlite-utils")
    if sqlite_utils:
        one_row = ctx.work / "one-row.csv"
        one_row.write_text("code,name,type\n1 C 14,Chugawug Cook,Creature\n", encoding="utf-8")
        peer_db = str(ctx.work / "sqlite-utils.db")
        contenders["sqlite-utils insert (one row)"] = lambda: run_command(
            [sqlite_utils, "insert", peer_db, "cards", str(one_row), "--csv"]
        )
    runs = alternate(contenders, ctx.reps)
    search = median(runs["cardbase search (bundled)"])
    peer = median(runs.get("sqlite-utils insert (one row)", [Run(float("nan"), 0)]))
    yield Row("one-card write", "sqlite-utils insert (one row)", peer)
    yield Row("one-card write", "cardbase search (bundled)", search, f"'{words}'")
    holdings = _holdings(full)
    for command in ("add", "remove", "set", "undo"):
        ours = median(runs[f"{command} (bundled)"])
        name = f"{command} (bundled)"
        yield Row("one-card write", name, ours, "vs sqlite-utils", ours / peer, "<= 0.3")
        yield Row("one-card write", name, ours, "vs cold search", ours / search, "<= 1.5")
        big, small = median(runs[f"{command} (full)"]), median(runs[f"{command} (empty)"])
        detail = f"{holdings:,} holdings vs none"
        yield Row("one-card write", f"{command} ({ctx.size} cards)", big, detail, big / small,
                  "<= 1.1")  # fmt: skip


def _holdings(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM holding").fetchone()[0])


def bench_undo_import(ctx: Context) -> Iterator[Row]:
    """Undoing a whole collection import against the import itself, each on a fresh copy."""
    template = _collection_db(ctx)
    sheet = ctx.data / f"collection-{ctx.size}.xlsx"
    counter = iter(range(10**6))

    def fresh(source: Path) -> Path:
        target = ctx.work / f"undo-{next(counter)}.db"
        copy_database(source, target)
        return target

    def timed(source: Path, *args: str) -> Run:
        target = fresh(source)
        try:
            return _run(target, *args)
        finally:
            for side in ("", "-wal", "-shm"):
                Path(f"{target}{side}").unlink(missing_ok=True)

    large = ctx.database("large")
    runs = alternate(
        {
            "import": lambda: timed(large, "import", str(sheet), "--skip-bad"),
            "undo": lambda: timed(template, "undo"),
        },
        ctx.reps,
    )
    imported, undone = median(runs["import"]), median(runs["undo"])
    yield Row("undo of an import", "cardbase import (xlsx)", imported, f"{ctx.size} rows")
    yield Row("undo of an import", "cardbase undo (of that import)", undone, "vs the import",
              undone / imported, "<= 0.5")  # fmt: skip
