"""`cardbase serve --workers N`: several processes answering on one socket, each with a
`Site` of its own, and what must still hold whichever of them a request reaches: a form's
CSRF token, the organiser's session after the PIN, a device's wrong tries.

The real server runs here: a keep-alive connection stays with the worker that accepted
it, so two connections held open, found on different workers (Linux's /proc says which
process holds the server's end), put each request on the worker the test chooses.
"""

from __future__ import annotations

import gc
import http.client
import os
import pickle
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")

from cardbase.library import Library
from cardbase.web.site import Site
from cardbase.web.trylog import TryLog
from tests.conftest import ROOT, Run, subprocess_env
from tests.helpers import assert_one_line

EVENT = "Spring Open"
PIN = "4817"


@pytest.mark.parametrize("given", ["0", "-1", "two", "65"])
def test_a_bad_number_of_workers_is_one_line(run: Run, given: str) -> None:
    assert "--workers" in assert_one_line(run("serve", "--workers", given))


def test_a_workers_site_has_the_first_ones_secrets_and_leaves_its_folder(tmp_path: Path) -> None:
    """What a worker process is given (pickled, as uvicorn's processes are spawned): the
    same secrets and uploads folder, which it does not remove when it goes."""
    first = Site(tmp_path / "cards.db", "Ann", organiser_pin=PIN, public=True)
    worker = Site(**pickle.loads(pickle.dumps(first.for_workers())))
    same = ("db_path", "collector", "csrf_token", "organiser_pin", "organiser_session",
            "uploads", "public")  # fmt: skip
    assert all(getattr(worker, name) == getattr(first, name) for name in same)
    assert worker.counts is not first.counts and worker.tabs is not first.tabs
    folder = worker.uploads
    del worker
    gc.collect()
    assert folder.is_dir()


def test_workers_tries_are_counted_together(tmp_path: Path) -> None:
    shared = tmp_path / ".wrong-tries.db"
    one, other = TryLog(shared), TryLog(shared)
    one.add("10.0.0.5")
    other.add("10.0.0.5")
    other.add("10.0.0.6")
    assert one.recent("10.0.0.5", 60) == 2 and one.recent("10.0.0.6", 60) == 1
    assert other.recent("10.0.0.5", 0) == 0  # past the window: gone
    assert TryLog().recent("10.0.0.5", 60) == 0  # one process's own, in memory


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _worker_of(conn: http.client.HTTPConnection, server: int) -> int:
    """The worker holding the server's end of `conn`: the socket whose local port is the
    server's and remote port is `conn`'s, in /proc/net/tcp, among the open files of the
    server's processes."""
    here = conn.sock.getsockname()[1]
    there = conn.sock.getpeername()[1]
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            cells = line.split()
            local, remote = (int(cells[i].rsplit(":", 1)[1], 16) for i in (1, 2))
            if (local, remote) == (there, here):
                inodes.add(f"socket:[{cells[9]}]")
    for pid in _children(server):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in inodes:
                    return pid
            except OSError:
                continue
    raise AssertionError("no worker holds the connection")


def _ask(
    conn: http.client.HTTPConnection, method: str, path: str, **headers: str
) -> tuple[int, str, str]:
    conn.request(method, path, headers=headers)
    response = conn.getresponse()
    return response.status, response.getheader("set-cookie") or "", response.read().decode()


@pytest.fixture
def served(db_path: Path) -> Iterator[tuple[int, int]]:
    """`serve --workers 2 --pin`: its port and its first process."""
    if not Path("/proc/net/tcp").exists():
        pytest.skip("finding a connection's worker reads Linux's /proc")
    library = Library(db_path)
    library.create_event(EVENT, "free-realms", seed=7)
    command = [
        sys.executable,
        "-m",
        "cardbase",
        "--db",
        str(db_path),
        "serve",
        "--workers",
        "2",
        "--pin",
        PIN,
    ]
    child = subprocess.Popen(command, cwd=ROOT, env=subprocess_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert "2 worker processes" in first, first
        port = int(re.search(r":(\d+)/", first).group(1))  # type: ignore[union-attr]
        yield port, child.pid
    finally:
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    assert "Traceback" not in err and child.returncode == 0, err
    assert "stopped" in out


def _one_on_each(port: int, server: int) -> dict[int, http.client.HTTPConnection]:
    """A keep-alive connection on each of two workers: new ones until both have one."""
    held: dict[int, http.client.HTTPConnection] = {}
    opened = []
    for _ in range(60):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        opened.append(conn)
        assert _ask(conn, "GET", "/search?q=dragon")[0] == 200
        held.setdefault(_worker_of(conn, server), conn)
        if len(held) == 2:
            break
    for conn in opened:
        if conn not in held.values():
            conn.close()
    assert len(held) == 2, "every connection went to one worker"
    return held


@pytest.mark.slow  # a real server of three processes: seconds
def test_two_workers_answer_and_share_what_a_visitor_holds(served: tuple[int, int]) -> None:
    port, server = served
    first, second = _one_on_each(port, server).values()
    status, _, page = _ask(first, "GET", "/deck")
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    form = {"x-csrf-token": token, "content-type": "application/x-www-form-urlencoded"}
    path = f"/events/{EVENT.replace(' ', '%20')}/organiser"
    # The PIN typed at one worker, and a form from it, are good at the other.
    second.request("POST", path, body=f"pin={PIN}", headers=form)
    signed = second.getresponse()
    cookies = [value.split(";")[0] for key, value in signed.getheaders() if key == "set-cookie"]
    [cookie] = [one for one in cookies if one.startswith("cardbase_organiser=")]
    signed.read()
    assert signed.status == 303
    status, _, page = _ask(first, "GET", path, cookie=cookie)
    assert status == 200 and 'name="pin"' not in page
    # A device's wrong tries count at every worker together: ten, then a wait.
    for n in range(10):
        conn = (first, second)[n % 2]
        conn.request("POST", path, body="pin=0000", headers=form)
        wrong = conn.getresponse()
        wrong.read()
        assert wrong.status == 403, n
    first.request("POST", path, body="pin=0000", headers=form)
    stopped = first.getresponse()
    assert stopped.status == 429 and "too many wrong" in stopped.read().decode()
    for conn in (first, second):
        conn.close()
