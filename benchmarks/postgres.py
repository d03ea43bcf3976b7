"""PostgreSQL beside SQLite, on the same data, for a league: searches, the trade lobby, and
importers writing at once.

A throwaway cluster (tests/pg_cluster.py, with the server's defaults: fsync on) gets the
generated catalogue and a league (`league.LEAGUES`: 200 collectors x 5k holdings at --size
100k); a SQLite file gets the same. Then, on both engines:
- the twelve queries of run.py in process, 50 rows each, as the league's first collector
  (whose 5k totals every search joins): p50 and p95 over every run, after one warm round;
- `trade lobby` for that collector against the 200 others, in process (`trades.lobby`);
- imports of a collection sheet by the CLI (`cardbase --db URL import`): a quarter of
  collection-<size>.csv by one importer alone, then the four quarters by four importers at
  once, each into its own collector, in a fresh copy of the catalogue each time.
Then `scaling.py` runs a mixed workload on the league and a streaming replica of it.

PostgreSQL's tables are VACUUM ANALYZEd after loading, as autovacuum would have them within
a minute: the figures are of a server in its steady state. Without PostgreSQL's programs or
psycopg, one row says so and nothing else runs.
"""

from __future__ import annotations

import csv
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import league
import scaling
from harness import BIN, HERE, Context, Row, copy_database, has

sys.path.insert(0, str(HERE.parent))  # the project's own tests/, for its throwaway cluster

from cardbase.db.location import Location, PostgresUrl
from cardbase.library import Library
from tests.pg_cluster import HOW_TO_RUN, Cluster, server_binaries

# pg_stat_statements counts each statement's calls and time, for scaling.py's split.
SETTINGS = {"shared_preload_libraries": "pg_stat_statements"}
IMPORTERS = 4
CATALOGUE = "catalogue"  # the database of the catalogue alone, copied for each import
ENGINES = ("sqlite", "postgresql")


def bench_postgres(ctx: Context, queries: tuple[str, ...]) -> Iterator[Row]:
    binaries = server_binaries()
    if binaries is None or not has("psycopg"):
        why = HOW_TO_RUN if binaries is None else "no psycopg: pip install -e '.[postgres]'"
        yield Row("postgresql", "skipped", float("nan"), why)
        return
    cluster = Cluster(binaries, SETTINGS)
    server = Server(cluster.start())
    try:
        server.create(CATALOGUE, ctx.catalogue)
        size = league.LEAGUES[ctx.size]
        started = time.perf_counter()
        leagues: dict[str, Location] = {"postgresql": server.create("league", template=CATALOGUE)}
        league.fill(leagues["postgresql"], size)
        server.vacuum("league")
        filled = {"postgresql": time.perf_counter() - started}
        started = time.perf_counter()
        leagues["sqlite"] = ctx.work / "league.db"
        copy_database(ctx.database("large"), leagues["sqlite"])
        league.fill(leagues["sqlite"], size)
        filled["sqlite"] = time.perf_counter() - started
        yield from _queries(ctx, leagues, queries)
        yield from _lobby(ctx, leagues, size, filled)
        yield from _imports(ctx, server)
        yield from scaling.bench_scaling(ctx, cluster, leagues["postgresql"], queries)
    finally:
        cluster.stop()


