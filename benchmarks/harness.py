"""The benchmarks' harness: timing whole commands, their peak memory, and the data they use.

benchmarks/run.py holds the benchmarks themselves; this module holds what they share.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import generate

from cardbase.library import Library

HERE = Path(__file__).parent
BIN = Path(sys.executable).parent
# How often a running contender's peak memory is read. VmHWM is a high-water mark, so a
# slow poll still sees the peak; a fast one would steal a core from the contender.
POLL_SECONDS = 0.025


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


def run_command(
    args: list[str], cwd: Path | None = None, exit_codes: tuple[int, ...] = (0,)
) -> Run:
    """Time one command to completion, with its own peak memory; other exit codes are failures.

    Peak memory is the child's VmHWM from /proc, read as it runs: getrusage's maxrss would
    start from this (much larger) process's, which a child inherits on Linux.
    """
    with tempfile.TemporaryFile() as errors:  # a pipe would fill up and stall a chatty child
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errors, cwd=cwd)
        peak = 0
        while True:
            try:
                process.wait(timeout=POLL_SECONDS)  # returns the moment the child ends
                break
            except subprocess.TimeoutExpired:
                peak = max(peak, _high_water_kib(process.pid))
        elapsed = time.perf_counter() - start
        if process.returncode not in exit_codes:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()[-2000:]
            raise RuntimeError(f"{' '.join(args)} failed: {message}")
    return Run(elapsed, peak)


def _high_water_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


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
        """'bundled' (the real catalogue, 707 cards) or 'large' (the generated one), made once."""
        if which not in self._dbs:
            from cardbase.db import schema

            path = self.work / f"{which}.db"
            schema.prepare(path, Library(path), None if which == "bundled" else self.catalogue)
            self._dbs[which] = path
        return self._dbs[which]


def has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def copy_database(source: Path, target: Path) -> None:
    import sqlite3

    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


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


def compile_cardbase() -> None:
    """Byte-compile cardbase as pip does on install, so cold starts are measured as users have
    them: an editable install under PYTHONDONTWRITEBYTECODE would compile every module on
    every run."""
    import compileall

    import cardbase

    compileall.compile_dir(str(Path(cardbase.__file__).parent), quiet=1)
