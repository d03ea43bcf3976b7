"""The socket `cardbase serve` listens on: what the connections it accepts are set to.

A keep-alive client (httpx, a browser) waited 40-48 ms for every small answer when Nagle's
algorithm was on for them (the body held back until the client's delayed ACK of the
headers). The check is on the socket option, so it cannot pass or fail by timing.
"""

from __future__ import annotations

import asyncio
import socket

import pytest

from cardbase.errors import CardbaseError
from cardbase.web.server import bind


async def _nodelay_of_an_accepted_connection(listening: socket.socket) -> int:
    """Serve `listening` as uvicorn does (`loop.create_server(..., sock=...)`, on the loop
    uvicorn picks here), connect once, and read TCP_NODELAY off the server's end."""
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Recorder(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Recorder, sock=listening)
    async with server:
        host, port = listening.getsockname()[:2]
        _, writer = await asyncio.open_connection(host, port)
        try:
            return await asyncio.wait_for(accepted, timeout=10)
        finally:
            writer.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_accepted_connections_send_small_answers_at_once(host: str) -> None:
    if host == "::1" and not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    try:
        listening = bind(host, 0)
    except CardbaseError as exc:  # an IPv6 loopback may be switched off in a container
        pytest.skip(f"cannot listen on {host}: {exc}")
    with listening:
        assert asyncio.run(_nodelay_of_an_accepted_connection(listening)) == 1
