"""Reading the game client: `cardbase catalog import-client` of the whole client folder.

Its peer is the floor of the job: a bare Python that inflates every record of the archetype
database and reads every locale file whole, parsing nothing, writing nothing. The ratio says
what decoding, matching and the one transaction cost over reading the files at all; the
detail gives the command's peak memory. The client folder is ../shared/free-realms-client
beside the checkout (or $CARDBASE_CLIENT_DIR); without one the row says so.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from harness import BIN, Context, Row, Run, alternate, median, run_command

CLIENT = Path(
    os.environ.get("CARDBASE_CLIENT_DIR")
    or Path(__file__).resolve().parents[2] / "shared" / "free-realms-client"
)
# Inflate every record (index.dat's entries, as cardbase.client.archetypes reads them) and
# read every locale file: what any reader of these files must do at least.
READ_FLOOR = """
import sys, zlib
from pathlib import Path
from cardbase.client.archetypes import read_index
root = Path(sys.argv[1])
index = (root / "data/archetypes/index.dat").read_bytes()
storage = (root / "data/archetypes/storage.dat").read_bytes()
for entry in read_index(index, "index.dat"):
    zlib.decompress(storage[entry.offset : entry.offset + entry.packed])
for path in (root / "locale").glob("*_data.*"):
    path.read_bytes()
"""


def bench_client(ctx: Context) -> Iterator[Row]:
    if not (CLIENT / "data" / "archetypes" / "index.dat").is_file():
        yield Row("import-client", "cardbase catalog import-client", 0.0, f"no client at {CLIENT}")
        return
    template = ctx.database("bundled")
    counter = iter(range(10**6))

    def ours() -> Run:
        target = ctx.work / f"client-{next(counter)}.db"
        shutil.copy(template, target)
        try:
            return run_command([str(BIN / "cardbase"), "--db", str(target), "catalog",
                                "import-client", str(CLIENT), "--no-backup"])  # fmt: skip
        finally:
            target.unlink()

    contenders: dict[str, Callable[[], Run]] = {
        "cardbase catalog import-client": ours,
        "bare python: inflate and read the files": lambda: run_command(
            [sys.executable, "-c", READ_FLOOR, str(CLIENT)]
        ),
    }
    runs = alternate(contenders, ctx.reps)
    ours_s = median(runs["cardbase catalog import-client"])
    floor_s = median(runs["bare python: inflate and read the files"])
    peak_mib = max(run.peak_kib for run in runs["cardbase catalog import-client"]) / 1024
    yield Row("import-client", "cardbase catalog import-client", ours_s,
              f"707 cards, 8 languages; peak {peak_mib:.0f} MiB")  # fmt: skip
    yield Row("import-client", "bare python: inflate and read the files", floor_s,
              ratio=ours_s / floor_s)  # fmt: skip
