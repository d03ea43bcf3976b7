"""The config file: a few defaults a user may set once instead of typing them every time.

TOML under the platform's config folder (``~/.config/cardbase/config.toml`` on Linux), or
``$CARDBASE_CONFIG``. Nothing is required: no file is a valid config, and every key may be
left out. A value that is wrong is refused as typed options are, naming the file and key.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from cardbase.errors import CardbaseError, shorten

CONFIG_ENV = "CARDBASE_CONFIG"
MAX_CONFIG = 64_000  # bytes: a config file is a few lines


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
    from cardbase.catalog.choice import catalogue_file

    catalogue_file(value)  # refuses an empty name
    return value.strip()


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
    "catalogue": (
        "the catalogue new databases start from: free-realms (default), sample or a CSV file",
        _catalogue,
    ),
}


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


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    from platformdirs import user_config_path

    return user_config_path("cardbase", appauthor=False) / "config.toml"


def load_config(path: Path | None = None) -> Config:
    """The config file's settings, checked; an empty config when there is no file."""
    path = path or config_path()
    try:
        raw = path.read_bytes()[: MAX_CONFIG + 1]
    except FileNotFoundError:
        return Config(path, {})
    except OSError as exc:
        raise CardbaseError(f"{path}: cannot read the config file ({exc.strerror or exc})") from exc
    if len(raw) > MAX_CONFIG:
        raise CardbaseError(f"{path}: over {MAX_CONFIG:,} bytes; is it the config file?")
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardbaseError(
            f"{path}: not a valid TOML file ({exc})", "Fix it, or delete it to use no config"
        ) from exc
    return Config(path, {key: _checked(path, key, value) for key, value in data.items()})


def _checked(path: Path, key: str, value: object) -> str:
    if key not in KEYS:
        from cardbase.similar import closest

        guess = closest(key, list(KEYS))
        hint = f"did you mean '{guess}'? " if guess else ""
        raise CardbaseError(
            f"{path}: unknown setting '{shorten(key, 30)}'; {hint}settings are {', '.join(KEYS)}"
        )
    if not isinstance(value, str):
        raise CardbaseError(f'{path}: {key} must be text in quotes, such as {key} = "..."')
    try:
        return KEYS[key][1](value)
    except CardbaseError as exc:
        raise CardbaseError(f"{path}: {key}: {exc}") from None


def save_setting(key: str, value: str | None, path: Path | None = None) -> Config:
    """Set (or with None, remove) one setting and write the file whole, atomically."""
    config = load_config(path)
    values = dict(config.values)
    if value is None:
        values.pop(key, None)
    else:
        values[key] = _checked(config.path, key, value)
    text = "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())
    try:
        config.path.parent.mkdir(parents=True, exist_ok=True)
        partial = config.path.with_name(config.path.name + ".partial")
        partial.write_text("# cardbase settings: 'cardbase config' explains them\n" + text)
        partial.replace(config.path)
    except OSError as exc:
        raise CardbaseError(
            f"{config.path}: cannot write the config file ({exc.strerror or exc})"
        ) from exc
    return Config(config.path, values)
