"""Reading one game file (TOML) and checking it, each problem named by line and setting.

A game file is written by hand, often by someone who keeps an old game alive rather than
someone who reads Python, so a mistake is told as `file:line: setting: what is wrong; the
fix`, every one of them at once, rather than as the first exception. tomllib knows the
line of a syntax error only; the lines of settings come from a light reading of the text
(`setting_lines`), good for the files people write (tables, arrays of tables, one
setting a line, inline tables and arrays a line each).

What it returns is plain data (dicts, lists, text, numbers) in one normal shape, every
optional setting filled, so `cardbase.gamesources` can cache it with `marshal` and the
modules that read games never see a missing key.

Foundation: imported only when a game file is read afresh (not on a cached start).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.limits import MAX_NUMBER, MAX_SERIES
from cardbase.similar import closest

MAX_GAME_FILE = 256_000  # bytes: a game file is a few hundred lines
KINDS = ("number", "word", "colours", "flag")
# The fields beyond the common ones that the card table has a column for, with their kind.
# A game's field of another name is kept in the card_value table (schema 10), a row a
# card: a number, a word of its list, a flag or its colours' letters.
GAME_FIELDS: dict[str, str] = {
    "hero": "flag",
    "sphere": "word",
    "cost": "number",
    "attack": "number",
    "defense": "number",
    "gems": "colours",
}
# Query terms of the common fields and of the collection, which no game's alias may take
# (tests/test_gamefiles.py holds this list to the registry's).
COMMON_TERMS = frozenset({
    "code", "series", "set", "e", "edition", "rarity", "r", "number", "num", "name", "n",
    "type", "t", "trait", "tr", "traits", "text", "o", "oracle", "game", "owned", "nonfoil",
    "foil", "condition", "cond", "language", "lang", "location", "in", "loc", "tag", "tags",
    "is", "order", "sort", "gem", "not",
})  # fmt: skip
# Names a field of a new name may not take either: a card's other keys (JSON, catalogue),
# the options of the commands that search, and the web search page's parameters, since a
# field is a query term, a plain option (--dust), a JSON key and a catalogue column.
RESERVED_NAMES = frozenset({
    "id", "set_name", "lore", "artist", "names", "playset", "all", "count", "db", "debug",
    "desc", "explain", "force", "limit", "output", "copies", "collector", "query", "page",
    "size", "view", "q", "values", "missing", "save", "yes", "out", "help", "words",
    "show_all", "no_headers", "filters", "csrf",
})  # fmt: skip
# What a field of a new name's header may not be: a catalogue's and an export's columns
# are read by key or header, folded (lower case, "_" for a space).
_TAKEN_HEADERS = COMMON_TERMS | RESERVED_NAMES | set(GAME_FIELDS) | {
    "qty", "quantity", "count", "note", "finish", "rarity_name", "name_key",
}  # fmt: skip
CODE_PARTS = ("series", "rarity", "number")
SEPARATORS = (" ", "-", "/", "")
MAIN = "main"  # the deck's own section (`cardbase.decks.lists.MAIN`)
_KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_ALIAS = re.compile(r"[a-z][a-z0-9_]*")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

Path_ = tuple[str | int, ...]


class GameProblem(NamedTuple):
    """One thing wrong with a game file: where (a line, a setting or both) and the fix."""

    file: str
    line: int | None
    setting: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return (
            f"{where}: {self.setting}: {self.message}"
            if self.setting
            else (f"{where}: {self.message}")
        )


class GameFileError(Exception):
    """Problems of a game file, gathered: `problems` says each."""

    def __init__(self, problems: list[GameProblem]) -> None:
        super().__init__(str(problems[0]) if problems else "bad game file")
        self.problems = problems


def read_game_file(path: Path) -> dict[str, Any]:
    """The file's game in normal shape; `GameFileError` lists every problem."""
    import tomllib

    shown = str(path)
    try:
        raw = path.read_bytes()[: MAX_GAME_FILE + 1]
    except OSError as exc:
        problem = GameProblem(shown, None, "", f"cannot read it ({exc.strerror or exc})")
        raise GameFileError([problem]) from None
    if len(raw) > MAX_GAME_FILE:
        raise GameFileError([GameProblem(shown, None, "", f"over {MAX_GAME_FILE:,} bytes")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(
            [GameProblem(shown, None, "", f"not UTF-8 text (byte {exc.start + 1})")]
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        message = re.sub(r"\s*\(at line .*\)$", "", str(exc))
        line = int(found.group(1)) if found else None
        raise GameFileError([GameProblem(shown, line, "", f"not valid TOML: {message}")]) from None
    except RecursionError:
        raise GameFileError([GameProblem(shown, None, "", "nested too deeply")]) from None
    lines = setting_lines(text)
    checker = _Checker(shown, lines)
    game = checker.game(data)
    if checker.problems:
        raise GameFileError(checker.problems)
    game["source"] = shown
    # Each setting's line, so a clash with another file's game (`cardbase.gamesources`) is
    # told at its line too.
    game["lines"] = {shown_setting(path): line for path, line in lines.items()}
    return game


_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_BARE = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_SETTING = re.compile(rf"\s*({_BARE}(?:\s*\.\s*{_BARE})*)\s*=")
_ITEM = re.compile(r"\s*\{")


def _dotted(text: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r""""[^"]*"|'[^']*'|[^.]+""", text)]


def setting_lines(text: str) -> dict[Path_, int]:
    """Each setting's path (``("formats", 1, "sections", 0)``) -> the line it is set on."""
    lines: dict[Path_, int] = {}
    counts: dict[Path_, int] = {}
    table: Path_ = ()
    open_array: Path_ | None = None
    items = 0
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header and open_array is None:
            parts = _dotted(header.group(2))
            table = _resolve(parts, counts, lines)
            if header.group(1) == "[[":
                base = table
                counts[base] = counts.get(base, -1) + 1
                table = (*base, counts[base])
            lines.setdefault(table, number)
            continue
        if open_array is not None:
            if _ITEM.match(line):
                lines.setdefault((*open_array, items), number)
                items += 1
            if line.strip().startswith("]"):
                open_array = None
            continue
        setting = _SETTING.match(line)
        if setting:
            path = (*table, *_dotted(setting.group(1)))
            lines.setdefault(path, number)
            rest = line[setting.end() :].split("#")[0].strip()
            if rest == "[" or (rest.startswith("[") and not rest.endswith("]")):
                open_array, items = path, 0
    return lines


def _resolve(parts: list[str], counts: dict[Path_, int], lines: dict[Path_, int]) -> Path_:
    """A header's path, with the index of the latest item of each array of tables in it."""
    path: Path_ = ()
    for part in parts:
        path = (*path, part)
        if path in counts:
            path = (*path, counts[path])
    return path


def shown_setting(path: Path_) -> str:
    """A setting's path as a person writes it: ``formats[0].sections[2].types``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class _Checker:
    """Checks a parsed game file a setting at a time, gathering problems."""

    def __init__(self, file: str, lines: dict[Path_, int]) -> None:
        self.file = file
        self.lines = lines
        self.problems: list[GameProblem] = []

    def wrong(self, path: Path_, message: str) -> None:
        probe = path
        while probe and probe not in self.lines:
            probe = probe[:-1]
        line = self.lines.get(probe)
        self.problems.append(GameProblem(self.file, line, shown_setting(path), message))

    # -- the kinds of values -------------------------------------------------------------

    def text(self, table: dict[str, Any], path: Path_, required: bool = False) -> str | None:
        value = table.get(str(path[-1]))
        if value is None:
            if required:
                self.wrong(path, f'missing; add {path[-1]} = "..."')
            return None
        if not isinstance(value, str) or not value.strip():
            self.wrong(path, 'must be text in quotes, such as "..."')
            return None
        return value.strip()

    def whole(self, table: dict[str, Any], path: Path_, low: int = 0, high: int = 10**6,
              ) -> int | None:  # fmt: skip
        value = table.get(str(path[-1]))
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.wrong(path, f"must be a whole number from {low} to {high}")
            return None
        return value

    def flag(self, table: dict[str, Any], path: Path_, default: bool) -> bool:
        value = table.get(str(path[-1]), default)
        if not isinstance(value, bool):
            self.wrong(path, "must be true or false")
            return default
        return value

    def words(self, table: dict[str, Any], path: Path_) -> list[str]:
        value = table.get(str(path[-1]), [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.wrong(path, 'must be a list of text, such as ["a", "b"]')
            return []
        if len(set(value)) < len(value):
            self.wrong(path, "names one thing twice; keep one")
        return [v.strip() for v in value]

    def table(self, data: dict[str, Any], path: Path_) -> dict[str, Any]:
        value = data.get(str(path[-1]), {})
        if not isinstance(value, dict):
            self.wrong(path, f"must be a table: [{shown_setting(path)}]")
            return {}
        return value

    def known(self, table: dict[str, Any], path: Path_, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                guess = closest(key, list(allowed))
                hint = f"did you mean '{guess}'? " if guess else ""
                self.wrong((*path, key), f"unknown setting; {hint}settings here: "
                           + ", ".join(allowed))  # fmt: skip

    def among(self, path: Path_, names: list[str], allowed: list[str], what: str) -> None:
        for at, name in enumerate(names):
            if name not in allowed:
                guess = closest(name, allowed)
                hint = f"; did you mean '{guess}'?" if guess else ""
                self.wrong((*path, at), f"'{name}' is not one of the game's {what} "
                           f"({', '.join(allowed) or 'none'}){hint}")  # fmt: skip

    # -- the game --------------------------------------------------------------------------

    def game(self, data: dict[str, Any]) -> dict[str, Any]:
        self.known(data, (), ("key", "prefix", "title", "catalogue", "opening_hand",
                              "draws_per_turn", "rarities", "rarity_order", "code", "sets",
                              "types", "fields", "formats"))  # fmt: skip
        key = self.text(data, ("key",), required=True)
        if key and not _KEY.fullmatch(key):
            self.wrong(("key",), f"'{key}' must be lower-case letters, digits and '-'")
        rarities = self.rarities(data)
        fields = self.fields(data)
        # Types name the fields the file declares, good or not: one mistake, one problem.
        types = self.types(data, list(self.table(data, ("fields",))))
        prefix = self.text(data, ("prefix",))
        if prefix and not _KEY.fullmatch(prefix):
            self.wrong(("prefix",), f"'{prefix}' must be lower-case letters, digits and '-'")
        return {
            "key": key or "",
            "prefix": prefix,
            "title": self.text(data, ("title",), required=True) or key or "",
            "catalogue": self.text(data, ("catalogue",)),
            "opening_hand": self.whole(data, ("opening_hand",), 0, 100),
            "draws_per_turn": self.whole(data, ("draws_per_turn",), 0, 100),
            "rarities": rarities,
            "ranked": self.ranked(data, rarities),
            "code": self.code(data, rarities),
            "sets": self.sets(data),
            "types": types,
            "fields": fields,
            "formats": self.formats(data, list(types)),
        }

    def rarities(self, data: dict[str, Any]) -> dict[str, str]:
        table = self.table(data, ("rarities",))
        if not table:
            self.wrong(("rarities",), 'missing; add [rarities] with a letter each: C = "Common"')
        found: dict[str, str] = {}
        for letter, name in table.items():
            if not re.fullmatch(r"[A-Z]", letter):
                self.wrong(("rarities", letter), "a rarity is one capital letter, such as C")
            elif name := self.text(table, ("rarities", letter)):
                found[letter] = name
        return found

    def ranked(self, data: dict[str, Any], rarities: dict[str, str]) -> str:
        table = self.table(data, ("rarity_order",))
        self.known(table, ("rarity_order",), ("ranked",))
        ranked = self.text(table, ("rarity_order", "ranked"))
        if ranked is None:
            return "".join(rarities)
        bad = [letter for letter in ranked if letter not in rarities]
        if bad or len(set(ranked)) < len(ranked):
            self.wrong(("rarity_order", "ranked"), "must be the game's rarity letters "
                       f"({''.join(rarities)}), lowest first, each once")  # fmt: skip
        return ranked

    def code(self, data: dict[str, Any], rarities: dict[str, str]) -> dict[str, Any]:
        path: Path_ = ("code",)
        table = self.table(data, path)
        self.known(table, path, ("parts", "separators", "canonical", "series", "number"))
        parts = self.words(table, (*path, "parts")) or list(CODE_PARTS)
        if tuple(parts) != CODE_PARTS:
            self.wrong((*path, "parts"), "cardbase reads codes of series, rarity letter and "
                       'number in that order: parts = ["series", "rarity", "number"]')  # fmt: skip
        separators = table.get("separators", list(SEPARATORS))
        if not isinstance(separators, list) or any(s not in SEPARATORS for s in separators):
            self.wrong((*path, "separators"), 'may hold " ", "-", "/" and "" (none)')
            separators = list(SEPARATORS)
        canonical = self.text(table, (*path, "canonical")) or "{series} {rarity} {number}"
        self.canonical(canonical, separators)
        limits = {"series": MAX_SERIES, "number": MAX_NUMBER}
        bounds = {}
        for part, limit in limits.items():
            given = self.table(table, (*path, part))
            self.known(given, (*path, part), ("min", "max"))
            low = self.whole(given, (*path, part, "min"), 1, limit) or 1
            high = self.whole(given, (*path, part, "max"), 1, limit) or limit
            if low > high:
                self.wrong((*path, part), f"min {low} is above max {high}")
            bounds[part] = [low, high]
        return {"parts": parts, "separators": separators, "canonical": canonical, **bounds}

    def canonical(self, canonical: str, separators: list[str]) -> None:
        path: Path_ = ("code", "canonical")
        if canonical.count("{") != canonical.count("}"):
            self.wrong(path, "a '{' or '}' is not closed; write parts as {series}")
            return
        named = _PLACEHOLDER.findall(canonical)
        if sorted(named) != sorted(CODE_PARTS) or named != list(CODE_PARTS):
            self.wrong(path, "must name {series}, {rarity} and {number} once each, in that "
                       "order, such as \"{series} {rarity} {number}\"")  # fmt: skip
            return
        between = [s for s in _PLACEHOLDER.split(canonical)[::2]]
        if between[0] or between[-1] or any(s not in separators for s in between[1:-1]):
            self.wrong(path, "between the parts only the code's separators, nothing before "
                       "or after")  # fmt: skip

    def sets(self, data: dict[str, Any]) -> dict[int, str]:
        table = self.table(data, ("sets",))
        found: dict[int, str] = {}
        for series, name in table.items():
            if not series.isdigit() or not 1 <= int(series) <= MAX_SERIES:
                self.wrong(("sets", series), f"a set is named by its series, 1 to {MAX_SERIES}")
            elif name := self.text(table, ("sets", series)):
                found[int(series)] = name
        return found

    def fields(self, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
        table = self.table(data, ("fields",))
        found: dict[str, dict[str, Any]] = {}
        # Every field's name is its own term: no other field's alias may take it.
        aliases: dict[str, str] = {name: name for name in (*GAME_FIELDS, *table)}
        for name in table:
            path: Path_ = ("fields", name)
            checked = self.field(table, path)
            if checked is None:
                continue
            for at, alias in enumerate(checked["aliases"]):
                taken = aliases.get(alias)
                if alias in COMMON_TERMS | RESERVED_NAMES or (taken and taken != name):
                    self.wrong((*path, "aliases", at), f"'{alias}' is already a query term "
                               f"({taken or 'a common field'}); choose another")  # fmt: skip
                aliases[alias] = name
            found[name] = checked
        return found

    def field(self, table: dict[str, Any], path: Path_) -> dict[str, Any] | None:
        name = str(path[-1])
        given = self.table(table, path)
        self.known(given, path, ("kind", "aliases", "header", "column", "help", "example",
                                 "words", "colours", "most"))  # fmt: skip
        kind = self.text(given, (*path, "kind"), required=True)
        if kind is None:
            return None
        if kind not in KINDS:
            guess = closest(kind, list(KINDS))
            hint = f"did you mean '{guess}'? " if guess else ""
            self.wrong((*path, "kind"), f"unknown field kind '{kind}'; {hint}kinds: "
                       + ", ".join(KINDS))  # fmt: skip
            return None
        if name not in GAME_FIELDS:
            if not self.new_name(name, path):
                return None
        elif GAME_FIELDS[name] != kind:
            self.wrong((*path, "kind"), f"{name} is a {GAME_FIELDS[name]} field; "
                       f'kind = "{GAME_FIELDS[name]}"')  # fmt: skip
            return None
        aliases = self.words(given, (*path, "aliases"))
        for at, alias in enumerate(aliases):
            if not _ALIAS.fullmatch(alias):
                self.wrong((*path, "aliases", at), "an alias is a lower-case word: atk")
        header = self.text(given, (*path, "header")) or name.capitalize()
        if name not in GAME_FIELDS and header.lower().replace(" ", "_") in _TAKEN_HEADERS:
            self.wrong((*path, "header"), f"'{header}' is already a card column's header "
                       "in catalogues and exports; choose another")  # fmt: skip
        return {
            "kind": kind,
            "in_card_value": name not in GAME_FIELDS,  # a row of card_value, not a column
            "aliases": aliases,
            "header": header,
            "column": self.text(given, (*path, "column")),
            "help": self.text(given, (*path, "help")),
            "example": self.text(given, (*path, "example")) or "",
            **self.kind_settings(kind, given, path),
        }

    def new_name(self, name: str, path: Path_) -> bool:
        """Whether a field of a name the card table has no column for may be the game's own
        (kept in card_value): a lower-case word no common term, option or card key takes."""
        if not _ALIAS.fullmatch(name):
            self.wrong(path, "a field's name is a lower-case word (letters, digits, _): dust")
            return False
        if name in COMMON_TERMS | RESERVED_NAMES:
            self.wrong(path, f"'{name}' is already a query term, option or card key; "
                       "name the field otherwise")  # fmt: skip
            return False
        return True

    def kind_settings(self, kind: str, given: dict[str, Any], path: Path_) -> dict[str, Any]:
        for setting, owner in (("words", "word"), ("colours", "colours"), ("most", "colours")):
            if setting in given and kind != owner:
                self.wrong((*path, setting), f"only a {owner} field has {setting}")
        if kind == "word":
            words = self.words(given, (*path, "words"))
            if not words:
                self.wrong((*path, "words"), 'a word field lists its words: words = ["a"]')
            return {"words": words}
        if kind != "colours":
            return {}
        colours = self.table(given, (*path, "colours"))
        if not colours:
            self.wrong((*path, "colours"), 'missing; colours = { R = "red", G = "green" }')
        for letter in colours:
            if not re.fullmatch(r"[A-Z]", letter):
                self.wrong((*path, "colours", letter), "a colour is one capital letter")
            else:
                self.text(colours, (*path, "colours", letter), required=True)
        most = self.whole(given, (*path, "most"), 1, 99)
        return {"colours": {k: str(v) for k, v in colours.items()}, "most": most or 4}

    def types(self, data: dict[str, Any], fields: list[str]) -> dict[str, dict[str, Any]]:
        table = self.table(data, ("types",))
        if not table:
            self.wrong(("types",), "missing; add a [types.NAME] table for each card type")
        found: dict[str, dict[str, Any]] = {}
        synonyms: dict[str, str] = {}
        for name in table:
            path: Path_ = ("types", name)
            given = self.table(table, path)
            self.known(given, path, ("carries", "synonyms"))
            carries = self.words(given, (*path, "carries"))
            self.among((*path, "carries"), carries, fields, "fields")
            words = [word.lower() for word in self.words(given, (*path, "synonyms"))]
            for at, word in enumerate(words):
                if synonyms.get(word, name) != name or word in (t.lower() for t in table):
                    self.wrong((*path, "synonyms", at), f"'{word}' already names a type")
                synonyms[word] = name
            found[name] = {"carries": carries, "synonyms": words}
        return found

    def formats(self, data: dict[str, Any], types: list[str]) -> list[dict[str, Any]]:
        given = data.get("formats", [])
        if not isinstance(given, list):
            self.wrong(("formats",), "must be an array of tables: [[formats]]")
            return []
        found = []
        keys: set[str] = set()
        for at, fmt in enumerate(given):
            path: Path_ = ("formats", at)
            if not isinstance(fmt, dict):
                self.wrong(path, "must be a table: [[formats]]")
                continue
            checked = self.format(fmt, path, types)
            if checked["key"] in keys:
                self.wrong((*path, "key"), f"two formats are '{checked['key']}'; rename one")
            keys.add(checked["key"])
            found.append(checked)
        return found

    def format(self, fmt: dict[str, Any], path: Path_, types: list[str]) -> dict[str, Any]:
        self.known(fmt, path, ("key", "title", "copy_limit", "copy_sections", "sections",
                               "players", "default_players", "variants"))  # fmt: skip
        key = self.text(fmt, (*path, "key"), required=True) or ""
        if key and not _KEY.fullmatch(key):
            self.wrong((*path, "key"), f"'{key}' must be lower-case letters, digits and '-'")
        sections = self.sections(fmt, (*path, "sections"), types)
        names = [section["name"] for section in sections]
        copy_sections = self.words(fmt, (*path, "copy_sections")) or [MAIN]
        self.among((*path, "copy_sections"), copy_sections, names, "sections")
        players = fmt.get("players", [])
        if not isinstance(players, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 99 for p in players
        ):
            self.wrong((*path, "players"), "must be a list of player counts: [3, 4]")
            players = []
        default = self.whole(fmt, (*path, "default_players"), 1, 99)
        if default is not None and default not in players:
            self.wrong((*path, "default_players"), f"{default} is not among players {players}")
        return {
            "key": key,
            "title": self.text(fmt, (*path, "title"), required=True) or key,
            "copy_limit": self.whole(fmt, (*path, "copy_limit"), 1, 999) or 1,
            "copy_sections": copy_sections,
            "sections": sections,
            "players": players,
            "default_players": default,
            "variants": self.variants(fmt, path, names, players, types),
        }

    def sections(self, fmt: dict[str, Any], path: Path_, types: list[str]) -> list[dict[str, Any]]:
        given = fmt.get("sections", [])
        if not isinstance(given, list) or not given:
            self.wrong(path, 'a format lists its sections: sections = [{ name = "main" }]')
            return []
        found: list[dict[str, Any]] = []
        for at, section in enumerate(given):
            if not isinstance(section, dict):
                self.wrong((*path, at), 'a section is a table: { name = "main", min = 40 }')
                continue
            name = self.text(section, (*path, at, "name"), required=True)
            if name and name in (s["name"] for s in found):
                self.wrong((*path, at, "name"), f"two sections are '{name}'; rename one")
            found.append(self.rule(name or "", section, (*path, at), types))
        return found

    def rule(self, name: str, section: dict[str, Any], path: Path_, types: list[str],
             ) -> dict[str, Any]:  # fmt: skip
        self.known(section, path, ("name", "min", "max", "required", "distinct", "types",
                                   "excluded_types"))  # fmt: skip
        low = self.whole(section, (*path, "min"), 0, 9999)
        high = self.whole(section, (*path, "max"), 0, 9999)
        if low is not None and high is not None and low > high:
            self.wrong(path, f"min {low} is above max {high}")
        only = self.words(section, (*path, "types"))
        never = self.words(section, (*path, "excluded_types"))
        self.among((*path, "types"), only, types, "types")
        self.among((*path, "excluded_types"), never, types, "types")
        return {"name": name, "min": low, "max": high,
                "required": self.flag(section, (*path, "required"), True),
                "distinct": self.flag(section, (*path, "distinct"), False),
                "types": only, "excluded_types": never}  # fmt: skip

    def variants(self, fmt: dict[str, Any], path: Path_, names: list[str], players: list[int],
                 types: list[str]) -> dict[int, list[dict[str, Any]]]:  # fmt: skip
        given = self.table(fmt, (*path, "variants"))
        found: dict[int, list[dict[str, Any]]] = {}
        for count in given:
            at: Path_ = (*path, "variants", count)
            if not count.isdigit() or int(count) not in players:
                self.wrong(at, f"a variant is named by one of the players ({players})")
                continue
            rules = []
            for name, section in self.table(given, at).items():
                if name not in names:
                    self.wrong((*at, name), f"the format has no section '{name}'; "
                               f"its sections: {', '.join(names)}")  # fmt: skip
                elif isinstance(section, dict):
                    rules.append(self.rule(name, section, (*at, name), types))
                else:
                    self.wrong((*at, name), "must be a table: { min = 2, max = 2 }")
            found[int(count)] = rules
        return found
