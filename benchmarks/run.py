"""Side-by-side benchmarks: cardbase and a peer, measured in the same run.

    python benchmarks/run.py [--size 100k] [--only search,import] [--reps 7]

Each benchmark runs cardbase and its peer alternately, several times, and reports medians
and the ratio cardbase/peer against the target from the issue. Nothing here fails on
slowness: the table is for reading, and CI runs `--size 1k --reps 1` only to show the
benchmarks still work. Peers come from the `bench` extra (pip install -e '.[bench]'); a
missing peer is reported, not fatal.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

BIN = Path(sys.executable).parent


@dataclass
class Row:
    benchmark: str
    contender: str
    median_s: float
    detail: str = ""
    ratio: float | None = None
    target: str = ""


@dataclass
class Run:
    seconds: float
    peak_kib: int


def run_command(args: list[str], cwd: Path | None = None) -> Run:
    """Time one command to completion, with its own peak memory (from wait4)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise RuntimeError(f"{' '.join(args)} failed: {error.strip()}")
    return Run(elapsed, usage.ru_maxrss)


def alternate(contenders: dict[str, Callable[[], Run]], reps: int) -> dict[str, list[Run]]:
    """Run every contender once per round, for `reps` rounds, so drift hits all alike."""
    runs: dict[str, list[Run]] = {name: [] for name in contenders}
    for _ in range(reps):
        for name, contender in contenders.items():
            runs[name].append(contender())
    return runs


def median(runs: list[Run]) -> float:
    return statistics.median(run.seconds for run in runs)


def tool(name: str) -> str | None:
    found = BIN / name
    return str(found) if found.exists() else shutil.which(name)


class Context:
    """Data files and databases for one size, made once per run."""

    def __init__(self, size: str, reps: int, work: Path) -> None:
        self.size, self.reps, self.work = size, reps, work
        self.data = HERE / "data"
        if not (self.data / f"catalogue-{size}.csv").exists():
            generate.generate(size, self.data)
        self.catalogue = self.data / f"catalogue-{size}.csv"
        self._dbs: dict[str, Path] = {}

    def database(self, which: str) -> Path:
        """'bundled' (the sample catalogue) or 'large' (the generated one), created once."""
        if which not in self._dbs:
            from cardbase import schema

            path = self.work / f"{which}.db"
            schema.prepare(path, None if which == "bundled" else self.catalogue)
            self._dbs[which] = path
        return self._dbs[which]


BARE_SEARCH = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute(
    "SELECT card.* FROM card JOIN card_fts ON card_fts.rowid = card.id "
    "WHERE card_fts MATCH ? ORDER BY card_fts.rank", (sys.argv[2],)).fetchall()
