"""Where the database lives: `--db`, else `CARDBASE_DB`, else a file in the user's data folder.

Apart from `cardbase.db.connect` because creating a database (`cardbase.db.schema`) must know
the default location too: only there may cardbase make the folders.
"""

from __future__ import annotations

import os
from pathlib import Path

from cardbase.db.location import Location, is_postgres, postgres_url

ENV_VAR = "CARDBASE_DB"


def default_db_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("cardbase", appauthor=False) / "cardbase.db"


def resolve_db_path(
    option: str | os.PathLike[str] | None = None, configured: str | None = None
) -> Location:
    """`--db` wins over `CARDBASE_DB`, which wins over the config file's `db`, which wins over
    the per-user default. A `postgresql://` URL names a PostgreSQL database; anything else,
    a SQLite file."""
    chosen = option or os.environ.get(ENV_VAR) or configured
    if chosen and is_postgres(str(chosen)):
        return postgres_url(str(chosen))
    if chosen:
        return Path(chosen).expanduser()
    return default_db_path()
