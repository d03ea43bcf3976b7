"""Start-up of a read command before and after a change, in paired runs: `cardbase search
chugawug` from two source trees, alternating which goes first, medians of wall and CPU time.

    git archive BASE | tar -x -C /tmp/before
    python benchmarks/startup_games.py /tmp/before . --runs 20

Both trees run with bytecode (as an installed package has it, in a cache folder of their
own) from a neutral folder, so `python -m` does not import the current directory's
cardbase; the databases are made beforehand, one a tree in /tmp ($CARDBASE_DB: one for both).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    work = Path(tempfile.mkdtemp(prefix="cardbase-startup-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(CARDBASE_CONFIG=os.devnull, PYTHONPYCACHEPREFIX=str(work / "pycache"))
    # A database each (unless $CARDBASE_DB names one): across a schema change the older
    # tree refuses a database the newer one has upgraded.
    dbs = {name: os.environ.get("CARDBASE_DB") or str(work / f"{name}.db") for name in trees}
    wall: dict[str, list[float]] = {name: [] for name in trees}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    for name in trees:  # the database, the bytecode and the games' cache made first
        _run(trees[name], {**env, "CARDBASE_DB": dbs[name]}, work)
    for turn in range(args.runs):
        order = list(trees) if turn % 2 == 0 else list(trees)[::-1]
        for name in order:
            took, used = _run(trees[name], {**env, "CARDBASE_DB": dbs[name]}, work)
            wall[name].append(took)
            cpu[name].append(used)
    for name in trees:
        print(f"{name}: wall median {statistics.median(wall[name]):.1f} ms, CPU median "
              f"{statistics.median(cpu[name]):.1f} ms over {args.runs} runs")  # fmt: skip


def _run(tree: Path, env: dict[str, str], work: Path) -> tuple[float, float]:
    import time

    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "search", "chugawug"],
        env={**env, "PYTHONPATH": str(tree)},
        cwd=work,
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"{tree}: cardbase search failed ({status})")
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


if __name__ == "__main__":
    main()
