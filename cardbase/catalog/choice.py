"""Which catalogue a new database starts from: the real one, the sample, or a file.

A fresh install's catalogue is the default game's own (its game file's `catalogue`:
cards.csv, every printed card); every game's is named by its key. The sample
(sample-cards.csv, invented cards with texts) is for demos and tests, and a league may keep
its own list: `cardbase db init --catalogue FILE`, ``$CARDBASE_CATALOGUE`` or the config
file's ``catalogue`` name the catalogue of the databases cardbase creates.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from cardbase.errors import CardbaseError
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.gamesources import SHIPPED

CATALOGUE_ENV = "CARDBASE_CATALOGUE"
REAL = DEFAULT_GAME
SAMPLE = "sample"
SAMPLE_FILE = "sample-cards.csv"  # the sample is no game's: its cards are Free Realms'
TOP = Path(__file__).resolve().parents[2]  # the top of a source checkout


def catalogue_names() -> dict[str, Path]:
    """The catalogues `--catalogue` and the settings name by a word: each game's own (its
    game file's `catalogue`), by the game's key, then the sample."""
    named = {key: found for key, game in GAMES.items() if (found := game_catalogue(game))}
    return {**named, SAMPLE: _packaged(SAMPLE_FILE)}


def game_catalogue(game: Game) -> Path | None:
    """A game's catalogue file, as its game file's `catalogue` names it: a shipped game's
    inside the installed wheel (or at the top of a source checkout); a user's relative to
    its game file (or absolute). None for a game that names none."""
    if not game.catalogue or not game.source:
        return None
    source = Path(game.source)
    if source.parent == SHIPPED:
        return _packaged(game.catalogue)
    return (source.parent / Path(game.catalogue).expanduser()).resolve()


def _packaged(file_name: str) -> Path:
    """A catalogue file shipped with cardbase: in the wheel's data, else the checkout's top."""
    packaged = resources.files("cardbase") / "data" / file_name
    if packaged.is_file():
        return Path(str(packaged))
    return TOP / file_name


def built_in(name: str) -> Path:
    """A catalogue by its word (`catalogue_names`): a game's key, or `sample`."""
    return catalogue_names()[name]


def catalogue_file(text: str) -> Path:
    """What `--catalogue` and the settings name: a catalogue's word or a file."""
    wanted = text.strip()
    names = catalogue_names()
    if wanted.lower() in names:
        return names[wanted.lower()]
    if not wanted:
        raise CardbaseError(f"empty catalogue; name a CSV file or one of {', '.join(names)}")
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
            f"Name a CSV file or one of {', '.join(catalogue_names())}",
        )
    return found
