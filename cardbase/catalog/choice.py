"""Which catalogue a new database starts from: the real one, the sample, or a file.

A fresh install's catalogue is the game's own (cards.csv, every printed card). The sample
(sample-cards.csv, invented cards with texts) is for demos and tests, and a league may keep
its own list: `cardbase db init --catalogue FILE`, ``$CARDBASE_CATALOGUE`` or the config
file's ``catalogue`` name the catalogue of the databases cardbase creates.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from cardbase.errors import CardbaseError

CATALOGUE_ENV = "CARDBASE_CATALOGUE"
REAL = "free-realms"
SAMPLE = "sample"
# The catalogues inside the package: name -> file (at the top of a source checkout too).
BUILT_IN: dict[str, str] = {
    REAL: "cards.csv",
    SAMPLE: "sample-cards.csv",
    "wildhearts": "wildhearts-cards.csv",
}


def built_in(name: str) -> Path:
    """A catalogue file inside the installed wheel, or at the top of a source checkout."""
    file_name = BUILT_IN[name]
    packaged = resources.files("cardbase") / "data" / file_name
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / file_name


def catalogue_file(text: str) -> Path:
    """What `--catalogue` and the settings name: a built-in catalogue's name or a file."""
    wanted = text.strip()
    if wanted.lower() in BUILT_IN:
        return built_in(wanted.lower())
    if not wanted:
        raise CardbaseError(f"empty catalogue; name a CSV file or one of {', '.join(BUILT_IN)}")
    try:
        return Path(wanted).expanduser()
    except RuntimeError:  # ~name of no such user: the name as it is written
        return Path(wanted)


def new_database_catalogue() -> Path:
    """The catalogue a database that cardbase creates starts from: ``$CARDBASE_CATALOGUE``,
    else the config file's ``catalogue``, else the real one."""
    named, source = os.environ.get(CATALOGUE_ENV), f"${CATALOGUE_ENV}"
    if named is None:
        from cardbase.config import load_config

        config = load_config()
        named, source = config.get("catalogue"), f"{config.path}: catalogue"
    if not named:
        return built_in(REAL)
    found = catalogue_file(named)
    if not found.is_file():
        raise CardbaseError(
            f"{source}: {named} is no catalogue file; nothing was created",
            f"Name a CSV file or one of {', '.join(BUILT_IN)}",
        )
    return found
