"""Ctrl-C during a SQLite statement: the statement ends at once, and Python raises
KeyboardInterrupt as it does anywhere else, so the command exits 130.

While SQLite runs a statement, Python runs only the code SQLite calls back (the progress
handler, SQL functions such as regexp); that is where a pending Ctrl-C is noticed. Raising
KeyboardInterrupt there would not work: sqlite3 swallows a callback's exception and fails the
statement with a plain OperationalError. So Ctrl-C inside a callback only asks for the end of
the statement; the progress handler ends it ("interrupted"); and `interruptible` (or
`stopped`, for code with its own except clause) turns that error back into the
KeyboardInterrupt it was. Anywhere else, Ctrl-C raises KeyboardInterrupt at once, as ever.
"""

from __future__ import annotations

import signal
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# SQLite instructions between two calls of the progress handler: well under a millisecond
# of work, so a statement ends as soon as Ctrl-C is pressed, for a cost too small to measure.
PROGRESS_STEPS = 10_000

_stop = False  # Ctrl-C was pressed during a statement: end it
_CALLBACKS: set[CodeType] = set()


def callback(function: F) -> F:
    """Mark a function SQLite calls during statements, where Ctrl-C must not raise."""
    _CALLBACKS.add(function.__code__)
    return function


@callback
def _progress() -> bool:
    """SQLite's progress handler: true ends the running statement."""
    return _stop


class Connection(sqlite3.Connection):
    """sqlite3's connection, able to remember whether Ctrl-C ends its statements (a plain
    one takes no attributes), so that a handler set for a while is put back as it was."""

    watched = False


class StepBudget:
    """A progress handler that also ends the statement after about `steps` SQLite
    instructions, for a plan that may be cheap or very dear and is worth trying only when
    cheap (`cardbase.query.search`); `spent` tells that ending from a Ctrl-C."""

    GRAIN = 1_000  # instructions between two calls, or fewer for a smaller budget

    def __init__(self, steps: int) -> None:
        self.grain = max(1, min(self.GRAIN, steps))
        self.left = steps // self.grain
        self.spent = False

    def __call__(self) -> bool:
        if _stop:
            return True
        self.left -= 1
        self.spent = self.left < 0
        return self.spent


callback(StepBudget.__call__)


@contextmanager
def step_budget(conn: sqlite3.Connection, steps: int) -> Iterator[StepBudget]:
    """`conn`'s statements in the block end after about `steps` instructions (and on
    Ctrl-C); after it, Ctrl-C alone ends them, as `watch` set up."""
    budget = StepBudget(steps)
    conn.set_progress_handler(budget, budget.grain)
    try:
        yield budget
    finally:
        if isinstance(conn, Connection) and conn.watched:
            conn.set_progress_handler(_progress, PROGRESS_STEPS)
        else:
            conn.set_progress_handler(None, 0)


def watch(conn: sqlite3.Connection) -> None:
    """Let Ctrl-C end `conn`'s statements.

    The handler is installed only over Python's own (in the main thread, nobody else's
    handler set, Ctrl-C not ignored); where another is in place, it stays, and Ctrl-C acts
    as it did before.
    """
    conn.set_progress_handler(_progress, PROGRESS_STEPS)
    if isinstance(conn, Connection):
        conn.watched = True
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        signal.signal(signal.SIGINT, _on_ctrl_c)


def unwatch(conn: object) -> None:
    """Take `watch`'s progress handler off `conn`, for good: Ctrl-C no longer ends its
    statements (a server, where the handler's Python calls cost concurrent requests). A
    PostgreSQL connection has none: psycopg cancels the statement on Ctrl-C itself."""
    if not isinstance(conn, sqlite3.Connection):
        return
    conn.set_progress_handler(None, 0)
    if isinstance(conn, Connection):
        conn.watched = False


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    global _stop
    while frame is not None:
        if frame.f_code in _CALLBACKS:
            _stop = True  # the progress handler ends the statement
            return
        frame = frame.f_back
    _stop = False
    raise KeyboardInterrupt


def stopped() -> bool:
    """Whether Ctrl-C ended the statement that just failed; asking forgets it, so the next
    statement runs."""
    global _stop
    was, _stop = _stop, False
    return was


@contextmanager
def interruptible() -> Iterator[None]:
    """Statements in the block that Ctrl-C ended raise KeyboardInterrupt, not OperationalError;
    so does a block whose statements all ended before the progress handler saw Ctrl-C."""
    try:
        yield
    except sqlite3.OperationalError:
        if stopped():
            raise KeyboardInterrupt from None
        raise
    if stopped():
        raise KeyboardInterrupt
