"""The config file: a few defaults a user may set once instead of typing them every time.

TOML under the platform's config folder (``~/.config/cardbase/config.toml`` on Linux), or
``$CARDBASE_CONFIG``. Nothing is required: no file is a valid config, and every key may be
left out. A value that is wrong is refused as typed options are, naming the file and key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from cardbase.errors import CardbaseError, shorten

CONFIG_ENV = "CARDBASE_CONFIG"
MAX_CONFIG = 64_000  # bytes: a config file is a few lines
MAX_NESTING = 4  # brackets: a config holds no arrays or tables at all; this is generous
HEADER = "# cardbase settings: 'cardbase config' explains them"
REPAIR = (
    "Fix it: 'cardbase config unset SETTING' or 'cardbase config set SETTING VALUE' "
    "rewrites a setting; or delete the file to use no config"
)


def _database(value: str) -> str:
    """A database file's path or a `postgresql://` URL, as `--db` takes it."""
    if not value.strip():
        raise CardbaseError("db: expected a database file or a postgresql:// URL")
    return value.strip()


def _collector(value: str) -> str:
    from cardbase.collection.collectors import check_name

    return check_name(value)


def _condition(value: str) -> str:
    from cardbase.collection.attributes import parse_condition

    return parse_condition(value)


def _language(value: str) -> str:
    from cardbase.collection.attributes import parse_language

    return parse_language(value)


def _catalogue(value: str) -> str:
    """A built-in catalogue's name or a file: which, `cardbase.catalog.choice` reads when a
    database is made (it reads this file, so it is not asked here)."""
    if not value.strip():
        raise CardbaseError("catalogue: empty; name a CSV file, free-realms, sample or wildhearts")
    return value.strip()


def _game(value: str) -> str:
    from cardbase.games import known_game

    return known_game(value)


def _format(value: str) -> str:
    from cardbase.decks.check import get_format

    return get_format(value).key


# key: (what it sets, how its value is checked and spelled)
KEYS: dict[str, tuple[str, Callable[[str], str]]] = {
    "db": ("the database unless --db or $CARDBASE_DB says: a file or postgresql:// URL", _database),
    "collector": ("whose collection commands use unless --collector says", _collector),
    "condition": ("condition of added copies (default NM)", _condition),
    "language": ("language of added copies (default en)", _language),
    "format": ("deck format of deck check and stats (default free-realms)", _format),
    "game": ("the game a code or name means where several games have the card", _game),
    "catalogue": (
        "the catalogue new databases start from: free-realms (default), sample or a CSV file",
        _catalogue,
    ),
}


class ConfigError(CardbaseError):
    """A config file that cannot be used: unreadable, too large, not `key = "text"` TOML, or
    a value its key refuses. Its own type so `cardbase config` can show it and carry on."""


class Config(NamedTuple):
    path: Path
    values: dict[str, str]

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def shown(self) -> dict[str, str]:
        """The settings as printed: a database URL's password left out."""
        from cardbase.db.location import PostgresUrl, is_postgres

        db = self.values.get("db")
        if db is None or not is_postgres(db):
            return dict(self.values)
        return {**self.values, "db": str(PostgresUrl(db))}


class Saved(NamedTuple):
    """What `save_setting` wrote, and what is still wrong with the file, if anything: a broken
    file is repaired a setting at a time, so the others may still need fixing."""

    config: Config
    problem: ConfigError | None


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    from platformdirs import user_config_path

    return user_config_path("cardbase", appauthor=False) / "config.toml"


def load_config(path: Path | None = None) -> Config:
    """The config file's settings, checked; an empty config when there is no file."""
    path = path or config_path()
    raw = _read_config(path)
    if raw is None:
        return Config(path, {})
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start + 1})", REPAIR) from None
    return Config(path, _parse(path, text))


def _read_config(path: Path) -> bytes | None:
    """The file's bytes, None if there is none; bounded as `cardbase.fileio.bounded` bounds
    every other input: opened without blocking (a pipe has no writer to wait for), refused
    by `fstat` unless a regular file of at most `MAX_CONFIG` bytes, and never read past it."""
    from cardbase.fileio.bounded import NOT_REGULAR

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if os.fspath(path) == os.devnull:  # the usual way to say "no config at all"
        return None
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _cannot(path, "read", exc) from exc
    try:
        mode = os.fstat(fd)
        for test, kind in NOT_REGULAR:
            if test(mode.st_mode):
                raise ConfigError(
                    f"{path}: not a regular file: it is {kind}",
                    f"The config file is a few lines of TOML; ${CONFIG_ENV} can name another",
                )
        _refuse_size(path, mode.st_size)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        try:
            raw = handle.read(MAX_CONFIG + 1)
        except OSError as exc:
            raise _cannot(path, "read", exc) from exc
    _refuse_size(path, len(raw))  # it grew while it was read
    return raw


def _cannot(path: Path, verb: str, exc: OSError) -> ConfigError:
    return ConfigError(f"{path}: cannot {verb} the config file ({exc.strerror or exc})")


def _refuse_size(path: Path, size: int) -> None:
    if size > MAX_CONFIG:
        raise ConfigError(f"{path}: over {MAX_CONFIG:,} bytes; is it the config file?")


def _parse(path: Path, text: str) -> dict[str, str]:
    """`key = "text"` pairs, each checked; brackets nested deeper than any config needs are
    refused before tomllib, whose parser recurses once a level and would overflow."""
    _refuse_deep(path, text)
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not a valid TOML file ({exc})", REPAIR) from None
    except RecursionError:  # pragma: no cover - `_refuse_deep` stops it first
        raise ConfigError(f"{path}: nested too deeply to be a config file", REPAIR) from None
    return {key: _checked(path, key, value) for key, value in data.items()}


