"""Which game files there are, and their checked contents, read once and cached.

The shipped games are files in `cardbase/gamefiles/`; a user's own are the ``*.toml`` files
of the ``games`` folder beside the config file (``~/.config/cardbase/games/`` on Linux), and
the files or folders ``$CARDBASE_GAMES`` names (separated as ``PATH`` is).

Every command needs the games (the query language's choices are the games' words), so a
start must not pay for tomllib (3 ms to import) and for checking each file: the checked
games are kept in the user's cache folder as `marshal` data, under a key of every file's
path, size and modification time (and the checker's own), and read back in a tenth of a
millisecond. A file that changes, appears or goes is read afresh on the next start.

A user's file with problems is left out, and said (`cardbase.notices`) with the line to fix
and the command that checks it; so is a second game of a key already taken. A shipped file
with problems is cardbase's own bug, and raised.

Foundation: plain Python, imported on every start.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

GAMES_ENV = "CARDBASE_GAMES"
CONFIG_ENV = "CARDBASE_CONFIG"  # as `cardbase.config` reads it (not imported: it is above)
SHIPPED = Path(__file__).resolve().parent / "gamefiles"
DEFAULT_GAME = "free-realms"  # the shipped games' first; databases' cards default to it
OLD_SAMPLE = "cardbase-sample"  # the old sample's cards (`cardbase.games.OLD_SAMPLE`)
CACHE_VERSION = 3


def game_files() -> tuple[list[Path], list[Path]]:
    """The shipped game files (the default game first) and the user's, in reading order."""
    shipped = sorted(SHIPPED.glob("*.toml"), key=lambda p: (p.stem != DEFAULT_GAME, p.name))
    user: list[Path] = []
    folders = [user_games_folder()]
    for entry in filter(None, os.environ.get(GAMES_ENV, "").split(os.pathsep)):
        folders.append(Path(entry).expanduser())
    for place in folders:
        if place.is_dir():
            user += sorted(place.glob("*.toml"))
        elif place.is_file():
            user.append(place)
        elif place != folders[0]:
            user.append(place)  # a named file that is missing: said as a problem
    return shipped, user


def user_games_folder() -> Path:
    """The ``games`` folder beside the config file."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit and explicit != os.devnull:
        return Path(explicit).parent / "games"
    return _user_folder("XDG_CONFIG_HOME", ".config", "user_config_path") / "games"


def _user_folder(variable: str, default: str, platform_dirs: str) -> Path:
    """cardbase's folder of the user's config or cache: on Linux and the BSDs as
    platformdirs says it (``$XDG_CONFIG_HOME/cardbase``, else ``~/.config/cardbase``),
    without importing platformdirs, which costs a read command 4 ms of its start; elsewhere
    platformdirs' own answer."""
    if sys.platform not in ("win32", "darwin"):
        base = os.environ.get(variable, "").strip()
        return Path(base or os.path.expanduser(f"~/{default}")) / "cardbase"
    import platformdirs

    folder: Path = getattr(platformdirs, platform_dirs)("cardbase", appauthor=False)
    return folder


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        stat = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), stat.st_size, stat.st_mtime_ns)


def _cache_file() -> Path:
    return _user_folder("XDG_CACHE_HOME", ".cache", "user_cache_path") / "games.marshal"


def load_games() -> tuple[list[dict[str, Any]], list[str]]:
    """Every usable game in normal shape (`cardbase.gamefile`), and what was left out."""
    shipped, user = game_files()
    checker = Path(__file__).resolve().parent / "gamefile.py"
    key = (CACHE_VERSION, *map(_stamp, [checker, *shipped, *user]))
    cache = _cache_file()
    cached = _read_cache(cache, key)
    if cached is not None:
        return cached
    games, skipped = _read_all(shipped, user)
    _write_cache(cache, key, (games, skipped))
    return games, skipped