class Server:
    """The cluster's databases, made from a catalogue or as copies of another."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.base = url.rsplit("/", 1)[0]

    def admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(statement)

    def create(
        self, name: str, catalogue: Path | None = None, template: str | None = None
    ) -> PostgresUrl:
        """A new database: with `template`, a copy of that one (nobody may be connected to
        it); else cardbase's schema with `catalogue` loaded."""
        from cardbase.db.postgres import schema

        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.admin(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        url = PostgresUrl(f"{self.base}/{name}")
        if template is None:
            schema.prepare(url, Library(url), catalogue)
            self.vacuum(name)
        return url

    def drop_copies(self) -> None:
        """Drop every database but the league (and the server's own)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            names = conn.execute(
                "SELECT datname FROM pg_database WHERE NOT datistemplate "
                "AND datname NOT IN ('postgres', 'league')"
            ).fetchall()
            for (name,) in names:
                conn.execute(f"DROP DATABASE {name} WITH (FORCE)")

    def vacuum(self, name: str) -> None:
        import psycopg

        with psycopg.connect(f"{self.base}/{name}", autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * share) - 1)]


def _queries(ctx: Context, leagues: dict[str, Location], queries: tuple[str, ...]) -> Iterator[Row]:
    """The same queries on both engines, taking turns round by round."""
    from cardbase.query.search import run_query

    conns = {
        engine: Library(leagues[engine], league.first_collector()).connect() for engine in ENGINES
    }
    timings: dict[str, dict[str, list[float]]] = {e: {q: [] for q in queries} for e in ENGINES}
    for rounds in (1, max(ctx.reps, 3) * 3):  # the first, to warm caches, is not kept
        for engine in ENGINES:
            for query in queries:
                timings[engine][query] = []
        for _ in range(rounds):
            for engine, conn in conns.items():
                for query in queries:
                    took = _timed(partial(run_query, conn, query, limit=50))
                    timings[engine][query].append(took)
    p95 = {}
    for engine, conn in conns.items():
        conn.close()
        every = [t for times in timings[engine].values() for t in times]
        slowest = max(queries, key=lambda q: statistics.median(timings[engine][q]))
        worst = statistics.median(timings[engine][slowest]) * 1000
        p95[engine] = _percentile(every, 0.95)
        detail = f"{len(queries)} queries x {len(every) // len(queries)} as a league collector"
        yield Row("league query (50 rows)", f"{engine} p50", statistics.median(every), detail)
        yield Row("league query (50 rows)", f"{engine} p95", p95[engine],
                  f"slowest: {slowest} ({worst:.1f} ms median)",
                  p95[engine] / p95["sqlite"] if engine != "sqlite" else None)  # fmt: skip


def _lobby(
    ctx: Context, leagues: dict[str, Location], size: league.League, filled: dict[str, float]
) -> Iterator[Row]:
    """`trade lobby` of the league's first collector, in process, on each engine."""
    from cardbase.trades.lobby import lobby

    times: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    found = {}
    for _ in range(max(1, ctx.reps // 7)):
        for engine in ENGINES:
            conn = Library(leagues[engine], league.first_collector()).connect()
            try:
                start = time.perf_counter()
                found[engine] = lobby(conn)
                times[engine].append(time.perf_counter() - start)
            finally:
                conn.close()
    for engine in ENGINES:
        seconds, entries = statistics.median(times[engine]), len(found[engine].entries)
        detail = (f"{found[engine].others} others x {size.holdings:,} holdings, {entries} to "
                  f"trade with; league filled in {filled[engine]:.1f} s")  # fmt: skip
        ratio = seconds / statistics.median(times["sqlite"]) if engine != "sqlite" else None
        yield Row("trade lobby (league)", engine, seconds, detail, ratio)


def _quarters(ctx: Context) -> list[tuple[Path, int]]:
    """collection-<size>.csv cut in four sheets of its rows, each with its title and header,
    and how many rows each has."""
    source = ctx.data / f"collection-{ctx.size}.csv"
    with source.open(encoding="utf-8", newline="") as file:
        lines = list(csv.reader(file))
    header_at = next(n for n, line in enumerate(lines) if "Card Name" in line)
    head, rows = lines[: header_at + 1], lines[header_at + 1 :]
    share = len(rows) // IMPORTERS
    sheets = []
    for n in range(IMPORTERS):
        sheet = ctx.work / f"quarter-{n + 1}.csv"
        part = rows[n * share : (n + 1) * share if n < IMPORTERS - 1 else len(rows)]
        with sheet.open("w", encoding="utf-8", newline="") as file:
            csv.writer(file).writerows(head + part)
        sheets.append((sheet, len(part)))
    return sheets


def _import_all(location: Location, sheets: list[Path]) -> float:
    """Wall time of one `cardbase import` per sheet, all started at once, into c1, c2..."""
    cardbase = str(BIN / "cardbase")
    target = location.url if isinstance(location, PostgresUrl) else str(location)
    command = [cardbase, "--db", target, "import"]
    start = time.perf_counter()
    children = [
        subprocess.Popen(
            [*command, str(sheet), "--collector", f"c{n + 1}", "--skip-bad"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, sheet in enumerate(sheets)
    ]
    errors = [child.communicate()[1] for child in children]
    took = time.perf_counter() - start
    for child, error in zip(children, errors, strict=True):
        if child.returncode != 0:
            raise RuntimeError(f"cardbase import failed: {error.strip()[-2000:]}")
    return took


def _imports(ctx: Context, server: Server) -> Iterator[Row]:
    """One importer alone, then four at once, on each engine, each in a fresh database."""
    from cardbase.collection.roster import add_collector

    sheets = _quarters(ctx)
    made = iter(range(10**6))

    def fresh(engine: str) -> Location:
        location: Location
        if engine == "postgresql":
            location = server.create(f"imports_{next(made)}", template=CATALOGUE)
        else:
            location = ctx.work / f"imports-{next(made)}.db"
            copy_database(ctx.database("large"), location)
        for n in range(IMPORTERS):
            add_collector(Library(location), f"c{n + 1}")
        return location

    rows, total = sheets[0][1], sum(count for _, count in sheets)
    for engine in ENGINES:
        alone = _import_all(fresh(engine), [sheets[0][0]])
        together = _import_all(fresh(engine), [sheet for sheet, _ in sheets])
        speed_alone, speed_together = rows / alone, total / together
        yield Row(f"import, {IMPORTERS} at once", f"{engine}, 1 importer", alone,
                  f"{rows:,} rows: {speed_alone:,.0f} rows/s")  # fmt: skip
        yield Row(f"import, {IMPORTERS} at once", f"{engine}, {IMPORTERS} importers", together,
                  f"{total:,} rows: {speed_together:,.0f} rows/s; ratio: rows/s against 1",
                  speed_together / speed_alone)  # fmt: skip
    server.drop_copies()  # not the league's: the replica need not copy them
