"""What cardbase has to tell a user once, apart from any command's own output.

An upgrade runs inside whichever command first opens an older database, and some upgrades
have something to say (a database made from the old sample catalogue can move to the real
one); so does a command that leaves something out (a folder inside a folder of decks) or
tidies up (the files a stopped command left). They say it here, from wherever they are, and
the face says it when its work is done: the command line on stderr when the command ends,
the web page inside the page that the request shows.

What is told goes to the listener of the current context (`listening`): the web gives each
request its own, so one request's note never shows in another's page, threads included.
Without one (the command line, a script), it is the process's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_PROCESS: list[str] = []
_LISTENER: ContextVar[list[str] | None] = ContextVar("cardbase_notices", default=None)


def tell(message: str) -> None:
    heard = _LISTENER.get()
    (_PROCESS if heard is None else heard).append(message)


def take() -> list[str]:
    """What was said since the last call, in order; said once, then gone."""
    heard = _LISTENER.get()
    pending = _PROCESS if heard is None else heard
    said = pending[:]
    pending.clear()
    return said


@contextmanager
def listening() -> Iterator[None]:
    """What is told inside the block (and in the threads it hands work to, which copy its
    context) is taken inside it, apart from anything told elsewhere."""
    token = _LISTENER.set([])
    try:
        yield
    finally:
        _LISTENER.reset(token)
