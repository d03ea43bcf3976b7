"""Past one server, measured on one: what a read replica would take off the primary, what
sharding by collector would keep on one shard, and whether a streaming replica serves
cardbase's searches.

- A mixed workload on the league for `MIX_SECONDS`: `SEARCHERS` clients running run.py's
  queries (each as another collector), one trader (`trade match --with` a different
  collector each time) and one writer (a one-card `add` then `remove`, through the
  library function behind `cardbase add`), each logged in as its own role, so that
  pg_stat_statements splits the server's statement time by who asked. The searchers' and
  trader's share is what a read replica could carry; the writer's rate alone, and beside
  the readers, is what the reads cost the writes when they share a machine.
- Sharding as Citus would do it: holding, ownership, batch, history, deck and deck_entry
  distributed by collector, card, card_fts and collector replicated to every node. Each
  statement of the mix is classed by the tables it names and whether it names one
  collector; history and deck_entry have no collector_id of their own, so statements that
  reach them by batch or deck id are classed apart.
- A streaming replica of the league (pg_basebackup -R): how long it takes to make, and the
  league's queries run on it, or why they cannot.
"""

from __future__ import annotations

import multiprocessing
import re
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import league
from harness import Context, Row

from cardbase.db.location import PostgresUrl
from cardbase.library import Library

SEARCHERS = 2  # one per core of the machine the README's figures come from
MIX_SECONDS = {"1k": 1.0, "10k": 6.0, "100k": 30.0, "1m": 30.0}
ROLES = ("searcher", "trader", "writer")
DISTRIBUTED = {"holding", "ownership", "batch", "history", "deck", "deck_entry"}
NO_COLLECTOR_COLUMN = {"history", "deck_entry"}
COLLECTOR_VIEWS = {"my_holding", "my_ownership"}  # one collector's rows (`use_collector`)
_NAMED = re.compile(r"\b(?:from|join|into|update)\s+(?:only\s+)?([a-z_]+)")
# One collector named: `collector_id = $1`, `(collector_id, card_id, ...) = ($1, $2, ...)`,
# or an INSERT ... VALUES that gives collector_id a value.
_ONE_COLLECTOR = re.compile(
    r"collector_id\s*=\s*(?:\$\d+|\d+)|\(collector_id,[^)]*\)\s*=\s*\(\$"
    r"|\(collector_id,[^)]*\)\s*values\s*\(\$"
)


def as_role(url: PostgresUrl, role: str) -> PostgresUrl:
    """The same database, logged in as `role` (the cluster trusts every local login)."""
    scheme, rest = url.url.split("://", 1)
    return PostgresUrl(f"{scheme}://{role}@{rest.split('@', 1)[1]}")


def shard_class(sql: str) -> str:
    """Where a statement would run with the league sharded by collector."""
    text = " ".join(sql.lower().split())
    if not text.startswith(("select", "insert", "update", "delete", "with")):
        return "session"  # BEGIN, COMMIT, SET, the temporary views: on the node it lands on
    if "pg_advisory" in text:
        return "write lock"  # one lock for the whole league: a node would have to own it
    named = set(_NAMED.findall(text))
    tables = named & DISTRIBUTED
    if not tables:
        return "one shard" if named & COLLECTOR_VIEWS else "reference tables"
    if tables & NO_COLLECTOR_COLUMN:  # not co-located with the rest until they have one
        return "one shard, once history and deck_entry have collector_id"
    if _ONE_COLLECTOR.search(text) or named & COLLECTOR_VIEWS:
        return "one shard"
    return "every shard"


def _worker(
    kind: str, url: PostgresUrl, collector: str, seconds: float, work: list[str]
) -> list[float]:
    """One client of the mix: how long each of its operations took, until time is up."""
    from cardbase.collection.changes import Mode
    from cardbase.collection.items import change_items
    from cardbase.query.search import run_query
    from cardbase.trades.lobby import match_with

    conn = Library(url, collector).connect() if kind != "writer" else None
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        item = work[len(times) % len(work)]
        start = time.perf_counter()
        if kind == "searcher":
            run_query(conn, item, limit=50)
        elif kind == "trader":
            match_with(conn, item)
        else:
            mode = Mode.ADD if len(times) % 2 == 0 else Mode.REMOVE
            change_items(Library(url, collector), [item], mode)
        times.append(time.perf_counter() - start)
    if conn is not None:
        conn.close()
    return times


def _mix(clients: list[tuple[str, PostgresUrl, str, float, list[str]]]) -> list[list[float]]:
    """Run the clients at once, each in a process of its own (forked: no start-up to pay)."""
    with multiprocessing.get_context("fork").Pool(len(clients)) as pool:
        return pool.starmap(_worker, clients)


def _statements(admin: Any) -> list[tuple[str, str, int, float]]:
    """pg_stat_statements since its last reset: role, statement, calls, milliseconds."""
    return admin.execute(
        "SELECT r.rolname, s.query, s.calls, s.total_exec_time FROM pg_stat_statements AS s "
        "JOIN pg_roles AS r ON r.oid = s.userid"
    ).fetchall()


