"""The catalogue: reading card lists (CSV in the cards.csv shape) and storing them.

Reading and checking is separate from storing: `read_catalogue` turns a file into
`Card`s and row-numbered problems without touching a database, and `store_cards`
writes checked cards in the caller's transaction. So a file with one bad row is rejected
before anything is written, and the bundled catalogue loads through the same checks as a
user's file.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cardbase.catalog.cards import Card, card_to_row
from cardbase.codes import parse_code
from cardbase.db import tables
from cardbase.errors import CardbaseError, CatalogueError, first_few
from cardbase.fields import (
    CATALOGUE_COLUMNS,
    GEM_COLOURS,
    MAX_GEMS,
    REQUIRED_COLUMNS,
)
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.limits import MAX_CATALOGUE_FILE, MAX_CELL, MAX_COLUMNS
from cardbase.similar import closest

TRUE_WORDS = frozenset({"yes", "y", "true", "t", "1", "x", "hero"})
FALSE_WORDS = frozenset({"", "no", "n", "false", "f", "0"})
NO_SPHERE_WORDS = frozenset({"", "none", "hero", "-"})
MAX_PROBLEMS_SHOWN = 20
# C0 controls but tab, line feed and carriage return; DEL; C1 controls (U+009B is CSI).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass
class CatalogueFile:
    """What a catalogue file held: the good rows, and a line for each bad one."""

    cards: list[Card] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ImportCounts:
    added: int
    updated: int
    unchanged: int
    skipped: int = 0


class RowError(CardbaseError):
    """One bad value in one row; collected, never shown alone."""


def bundled_catalogue() -> Path:
    """cards.csv inside the installed wheel, or at the top of a source checkout."""
    packaged = resources.files("cardbase") / "data" / "cards.csv"
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "cards.csv"


def read_catalogue(path: Path) -> CatalogueFile:
    """A catalogue CSV file: a regular file within `MAX_CATALOGUE_FILE`, UTF-8, with no NUL."""
    from cardbase.sheets.bounded import read_bounded

    raw = read_bounded(path, MAX_CATALOGUE_FILE, "catalogue file", error=CatalogueError)
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise CatalogueError(f"{path}: a workbook, not a CSV file; save it as CSV UTF-8")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise CatalogueError(
            f"{path}: not a text file (a NUL byte at byte {nul:,}); save the catalogue as CSV UTF-8"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatalogueError(
            f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8 CSV"
        ) from exc
    del raw
    controls = CONTROL.search(text) is not None  # else no row needs looking at for them
    return parse_catalogue(io.StringIO(text, newline=""), str(path), controls=controls)


def parse_catalogue(lines: Iterable[str], source: str, *, controls: bool = True) -> CatalogueFile:
    """Cards and row problems from CSV lines; `controls` says whether to look for control
    characters (a caller that searched the whole text and found none can skip it)."""
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is not None and len(header) > MAX_COLUMNS:
            raise CatalogueError(
                f"{source}: the header has {len(header):,} columns; a catalogue has "
                f"{len(CATALOGUE_COLUMNS)} (at most {MAX_COLUMNS} are read)"
            )
        if header is None or not any(cell.strip() for cell in header):
            raise CatalogueError(
                f"{source}: empty file; expected a header row ({', '.join(CATALOGUE_COLUMNS)})"
            )
        columns = _map_header(header, source)
        ignored = [cell.strip() for cell in header if cell.strip() and _column(cell) not in columns]
        result = CatalogueFile(ignored_columns=ignored)
        seen: dict[tuple[str, int, int], int] = {}
        for row_number, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue
            try:
                if len(row) > MAX_COLUMNS:
                    raise RowError(
                        f"{len(row):,} columns; a catalogue has {len(CATALOGUE_COLUMNS)}"
                    )
                values = {name: row[i] if i < len(row) else "" for name, i in columns.items()}
                _check_characters(values, controls)
                card = parse_row(values)
            except CardbaseError as exc:
                result.problems.append(f"{source}, row {row_number}: {exc}")
                continue
            key = (card.game, card.code.series, card.code.number)
            if key in seen:
                result.problems.append(
                    f"{source}, row {row_number}: code {card.code} repeats row {seen[key]}"
                )
                continue
            seen[key] = row_number
            result.cards.append(card)
    except csv.Error as exc:
        raise CatalogueError(f"{source}: not a readable CSV file ({exc})") from exc
    return result


def _check_characters(values: dict[str, str], controls: bool) -> None:
    """Refuse control characters (ESC and the rest), which a terminal would obey when `show`
    prints the card. Tab and line breaks are text (a card's text may span lines); so is
    anything printable. A value longer than a spreadsheet cell holds is refused too."""
    if not controls and max(map(len, values.values())) <= MAX_CELL:
        return
    for column, value in values.items():
        if len(value) > MAX_CELL:
            raise RowError(f"{column} has {len(value):,} characters (at most {MAX_CELL:,})")
        bad = CONTROL.search(value)
        if bad:
            raise RowError(
                f"{column} has the control character U+{ord(bad.group()):04X} at character "
                f"{bad.start() + 1}; remove it (tabs and line breaks are fine)"
            )


def _column(header: str) -> str:
    return header.strip().lower().replace(" ", "_")


def _map_header(header: list[str], source: str) -> dict[str, int]:
    columns: dict[str, int] = {}
    for position, cell in enumerate(header):
        name = _column(cell)
        if name in CATALOGUE_COLUMNS:
            if name in columns:
                raise CatalogueError(
                    f"{source}: column '{cell.strip()}' appears twice in the header"
                )
            columns[name] = position
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        raise CatalogueError(
            f"{source}: the header has no {', '.join(missing)} column "
            f"(found: {', '.join(h.strip() for h in header if h.strip()) or 'nothing'}); "
            f"expected columns {', '.join(CATALOGUE_COLUMNS)}"
        )
    return columns


def parse_row(values: dict[str, str]) -> Card:
    """Check one row's values; raise `RowError` (or `CodeError`) naming the first bad one."""
    game = _game(values.get("game", ""))
    code = parse_code(values["code"])
    name = " ".join(values["name"].split())
    if not name:
        raise RowError("the name is empty")
    card_type, hero = _type_and_hero(game, values["type"], values.get("hero", ""))
    sphere = _sphere(game, values.get("sphere", ""), hero)
    cost = _stat(values, "cost")
    attack = _stat(values, "attack")
    defense = _stat(values, "defense")
    if card_type in game.fighting_types:
        if attack is None or defense is None:
            raise RowError(f"a {card_type} needs attack and defense")
    elif attack is not None or defense is not None:
        raise RowError(f"a {card_type} has no attack or defense; leave them empty")
    return Card(
        id=0,  # not stored yet
        game=game.key,
        code=code,
        name=name,
        type=card_type,
        hero=hero,
        sphere=sphere,
        traits=tuple(_traits(values.get("traits", ""))),
        cost=cost,
        attack=attack,
        defense=defense,
        gems=_gems(values.get("gems", "")),
        text=values.get("text", "").strip(),
        lore=values.get("lore", "").strip(),
    )


def _game(text: str) -> Game:
    wanted = text.strip().lower()
    if not wanted:
        return GAMES[DEFAULT_GAME]
    for game in GAMES.values():
        if wanted in (game.key, game.title.lower()):
            return game
    raise RowError(f"game '{text.strip()}' is not one of {', '.join(GAMES)}")


def _choice(kind: str, text: str, choices: Iterable[str]) -> str:
    options = list(choices)
    for option in options:
        if text.strip().lower() == option.lower():
            return option
    close = closest(text.strip(), options)
    hint = f"; did you mean {close}?" if close else ""
    raise RowError(f"{kind} '{text.strip()}' is not one of {', '.join(options)}{hint}")


def _type_and_hero(game: Game, type_text: str, hero_text: str) -> tuple[str, bool]:
    hero = _flag("hero", hero_text)
    word = type_text.strip().lower()
    if word == "hero":  # lists often say "Hero" where the card says "Creature - Hero"
        return game.fighting_types[0], True
    card_type = game.type_synonyms.get(word) or _choice("type", type_text, game.types)
    if hero and card_type not in game.fighting_types:
        raise RowError(f"a Hero must be a {' or '.join(game.fighting_types)}, not a {card_type}")
    return card_type, hero


def _sphere(game: Game, text: str, hero: bool) -> str | None:
    if text.strip().lower() in NO_SPHERE_WORDS:
        if not hero and game.spheres:
            raise RowError(
                f"the sphere is empty; only Heroes have none ({', '.join(game.spheres)})"
            )
        return None
    if hero:
        raise RowError(f"Heroes have no sphere, but this row says '{text.strip()}'")
    return _choice("sphere", text, game.spheres)


def _flag(column: str, text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise RowError(f"{column} '{text.strip()}' is not yes or no")


def _stat(values: dict[str, str], column: str) -> int | None:
    text = values.get(column, "").strip()
    if not text:
        return None
    try:
        number = int(text)
    except ValueError:
        raise RowError(f"{column} '{text}' is not a whole number") from None
    if not 0 <= number <= 999:
        raise RowError(f"{column} {number} is out of range (0 to 999)")
    return number


def _traits(text: str) -> list[str]:
    return [" ".join(t.split()) for t in text.replace(";", ",").split(",") if t.strip()]


def _gems(text: str) -> str:
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch not in ",;-/")
    bad = sorted({ch for ch in letters if ch not in GEM_COLOURS})
    if bad:
        raise RowError(f"gems '{text.strip()}' has {', '.join(bad)}; gems are R, G, B, Y")
    if len(letters) > MAX_GEMS:
        raise RowError(
            f"gems '{text.strip()}' has {len(letters)} gems; a card has at most {MAX_GEMS}"
        )
    return letters


def store_cards(conn: sqlite3.Connection, cards: list[Card], skipped: int = 0) -> ImportCounts:
    """Add new cards and update changed ones, matched by game and code, in `conn`'s transaction."""
    columns = tables.CARD_COLUMNS[1:]  # all but the id, in the table's order
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples, compared whole with each card's row
    rows = cursor.execute(f"SELECT {', '.join(tables.CARD_COLUMNS)} FROM {tables.CARD_TABLE}")
    existing = {(row[1], row[2], row[4]): row for row in rows}
    new_rows: list[tuple[object, ...]] = []
    changed_rows: list[tuple[object, ...]] = []
    for card in cards:
        values = card_to_row(card)
        old = existing.get((card.game, card.code.series, card.code.number))
        if old is None:
            new_rows.append(values)
        elif tuple(old[1:]) != values:
            changed_rows.append((*values, old[0]))
    if new_rows:
        marks = ", ".join("?" * len(columns))
        conn.executemany(
            f"INSERT INTO {tables.CARD_TABLE} ({', '.join(columns)}) VALUES ({marks})", new_rows
        )
    if changed_rows:
        assignments = ", ".join(f"{column} = ?" for column in columns)
        conn.executemany(f"UPDATE {tables.CARD_TABLE} SET {assignments} WHERE id = ?", changed_rows)
    unchanged = len(cards) - len(new_rows) - len(changed_rows)
    return ImportCounts(len(new_rows), len(changed_rows), unchanged, skipped)


def checked_cards(parsed: CatalogueFile, source: str, skip_bad: bool) -> list[Card]:
    """The cards to store, or a `CatalogueError` listing bad rows when they are not skipped."""
    if parsed.problems and not skip_bad:
        shown = first_few(parsed.problems, MAX_PROBLEMS_SHOWN, "more bad rows")
        raise CatalogueError(
            f"{source}: {len(parsed.problems)} bad row(s), so nothing was imported "
            "(fix them, or add --skip-bad to import the good rows)",
            shown,
        )
    if not parsed.cards:
        raise CatalogueError(f"{source}: no cards in the file")
    return parsed.cards


def load_catalogue(conn: sqlite3.Connection, path: Path) -> ImportCounts:
    """Load a whole catalogue file, which must have no bad rows, in `conn`'s transaction."""
    from cardbase.bulk import paused_gc

    with paused_gc():
        parsed = read_catalogue(path)
        return store_cards(conn, checked_cards(parsed, str(path), skip_bad=False))
