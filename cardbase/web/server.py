"""Running the pages: a socket on the asked address (a free port unless one is given),
uvicorn serving the app on it, and Ctrl-C stopping it cleanly."""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser

from cardbase.errors import CardbaseError
from cardbase.web.site import Site


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


def run(site: Site, host: str, port: int, open_browser: bool = False) -> None:
    """Serve until Ctrl-C. The database and collector are checked first, so a wrong --db or
    --collector is the command line's one line, not a page of errors later."""
    import uvicorn

    from cardbase.library import Library
    from cardbase.web.app import create_app

    Library(site.db_path, site.collector).connect().close()
    site.public = not is_loopback(host)
    sock = bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    say = sys.stderr.write
    if site.public:
        say(f"cardbase: warning: listening on {host}: anyone who can reach this computer on "
            "that address can read and change the collection (there is no login)\n")  # fmt: skip
    sys.stdout.write(f"cardbase: serving {site.db_path} at {url} (Ctrl-C stops)\n")
    sys.stdout.flush()
    config = uvicorn.Config(create_app(site), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn stops cleanly on Ctrl-C, then raises it again for the caller: done
    finally:
        sock.close()
    sys.stdout.write("cardbase: stopped\n")
