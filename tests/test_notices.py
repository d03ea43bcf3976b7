"""What is told once reaches the listener of its own context: a request's page hears its own
notes, never another's, and the command line (no listener) hears the process's."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor

from cardbase import notices


def test_told_once_then_gone() -> None:
    notices.take()
    notices.tell("one")
    notices.tell("two")
    assert notices.take() == ["one", "two"]
    assert notices.take() == []


def test_each_listener_hears_its_own_and_threads_that_copy_its_context() -> None:
    notices.take()

    def request(name: str) -> list[str]:
        with notices.listening():
            context = contextvars.copy_context()  # as a handler's worker thread gets it
            with ThreadPoolExecutor(1) as pool:
                pool.submit(context.run, notices.tell, f"{name}'s note").result()
            return notices.take()

    with ThreadPoolExecutor(2) as pool:
        heard = list(pool.map(lambda name: contextvars.copy_context().run(request, name), "ab"))
    assert heard == [["a's note"], ["b's note"]]
    assert notices.take() == []  # nothing reached the process's own
