"""The tournament desk: every deck of an event checked at once, one line each.

Before a tournament an organiser has a folder of deck files, one a player, in whatever the
players sent (text lists, sheets). Each is read and checked on its own: a deck that cannot
be read is a line saying why, not the end of the run, so the desk sees every other deck's
verdict too. Names are resolved through one resolver per game for the whole folder, so a
hundred decks of the same cards look each name up once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.names import NameResolver
from cardbase.db.engine import Connection
from cardbase.decks.check import (
    DeckReport,
    check_deck,
    format_of_cards,
    get_format,
    own_format,
)
from cardbase.decks.formats import Problem
from cardbase.decks.lists import NO_DECK_NAMED, SHEET_SUFFIXES
from cardbase.decks.sheetdecks import read_deck_file
from cardbase.errors import CardbaseError
from cardbase.fields import DEFAULT_FORMAT
from cardbase.progress import Progress, Stage, quiet
from cardbase.text import shown

DECK_FILE_SUFFIXES = (".txt", *SHEET_SUFFIXES)
UNREADABLE = "unreadable"  # the code a deck that could not be read gets, beside the rules'


class DeskLine(NamedTuple):
    """One deck's verdict: its report, or why it could not be read."""

    file: str
    report: DeckReport | None
    error: str | None = None
    player: str | None = None

    @property
    def valid(self) -> bool:
        return self.report is not None and self.report.valid

    @property
    def who(self) -> str:
        """The player, as the desk calls them, else the file."""
        return self.player or self.file

    @property
    def problems(self) -> list[Problem]:
        if self.report is None:
            return [Problem(UNREADABLE, "a deck file cardbase can read", self.error or "")]
        return self.report.problems

    def codes(self) -> list[str]:
        """The problem codes, each once, in the order first met."""
        return list(dict.fromkeys(problem.code for problem in self.problems))

    def to_dict(self) -> dict[str, Any]:
        report = self.report.to_dict() if self.report else {"valid": False}
        return {
            "file": self.file,
            "player": self.player,
            **{key: value for key, value in report.items() if key not in ("deck", "player")},
            "codes": self.codes(),
            "error": self.error,
        }


def deck_files(targets: Sequence[str | Path]) -> list[Path]:
    """The deck files `targets` name: each file as given, each folder's deck files by name
    (hidden files and spreadsheet lock files left out). A missing path, an empty name, or a
    folder without decks, is bad input: nothing is checked."""
    files: list[Path] = []
    for named in targets:
        if not str(named).strip():
            raise CardbaseError(f"{NO_DECK_NAMED}; nothing was checked")
        target = Path(named)
        if target.is_dir():
            files += _folder_decks(target)
        elif target.exists() or target.is_symlink():
            files.append(target)
        else:
            raise CardbaseError(f"{shown(target)}: no such file or folder; nothing was checked")
    return list(dict.fromkeys(files))


def _folder_decks(folder: Path) -> list[Path]:
    """A folder's deck files by name; a folder the system will not list (no permission, gone
    meanwhile) is bad input named in one line, as a missing one is, not an internal error."""
    try:
        entries = list(folder.iterdir())
        found = sorted(filter(_is_deck_file, entries), key=lambda path: path.name.lower())
        folders = [path for path in entries if path.is_dir() and not path.name.startswith(".")]
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CardbaseError(
            f"{shown(folder)}: cannot read the folder ({reason}); check its permissions "
            "(ls -ld) or name the deck files; nothing was checked"
        ) from exc
    if folders:  # said, not dropped: a folder's own files are its decks
        from cardbase import notices

        notices.tell(
            f"{shown(folder)}: {len(folders)} folder(s) in it left out "
            f"({', '.join(shown(p.name) for p in folders[:3])}); name one to check its decks"
        )
    if not found:
        kinds = ", ".join(DECK_FILE_SUFFIXES)
        raise CardbaseError(f"{shown(folder)}: no deck files ({kinds}) in the folder")
    return found


def _is_deck_file(path: Path) -> bool:
    name = path.name
    return (
        path.suffix.lower() in DECK_FILE_SUFFIXES
        and not name.startswith((".", "~$"))
        and path.is_file()
    )


def check_files(
    conn: Connection,
    files: list[Path],
    format_key: str | None = None,
    players: int | None = None,
    owned: bool = False,
    default_format: str | None = None,
    progress: Progress = quiet,
) -> list[DeskLine]:
    """Each file's verdict, in order: in `format_key`, else the file's own "Format:" line,
    else `default_format`, else Free Realms. `progress` hears each deck checked (about
    3,000 a second: a bar only for a whole season's decks)."""
    chosen = get_format(format_key) if format_key else None  # a bad --format stops it all
    resolvers: dict[str, NameResolver] = {}
    lines = []
    stage = Stage("Checking decks", len(files), progress)
    for path in files:
        try:
            deck = read_deck_file(path)
            fmt = chosen or own_format(deck.source, deck.format, default_format or DEFAULT_FORMAT)
            if not chosen and not deck.format:  # the desk's line names the format it took
                fmt = format_of_cards(conn, deck, fmt, tell=False)
            resolver = resolvers.setdefault(fmt.game, NameResolver(conn, fmt.game))
            report = check_deck(conn, deck, fmt.key, players, owned, resolver)
            lines.append(DeskLine(shown(path), report, None, deck.player))
        except CardbaseError as exc:
            lines.append(DeskLine(shown(path), None, str(exc)))
        stage.add(1)
    stage.finish()
    return lines