sys.stdout.write("\\n".join("\\t".join(map(str, row)) for row in rows))
"""


def bench_search(ctx: Context) -> Iterator[Row]:
    cardbase = str(BIN / "cardbase")
    large, bundled = ctx.database("large"), ctx.database("bundled")
    contenders: dict[str, Callable[[], Run]] = {
        "cardbase search dragon": lambda: run_command(
            [cardbase, "--db", str(large), "search", "dragon"]
        ),
        "bare python+sqlite3 FTS": lambda: run_command(
            [sys.executable, "-c", BARE_SEARCH, str(large), "dragon"]
        ),
        "cardbase search dragon (bundled)": lambda: run_command(
            [cardbase, "--db", str(bundled), "search", "dragon"]
        ),
    }
    sqlite_utils = tool("sqlite-utils")
    if sqlite_utils:
        contenders["sqlite-utils search"] = lambda: run_command(
            [sqlite_utils, "search", str(large), "card", "dragon"]
        )
    runs = alternate(contenders, ctx.reps)
    ours = median(runs["cardbase search dragon"])
    yield Row("cold search", "cardbase search dragon", ours, f"{ctx.size} cards")
    targets = {
        "sqlite-utils search": "<= 0.3",
        "bare python+sqlite3 FTS": "<= 2.0",
        "cardbase search dragon (bundled)": "<= 1.2",
    }
    for name, target in targets.items():
        if name in runs:
            theirs = median(runs[name])
            yield Row("cold search", name, theirs, ratio=ours / theirs, target=target)
        else:
            yield Row("cold search", name, float("nan"), "peer not installed")


QUERIES = (
    "dragon", "chug*", "t:creature s:chaos cost>=2 cost<=4", "name:storm", "gem:rr",
    "atk>def r>=r", "tr:wizard -s:order", "(s:nature or s:machine) t:trick", "is:hero",
    "cost:2..4 order:-attack", '"draw a card"', "o:stun gems>=3",
)  # fmt: skip


def bench_query(ctx: Context) -> Iterator[Row]:
    from cardbase import db
    from cardbase.search import run_query

    conn = db.open_db(ctx.database("large"))
    timings: list[float] = []
    for _ in range(max(ctx.reps, 3)):
        for query in QUERIES:
            start = time.perf_counter()
            run_query(conn, query, limit=50)
            timings.append(time.perf_counter() - start)
    timings.sort()
    p50 = timings[len(timings) // 2]
    p95 = timings[int(len(timings) * 0.95) - 1]
    yield Row("in-process query (50 rows)", "cardbase p50", p50, f"{len(QUERIES)} queries")
    yield Row("in-process query (50 rows)", "cardbase p95", p95, target="p95 <= 5 ms")


def bench_catalogue_import(ctx: Context) -> Iterator[Row]:
    cardbase = str(BIN / "cardbase")
    template = ctx.database("bundled")
    counter = iter(range(10**6))

    def ours() -> Run:
        target = ctx.work / f"import-{next(counter)}.db"
        shutil.copy(template, target)
        try:
            return run_command(
                [cardbase, "--db", str(target), "catalog", "import", str(ctx.catalogue)]
            )
        finally:
            target.unlink()

    contenders: dict[str, Callable[[], Run]] = {"cardbase catalog import": ours}
    sqlite_utils = tool("sqlite-utils")
    if sqlite_utils:

        def theirs() -> Run:
            target = ctx.work / f"su-{next(counter)}.db"
            try:
                return run_command(
                    [sqlite_utils, "insert", str(target), "cards", str(ctx.catalogue), "--csv"]
                )
            finally:
                target.unlink(missing_ok=True)

        contenders["sqlite-utils insert --csv"] = theirs
    runs = alternate(contenders, ctx.reps)
    ours_s = median(runs["cardbase catalog import"])
    peak = max(run.peak_kib for run in runs["cardbase catalog import"]) // 1024
    yield Row(
        "catalogue import", "cardbase catalog import", ours_s, f"{ctx.size} rows, peak {peak} MB"
    )
    if "sqlite-utils insert --csv" in runs:
        theirs_s = median(runs["sqlite-utils insert --csv"])
        yield Row(
            "catalogue import", "sqlite-utils insert --csv", theirs_s, ratio=ours_s / theirs_s
        )


BENCHMARKS: dict[str, Callable[[Context], Iterator[Row]]] = {
    "search": bench_search,
    "query": bench_query,
    "import": bench_catalogue_import,
}


def format_table(rows: list[Row]) -> str:
    lines = [
        "| benchmark | contender | median | ratio cardbase/peer | target | detail |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for row in rows:
        ratio = f"{row.ratio:.2f}" if row.ratio is not None else ""
        seconds = "n/a" if row.median_s != row.median_s else f"{row.median_s * 1000:.1f} ms"
        cells = (row.benchmark, row.contender, seconds, ratio, row.target, row.detail)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmark cardbase against its peers.")
    parser.add_argument("--size", default="100k", choices=list(generate.SIZES), type=str.lower)
    parser.add_argument("--only", default="", help=f"comma-separated: {', '.join(BENCHMARKS)}")
    parser.add_argument("--reps", type=int, default=7, help="rounds per benchmark (default 7)")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()] or list(BENCHMARKS)
    unknown = sorted(set(chosen) - set(BENCHMARKS))
    if unknown:
        parser.error(
            f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}"
        )
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="cardbase-bench-") as work:
        ctx = Context(args.size, args.reps, Path(work))
        for name in chosen:
            rows.extend(BENCHMARKS[name](ctx))
    print(f"cardbase benchmarks, size {args.size}, {args.reps} rounds, "
          f"python {platform.python_version()}, {os.cpu_count()} cpus")  # fmt: skip
    print(format_table(rows))
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=2))


if __name__ == "__main__":
    main()