def bench_scaling(
    ctx: Context, cluster: Any, url: PostgresUrl, queries: tuple[str, ...]
) -> Iterator[Row]:
    import psycopg

    seconds = MIX_SECONDS[ctx.size]
    size = league.LEAGUES[ctx.size]
    names = [f"{league.PREFIX}{10_000 + k}" for k in range(1, size.collectors + 1)]
    with ctx.catalogue.open(encoding="utf-8") as catalogue:
        code = [catalogue.readline() for _ in range(2)][1].split(",")[0]  # the writer's card
    with psycopg.connect(url.url, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        for role in ROLES:
            admin.execute(f"DROP ROLE IF EXISTS {role}")
            admin.execute(f"CREATE ROLE {role} LOGIN SUPERUSER")
        writer = ("writer", as_role(url, "writer"), names[-1], seconds / 3, [code])
        alone = _mix([writer])[0]
        admin.execute("SELECT pg_stat_statements_reset()")
        clients = [
            ("searcher", as_role(url, "searcher"), names[n + 1], seconds,
             list(queries[n:] + queries[:n]))
            for n in range(SEARCHERS)
        ]  # fmt: skip
        clients.append(("trader", as_role(url, "trader"), names[0], seconds, names[1:]))
        clients.append((*writer[:3], seconds, [code]))
        done = _mix(clients)
        statements = [row for row in _statements(admin) if row[0] in ROLES]
    yield from _split(done, alone, statements, seconds)
    yield from _shards(statements, size)
    yield from _replica(cluster, url, queries, names[0])


def _split(
    done: list[list[float]], alone: list[float], statements: list[tuple[str, str, int, float]],
    seconds: float,
) -> Iterator[Row]:  # fmt: skip
    """Who used the server's time in the mix, and what the readers cost the writer."""
    by_role: dict[str, float] = dict.fromkeys(ROLES, 0.0)
    for role, _, _, ms in statements:
        by_role[role] += ms
    total = sum(by_role.values()) or 1.0
    searches = [t for times in done[:SEARCHERS] for t in times]
    trades, writes = done[SEARCHERS], done[SEARCHERS + 1]
    bench = f"league mix, {seconds:g} s"
    share = {role: 100 * by_role[role] / total for role in ROLES}
    yield Row(bench, f"search p95 ({SEARCHERS} clients)", _p95(searches),
              f"{len(searches) / seconds:.0f} searches/s, {share['searcher']:.0f}% of "
              "statement time")  # fmt: skip
    yield Row(bench, "trade match --with, median", statistics.median(trades),
              f"{len(trades)} matches, {share['trader']:.0f}% of statement time")  # fmt: skip
    yield Row(bench, "one-card write, median", statistics.median(writes),
              f"{len(writes) / seconds:.1f} writes/s, {share['writer']:.0f}% of statement time; "
              f"readers' share {share['searcher'] + share['trader']:.0f}%")  # fmt: skip
    alone_rate = len(alone) / (seconds / 3)
    yield Row(bench, "one-card write alone, median", statistics.median(alone),
              f"{alone_rate:.1f} writes/s; ratio: writes/s beside the readers against alone",
              (len(writes) / seconds) / alone_rate)  # fmt: skip


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def _shards(statements: list[tuple[str, str, int, float]], size: league.League) -> Iterator[Row]:
    """The mix's statements by where a collector-sharded league would run them."""
    calls: Counter[str] = Counter()
    ms: dict[str, float] = {}
    for _, sql, count, spent in statements:
        where = shard_class(sql)
        calls[where] += count
        ms[where] = ms.get(where, 0.0) + spent
    all_calls, all_ms = sum(calls.values()) or 1, sum(ms.values()) or 1.0
    for where, count in calls.most_common():
        yield Row("sharded by collector", where, float("nan"),
                  f"{100 * count / all_calls:.1f}% of {all_calls:,} statements, "
                  f"{100 * ms[where] / all_ms:.1f}% of their time")  # fmt: skip
    yield Row("sharded by collector", "trade lobby", float("nan"),
              f"one lobby reads all {size.collectors + 1} collectors: every shard")  # fmt: skip


def _replica(
    cluster: Any, url: PostgresUrl, queries: tuple[str, ...], collector: str
) -> Iterator[Row]:
    """A hot standby of the cluster, made by pg_basebackup -R: can the queries run on it?"""
    from tests.pg_cluster import Cluster

    # initdb may be a link on PATH to the folder that also has pg_basebackup
    basebackup = (cluster.binaries / "initdb").resolve().parent / "pg_basebackup"
    if not basebackup.exists():
        yield Row("read replica", "skipped", float("nan"), f"no {basebackup}")
        return
    replica = Cluster(cluster.binaries, {})
    try:
        start = time.perf_counter()
        source = ("-h", "127.0.0.1", "-p", str(cluster.port), "-U", cluster.user)
        replica.run(str(basebackup), *source, "-D", str(replica.data), "-R", "-c", "fast")
        server = replica.launch()
        made = time.perf_counter() - start
        standby = PostgresUrl(f"{server.rsplit('/', 1)[0]}/{url.url.rsplit('/', 1)[1]}")
        try:
            conn = Library(standby, collector).connect()
        except Exception as exc:  # what a user of the replica would read
            yield Row(REPLICA, "search on it", made, f"{REPLICA_MADE}; refused: {exc}")
            return
        times = [_timed_query(conn, query) for query in queries * 3]
        conn.close()
        p95 = _p95(times) * 1000
        yield Row(REPLICA, "search on it", made, f"{REPLICA_MADE}; the queries' p95: {p95:.1f} ms")
    finally:
        replica.stop()


REPLICA = "streaming replica"
REPLICA_MADE = "made by pg_basebackup -R in this time"


def _timed_query(conn: Any, query: str) -> float:
    from cardbase.query.search import run_query

    start = time.perf_counter()
    run_query(conn, query, limit=50)
    return time.perf_counter() - start
