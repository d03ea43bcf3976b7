"""Finding the client's card files in the folder a user names.

People point at whatever folder they have: the client's install folder, its `tcg` folder,
or a folder they copied the files into. Each is accepted, and anything else is one line
saying what was looked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from cardbase.client.archetypes import INDEX_FILE, STORAGE_FILE, ClientError
from cardbase.client.locale import ENGLISH

ARCHETYPES = Path("data") / "archetypes"
LOCALE = Path("locale")
TCG = "tcg"


class ClientFolder(NamedTuple):
    archetypes: Path  # holds index.dat and storage.dat
    locale: Path  # holds <locale>_data.dat and .dir

    def locales(self) -> list[str]:
        """The locales here, English first; a locale with one of its two files missing (or
        not a file) is refused, not skipped: its texts would go missing without a word."""
        found = {
            path.name.removesuffix(suffix)
            for suffix in ("_data.dat", "_data.dir")
            for path in self.locale.glob(f"*{suffix}")
        }
        for locale in found:
            for path in (self.locale / f"{locale}_data.dat", self.locale / f"{locale}_data.dir"):
                if not path.is_file():
                    what = "missing" if not path.exists() else "not a regular file"
                    raise ClientError(f"{path}: {what}, where its locale's other file is")
        return sorted(found, key=lambda locale: (locale != ENGLISH, locale))


def find_client(folder: Path) -> ClientFolder:
    """The card files under `folder`: a client install (`tcg/` inside), its `tcg` folder,
    or one folder holding the archetype files and the locale files together."""
    if not folder.is_dir():
        what = "does not exist" if not folder.exists() else "is not a folder"
        raise ClientError(
            f"{folder}: {what}; name the Free Realms client's folder or its tcg folder"
        )
    for tcg in (folder / TCG, folder, *sorted(folder.glob(f"*/{TCG}"))):
        if _has_archetypes(tcg / ARCHETYPES) and (tcg / LOCALE / f"{ENGLISH}_data.dat").is_file():
            return ClientFolder(tcg / ARCHETYPES, tcg / LOCALE)
    if _has_archetypes(folder) and (folder / f"{ENGLISH}_data.dat").is_file():
        return ClientFolder(folder, folder)
    raise ClientError(
        f"{folder}: not a Free Realms client folder (no tcg/{ARCHETYPES.as_posix()}/"
        f"{INDEX_FILE} and {STORAGE_FILE}, with tcg/{LOCALE}/{ENGLISH}_data.dat)",
        "Name the client's install folder, its tcg folder, or a folder holding those files",
    )


def _has_archetypes(folder: Path) -> bool:
    return (folder / INDEX_FILE).is_file() and (folder / STORAGE_FILE).is_file()
