"""A throwaway PostgreSQL cluster for the tests (and benchmarks/postgres.py): initdb into a temporary folder, a server on
a free loopback port with trust authentication, stopped (and deleted) at the end.

`CARDBASE_TEST_POSTGRES` (a server URL whose user may create databases) is used instead when
set. Without either, the PostgreSQL tests skip and say how to run them; with
`CARDBASE_REQUIRE_POSTGRES=1` (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

ENV_URL = "CARDBASE_TEST_POSTGRES"
ENV_REQUIRE = "CARDBASE_REQUIRE_POSTGRES"
HOW_TO_RUN = (
    "PostgreSQL tests need a server: install Debian's postgresql package (its initdb and "
    f"pg_ctl start a throwaway cluster), or set {ENV_URL}=postgresql://user@host/db"
)


def server_binaries() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, else Debian's newest versioned one."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parent.parent.name
    )
    return versions[-1].parent if versions else None


# A test cluster in memory, where the machine has room for it there: on this project's
# 2-core VM, CREATE DATABASE (every PostgreSQL test makes one) took 50-350 ms on the ext4
# disk, fsync off or not, and 15-25 ms on tmpfs. The tests keep nothing after they end.
MEMORY = Path("/dev/shm")
MEMORY_ROOM = 2 * 1024**3  # bytes free there, at least (Docker's default /dev/shm is 64 MB)


def memory_folder() -> Path | None:
    """A folder in memory (tmpfs) for a throwaway cluster, or None: no /dev/shm, not
    writable, or less than `MEMORY_ROOM` free in it."""
    try:
        if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK)):
            return None
        return MEMORY if shutil.disk_usage(MEMORY).free >= MEMORY_ROOM else None
    except OSError:
        return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """initdb + pg_ctl start; as root, run as the `postgres` user, which initdb insists on."""

    def __init__(
        self,
        binaries: Path,
        settings: dict[str, str] | None = None,
        parent: Path | None = None,
    ) -> None:
        """`settings`: the server's `-c` options; by default only fsync off, which the tests
        need no more than they need the cluster after they end. `parent`: the folder to
        make the cluster's folder in (default: the system's temporary folder)."""
        self.binaries = binaries
        self.settings = {"fsync": "off"} if settings is None else settings
        self.folder = Path(tempfile.mkdtemp(prefix="cardbase-pg-", dir=parent))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.as_user: list[str] = []
        self.user = os.environ.get("USER") or "postgres"
        if os.geteuid() == 0:
            self.as_user, self.user = ["runuser", "-u", "postgres", "--"], "postgres"
            shutil.chown(self.folder, "postgres")

    def run(self, *args: str) -> None:
        """One of the server's programs, as the user the cluster runs as."""
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, text=True)

    def start(self) -> str:
        self.run(str(self.binaries / "initdb"), "-D", str(self.data), "-A", "trust",
                 "-U", self.user, "-E", "UTF8", "--locale=C.UTF-8")  # fmt: skip
        return self.launch()

    def launch(self) -> str:
        """Start the server on the cluster's folder; the URL of its `postgres` database."""
        settings = "".join(f" -c {name}={value}" for name, value in self.settings.items())
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1{settings}"
        self.run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.folder / "log"), "-w", "start")  # fmt: skip
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self.run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
