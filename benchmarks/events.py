"""Event benchmarks: pairing one Swiss round of 256 players in process, and a whole
64-player, 6-round event typed through the command line, first registration to the final
standings, as an organiser would run it (one process a command, a round's results in one
`event report --file`)."""

from __future__ import annotations

import json
import random
import resource
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from harness import BIN, Context, Row

from cardbase.events.swiss import Entrant, pair

PAIRING_PLAYERS = 256
EVENT_PLAYERS, EVENT_ROUNDS = 64, 6
RESULTS = ("2-0", "2-1", "1-2", "0-2", "1-1-1")


def _midway_entrants(players: int, rounds: int, luck: random.Random) -> list[Entrant]:
    """Standings after `rounds` random rounds (paired by the engine itself), in order."""
    points = {f"P{n:03d}": 0 for n in range(players)}
    met: dict[str, set[str]] = {p: set() for p in points}
    byes: dict[str, int] = dict.fromkeys(points, 0)
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda p: (-points[p], p))
        entrants = [Entrant(p, points[p], frozenset(met[p]), byes[p]) for p in order]
        for table in pair(entrants, 1, number).tables:
            if not table.second:
                byes[table.first] += 1
                points[table.first] += 3
                continue
            met[table.first].add(table.second)
            met[table.second].add(table.first)
            points[luck.choice((table.first, table.second))] += 3
    order = sorted(points, key=lambda p: (-points[p], p))
    return [Entrant(p, points[p], frozenset(met[p]), byes[p]) for p in order]


def bench_pairing(ctx: Context) -> Iterator[Row]:
    """One round of 256 players after four rounds played: the pruned graph's matching."""
    entrants = _midway_entrants(PAIRING_PLAYERS, 4, random.Random(5))
    times = []
    for rep in range(max(1, ctx.reps)):
        start = time.perf_counter()
        pair(entrants, rep, 5)
        times.append(time.perf_counter() - start)
    times.sort()
    yield Row("event pairing", f"swiss.pair, {PAIRING_PLAYERS} players, round 5",
              times[len(times) // 2], f"{len(times)} runs", target="< 1 s")  # fmt: skip


def _cardbase(db: str, *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "cardbase"), "--db", db, *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"cardbase {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def _whole_event(db: str, luck: random.Random) -> None:
    name = "Bench Open"
    _cardbase(db, "event", "create", name, "--format", "free-realms", "--seed", "9",
              "--rounds", str(EVENT_ROUNDS))  # fmt: skip
    for n in range(EVENT_PLAYERS):
        _cardbase(db, "event", "register", name, f"Player {n:02d}")
    results = Path(db).with_suffix(".results.txt")
    for _ in range(EVENT_ROUNDS):
        paired = json.loads(_cardbase(db, "event", "pair", name, "-o", "json"))
        lines = [f"{table['table']} {luck.choice(RESULTS)}\n"
                 for table in paired["tables"] if table["second"]]  # fmt: skip
        results.write_text("".join(lines))
        _cardbase(db, "event", "report", name, "--file", str(results))
    _cardbase(db, "event", "standings", name)


def bench_event_cli(ctx: Context) -> Iterator[Row]:
    """The whole event, wall-clock and CPU (the processes' user and system time: what the
    target counts, on a machine others share)."""
    walls, cpus = [], []
    for rep in range(max(1, min(ctx.reps, 3))):
        db = ctx.work / f"event-{rep}.db"
        shutil.copy(ctx.database("bundled"), db)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        _whole_event(str(db), random.Random(rep))
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    commands = 2 + EVENT_PLAYERS + EVENT_ROUNDS * 2
    wall, cpu = sorted(walls)[len(walls) // 2], sorted(cpus)[len(cpus) // 2]
    yield Row("event through the CLI", f"{EVENT_PLAYERS} players, {EVENT_ROUNDS} rounds, CPU",
              cpu, f"{commands} commands; wall {wall:.1f} s", target="< 30 s")  # fmt: skip