# What TOML reads as a string, a comment or a bracket, so brackets inside strings are not
# counted. A string runs to its close or the end of its line (or file), never failing to
# match, so a scan is one pass however the quotes are arranged.
_TOKENS = re.compile(
    r'"""(?:\\.|[^\\])*?(?:"{3,5}|\Z)'
    r"|'''.*?(?:'{3,5}|\Z)"
    r'|"(?:\\.|[^"\\\n])*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*"
    r"|[\[\]{}]",
    re.S,
)


def _refuse_deep(path: Path, text: str) -> None:
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_NESTING:
                raise ConfigError(
                    f"{path}: brackets nested over {MAX_NESTING} deep; a config file holds "
                    'only settings such as condition = "NM"',
                    REPAIR,
                )
        elif token in ("]", "}"):
            depth = max(0, depth - 1)


def _known(path: Path, key: str) -> None:
    if key not in KEYS:
        from cardbase.similar import closest

        guess = closest(key, list(KEYS))
        hint = f"did you mean '{guess}'? " if guess else ""
        raise ConfigError(
            f"{path}: unknown setting '{shorten(key, 30)}'; {hint}settings are {', '.join(KEYS)}"
        )


def _checked(path: Path, key: str, value: object) -> str:
    _known(path, key)
    if not isinstance(value, str):
        raise ConfigError(f'{path}: {key} must be text in quotes, such as {key} = "..."')
    try:
        return KEYS[key][1](value)
    except CardbaseError as exc:
        raise ConfigError(f"{path}: {key}: {exc}") from None


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
_ESCAPES["\r"] = "\\r"


def toml_string(value: str) -> str:
    """`value` as a TOML basic string: only the escapes TOML has, other control characters as
    \\uXXXX, everything else (emoji included) as itself, written as UTF-8. (json.dumps
    would write an emoji as a surrogate pair, \\ud83d\\ude00, which TOML refuses.)"""
    if any("\ud800" <= char <= "\udfff" for char in value):
        raise ValueError("a lone surrogate is not text TOML can hold")
    spelled = [
        _ESCAPES.get(char) or (f"\\u{ord(char):04X}" if _is_control(char) else char)
        for char in value
    ]
    return '"' + "".join(spelled) + '"'


def _is_control(char: str) -> bool:
    return char < " " or char == "\x7f"


_LINE_KEY = re.compile(r"""\s*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")


def _line_key(line: str) -> str | None:
    """The key a `key = value` line sets, None for any other line."""
    match = _LINE_KEY.match(line)
    return next((part for part in match.groups() if part is not None), None) if match else None


def save_setting(key: str, value: str | None, path: Path | None = None) -> Saved:
    """Set (or with None, remove) one setting and write the file whole, atomically.

    The file is edited line by line, keeping comments and the other lines as they were, so
    a broken file (a bad value, or not TOML at all) can be repaired from the command line a
    setting at a time; what is still wrong with it afterwards is returned, not raised.
    """
    path = path or config_path()
    _known(path, key)
    line = None if value is None else f"{key} = {_spelled(path, key, value)}"
    raw = _read_config(path) or HEADER.encode()
    text = _edited(raw.decode("utf-8", "surrogateescape").splitlines(), key, line)
    try:
        values = _parse(path, raw.decode("utf-8"))
    except (UnicodeDecodeError, ConfigError):
        pass  # broken before: the other lines stay as they were, for the user to repair
    else:
        try:
            _parse(path, text)
        except ConfigError:  # a good file's line edit went wrong (a multi-line string)
            values = {k: v for k, v in values.items() if k != key}
            kept = [f"{k} = {toml_string(v)}" for k, v in values.items()]
            text = _edited([HEADER, *kept], key, line)
    _write(path, text.encode("utf-8", "surrogateescape"))
    try:
        return Saved(load_config(path), None)
    except ConfigError as problem:
        shown = {} if value is None else {key: KEYS[key][1](value)}
        return Saved(Config(path, shown), problem)


def _edited(old: list[str], key: str, line: str | None) -> str:
    """The file's `old` lines with every line setting `key` taken out and `line`, if any, in
    the first one's place (or at the end)."""
    lines = [kept for kept in old if _line_key(kept) != key]
    if line is not None:
        at = next((i for i, old_line in enumerate(old) if _line_key(old_line) == key), None)
        before = len(old) if at is None else at
        lines.insert(sum(1 for kept in old[:before] if _line_key(kept) != key), line)
    return "\n".join(lines) + "\n"


def _spelled(path: Path, key: str, value: str) -> str:
    checked = _checked(path, key, value)
    try:
        return toml_string(checked)
    except ValueError:
        raise ConfigError(
            f"{key}: the value has bytes that are not UTF-8 text; nothing was changed",
            "Rename the file or folder it names, or type it again",
        ) from None


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        # Only its owner reads it, as ~/.pgpass: a db setting may hold a league's password.
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(partial, 0o600)  # an older partial of another mode is truncated, not new
        partial.replace(path)
    except OSError as exc:
        raise _cannot(path, "write", exc) from exc


def readable_settings(path: Path) -> dict[str, str]:
    """What a broken file still sets, line by line: each line that alone is a good setting.
    For `cardbase config` to show beside the problem, so the user sees what to repair."""
    import tomllib

    try:
        raw = _read_config(path) or b""
    except ConfigError:
        return {}
    found: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            _refuse_deep(path, line)  # tomllib recurses: a deep line would overflow it
            ((key, value),) = tomllib.loads(line).items()
            found[key] = _checked(path, key, value)
        except (tomllib.TOMLDecodeError, ValueError, ConfigError):
            continue
    return found
