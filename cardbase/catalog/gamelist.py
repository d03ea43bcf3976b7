"""The games cardbase knows (`cardbase games`): each with its cards in this database and its
formats, and the check of a game file (`cardbase games check FILE`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cardbase.db import tables
from cardbase.gamefile import (
    GameFileError,
    GameProblem,
    read_game_file,
    setting_lines,
    shown_setting,
)
from cardbase.games import GAMES
from cardbase.gamesources import load_games, taken_by

if TYPE_CHECKING:
    from cardbase.db.engine import Connection


class GameSummary(NamedTuple):
    key: str
    title: str
    cards: int  # in this database's catalogue
    formats: tuple[tuple[str, str], ...]  # (key, title)
    source: str  # the game file ('' for the old sample, which has none)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "cards": self.cards,
            "formats": [{"key": key, "title": title} for key, title in self.formats],
            "file": self.source or None,
        }


def list_games(conn: Connection) -> list[GameSummary]:
    """Every game, in the registry's order; the old sample only where cards of it remain."""
    counts = dict(
        conn.execute(f"SELECT game, count(*) FROM {tables.CARD_TABLE} GROUP BY game").fetchall()
    )
    return [
        GameSummary(
            game.key,
            game.title,
            counts.get(game.key, 0),
            tuple((fmt["key"], fmt["title"]) for fmt in game.formats),
            game.source,
        )
        for game in GAMES.values()
        if game.source or counts.get(game.key)
    ]


def check_game_file(path: Path) -> list[GameProblem]:
    """Every problem of the game file at `path`, none when it is a good game beside the
    others (its key and its formats' keys not another game's)."""
    try:
        game = read_game_file(path)
    except GameFileError as exc:
        return exc.problems
    try:
        here = path.resolve()
    except OSError:
        here = path
    others = [g for g in load_games()[0] if Path(g["source"]).resolve() != here]
    clash = taken_by(game, others)
    if clash is None:
        return []
    setting, message = clash
    line = setting_lines(path.read_text(encoding="utf-8")).get(setting)
    return [GameProblem(str(path), line, shown_setting(setting), message)]
