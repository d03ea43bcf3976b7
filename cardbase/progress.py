"""How a long job says how far it has got, without drawing anything.

The library reports; only `cardbase.cli` draws (a rich bar on a terminal, nothing when
piped). A job calls its `Progress` with a stage's name, the steps done and the steps in
all, at the start of each stage, every `EVERY` steps and at its end; the default hears
nothing, so library callers and tests pay one call per few thousand rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

# Told how far a job has got: a stage's name, steps done, steps in all.
Progress = Callable[[str, int, int], None]
EVERY = 2_000  # steps between reports: a 100k-row stage reports 50 times

T = TypeVar("T")


def quiet(stage: str, done: int, total: int) -> None:
    """The default report: none."""


class Stage:
    """One stage reported across several loops (a write's copies, totals and history): each
    loop's items add to the same count, so the bar moves on through all of them."""

    def __init__(self, name: str, total: int, progress: Progress = quiet) -> None:
        self.name, self.total, self.done, self._progress = name, total, 0, progress
        progress(name, 0, total)

    def over(self, items: Iterable[T]) -> Iterator[T]:
        """`items`, unchanged, counted as they are consumed (by executemany, a writer): the
        stage moves while the work happens, not only before and after it."""
        for item in items:
            yield item
            self.tick()

    def tick(self) -> None:
        """One step done, in a loop that is not over an iterable."""
        self.done += 1
        if self.done % EVERY == 0:
            self._progress(self.name, self.done, self.total)

    def add(self, steps: int) -> None:
        """Steps done in one go (a statement over a chunk of cards)."""
        self.done += steps
        self._progress(self.name, self.done, self.total)

    def finish(self) -> None:
        self._progress(self.name, self.total, self.total)


def counted(items: Iterable[T], stage: str, total: int, progress: Progress = quiet) -> Iterator[T]:
    """`items`, unchanged, as one stage of `total` steps."""
    reported = Stage(stage, total, progress)
    yield from reported.over(items)
    reported.finish()


def step(stage: str, progress: Progress, work: Callable[[], T]) -> T:
    """One step that cannot report from inside (one SQL statement, saving a file), said
    before and after."""
    progress(stage, 0, 1)
    result = work()
    progress(stage, 1, 1)
    return result