def _read_cache(cache: Path, key: tuple[Any, ...]) -> Any:
    try:
        stored_key, value = marshal.loads(cache.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return value if stored_key == key else None


def _write_cache(cache: Path, key: tuple[Any, ...], value: Any) -> None:
    """Best effort, atomically: a folder that cannot be written costs only speed."""
    partial = cache.with_name(f"{cache.name}.{os.getpid()}.partial")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps((key, value)))
        partial.replace(cache)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def _read_all(shipped: list[Path], user: list[Path]) -> tuple[list[dict[str, Any]], list[str]]:
    from cardbase.gamefile import GameFileError, read_game_file, shown_setting

    games: list[dict[str, Any]] = []
    skipped: list[str] = []
    for path in shipped:
        games.append(read_game_file(path))  # a shipped file's problem is a bug: raised
    for path in user:
        try:
            game = read_game_file(path)
        except GameFileError as exc:
            skipped.append(f"{exc.problems[0]}; the game is left out (cardbase games check "
                           f"{path} lists every problem)")  # fmt: skip
            continue
        clash = taken_by(game, games)
        if clash:
            setting, message = clash
            line = _line_of(game, setting)
            where = f"{path}:{line}" if line else str(path)
            skipped.append(f"{where}: {shown_setting(setting)}: {message}; the game is left out")
            continue
        games.append(game)
    return games, skipped


Clash = tuple[tuple[str | int, ...], str]  # a setting, and what is wrong with it


def _line_of(game: dict[str, Any], setting: tuple[str | int, ...]) -> int | None:
    """The line of a game's file that sets `setting`, or the nearest setting holding it."""
    from cardbase.gamefile import shown_setting

    lines: dict[str, int] = game.get("lines", {})
    while setting and shown_setting(setting) not in lines:
        setting = setting[:-1]
    return lines.get(shown_setting(setting)) if setting else None


def _shipped(game: dict[str, Any]) -> bool:
    return Path(game["source"]).parent == SHIPPED


def _beyond_the_card_table(game: dict[str, Any], shipped: list[dict[str, Any]]) -> Clash | None:
    """What a user's game needs that the card table's checks, made for the shipped games,
    refuse: a rarity letter of its own, more gems than they have (the checks would need a
    migration, and every database one)."""
    if not shipped or _shipped(game):
        return None
    letters = "".join(dict.fromkeys(letter for g in shipped for letter in g["rarities"]))
    for letter in game["rarities"]:
        if letter not in letters:
            return ("rarities", letter), (
                f"the card table takes the rarity letters {letters}; a letter of a game's "
                "own is not possible yet: use one of those, with this game's name for it"
            )
    most = max((g["fields"]["gems"]["most"] for g in shipped if "gems" in g["fields"]), default=0)
    gems = game["fields"].get("gems")
    if gems and gems["most"] > most:
        return ("fields", "gems", "most"), f"the card table takes at most {most} gems a card"
    return None


def _alias_owner(game: dict[str, Any], alias: str) -> str | None:
    """The field `alias` names in `game`: its own name or one of its aliases."""
    for name, field in game["fields"].items():
        if alias == name or alias in field["aliases"]:
            return name
    return None


def taken_by(game: dict[str, Any], games: list[dict[str, Any]]) -> Clash | None:
    """What `game` would take that another of `games` has, its key or a format's key: the
    setting and what is wrong with it."""
    beyond = _beyond_the_card_table(game, [g for g in games if _shipped(g)])
    if beyond is not None:
        return beyond
    if game["key"] == OLD_SAMPLE:
        return ("key",), f"'{OLD_SAMPLE}' is cardbase's own (the old sample's cards); rename it"
    for other in games:
        if other["key"] == game["key"]:
            return ("key",), f"'{game['key']}' is already the game of {other['source']}; rename one"
        for name, field in game["fields"].items():
            theirs = other["fields"].get(name)
            if theirs and theirs["kind"] != field["kind"]:
                return ("fields", name, "kind"), (
                    f"{name} is a {theirs['kind']} field of {other['source']}; "
                    f'kind = "{theirs["kind"]}", or name the field otherwise'
                )
            owner = _alias_owner(other, name)
            if owner not in (None, name):
                return ("fields", name), (
                    f"'{name}' is already {other['source']}'s term for {owner}; name it otherwise"
                )
            for at, alias in enumerate(field["aliases"]):
                owner = _alias_owner(other, alias)
                if owner not in (None, name):
                    return ("fields", name, "aliases", at), (
                        f"'{alias}' is already {other['source']}'s term for {owner}; choose another"
                    )
        taken = ({game["key"], game["prefix"]} & {other["key"], other["prefix"]}) - {None}
        if taken:
            return ("prefix",), (
                f"'{taken.pop()}' already names the game of {other['source']}; rename one"
            )
        formats = {fmt["key"] for fmt in other["formats"]}
        for at, fmt in enumerate(game["formats"]):
            if fmt["key"] in formats:
                return ("formats", at, "key"), (
                    f"'{fmt['key']}' is already a format of {other['source']}; rename one"
                )
    return None
