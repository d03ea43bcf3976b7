"""Running the pages: a socket on the asked address (a free port unless one is given),
uvicorn serving the app on it, and Ctrl-C stopping it cleanly."""

from __future__ import annotations

import functools
import ipaddress
import shutil
import socket
import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Any

from cardbase.errors import CardbaseError
from cardbase.web.site import Site

if TYPE_CHECKING:
    from starlette.types import ASGIApp


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, made here so the URL (with the port a free one got) is known
    before the server starts, and a taken port is one line rather than uvicorn's exit.

    The protocol is named (IPPROTO_TCP, as uvicorn's own bind does), not left 0: asyncio
    sets TCP_NODELAY only on accepted sockets whose `proto` says TCP, and they inherit it
    from this one. Without it Nagle's algorithm held each response's body until the client's
    delayed ACK of its headers: 40-48 ms a request to a keep-alive client, where 4 was due."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        reason = "is in use" if exc.errno == 98 else f"cannot be used ({exc.strerror})"
        raise CardbaseError(
            f"{host} port {port} {reason}", "Choose another --port, or leave it out for a free one"
        ) from None
    sock.listen(128)
    return sock


def run(site: Site, host: str, port: int, open_browser: bool = False, workers: int = 1) -> None:
    """Serve until Ctrl-C. The database and collector are checked first, so a wrong --db or
    --collector is the command line's one line, not a page of errors later."""
    from cardbase.library import Library

    Library(site.db_path, site.collector).connect().close()
    site.public = not is_loopback(host)
    sock = bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    say = sys.stderr.write
    if site.public:
        say(f"cardbase: warning: listening on {host}: anyone who can reach this computer on "
            "that address can read and change the collection (there is no login)\n")  # fmt: skip
    processes = f", {workers} worker processes" if workers > 1 else ""
    sys.stdout.write(f"cardbase: serving {site.db_path} at {url}{processes} (Ctrl-C stops)\n")
    sys.stdout.flush()
    if open_browser:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    try:
        _serve(site, sock, workers)
    except KeyboardInterrupt:
        pass  # uvicorn stops cleanly on Ctrl-C, then raises it again for the caller: done
    finally:
        sock.close()
        shutil.rmtree(site.uploads, ignore_errors=True)
    sys.stdout.write("cardbase: stopped\n")


def _serve(site: Site, sock: socket.socket, workers: int) -> None:
    """uvicorn on `sock`: in this process, or in `workers` processes taking turns at its
    connections, each with an app of its own (`worker_app`). One process runs one
    request's Python at a time (the GIL), so 4 clients on 2 cores queued for one core."""
    import uvicorn

    from cardbase.web.app import create_app

    if workers == 1:
        config = uvicorn.Config(create_app(site), log_level="warning", access_log=False)
        uvicorn.Server(config).run(sockets=[sock])
        return
    from uvicorn.supervisors import Multiprocess

    app = functools.partial(worker_app, site.for_workers())
    config = uvicorn.Config(app, factory=True, workers=workers, log_level="warning",
                            access_log=False)  # fmt: skip
    Multiprocess(config, sockets=[sock]).run()


def worker_app(settings: dict[str, Any]) -> ASGIApp:
    """A worker process's app (`serve --workers`), over a `Site` of its own made of the
    first process's settings (`Site.for_workers`): its own connections, counts kept and
    searches running. A newer search from a tab stops that tab's older ones itself only
    where they run in the same process (`TabWork`); in another, the older one is stopped
    when the browser drops its request and so its connection (`StopWhenGone`)."""
    from cardbase.web.app import create_app

    return create_app(Site(**settings))
