"""Game files: the shipped ones are what cardbase knows of its games, a bad one is told line
by line, and the checked games are read once and cached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardbase import fields, gamesources
from cardbase.decks.formats import FORMATS
from cardbase.gamefile import COMMON_TERMS, GAME_FIELDS, GameFileError, read_game_file
from cardbase.games import FREE_REALMS, GAMES, WILDHEARTS
from tests.helpers import Run, ok

SHIPPED = gamesources.SHIPPED
GOOD = (SHIPPED / "wildhearts.toml").read_text(encoding="utf-8")


def test_the_shipped_games_are_their_files() -> None:
    assert FREE_REALMS.source.endswith("free-realms.toml")
    assert (FREE_REALMS.opening_hand, FREE_REALMS.draws_per_turn) == (6, 2)
    assert FREE_REALMS.fighting_types == ("Creature",)
    assert FREE_REALMS.type_synonyms == {"item": "Resource", "items": "Resource"}
    assert FREE_REALMS.set_names[3] == "Baron Von Darkcheat"
    assert fields.RARITY_LETTERS == "CUREPS" and fields.RANKED_RARITIES == "CURE"
    assert WILDHEARTS.fighting_types == ("Ally", "Familiar")
    assert WILDHEARTS.spheres == ()
    ffa = FORMATS["wildhearts-ffa"]
    assert ffa.rules_for(3)["fields"].min_cards == 2
    assert ffa.rules_for(None)["fields"].max_cards == 1
    assert (fields.PLAYSET, fields.DEFAULT_FORMAT) == (3, "free-realms")


def test_the_registry_takes_the_game_fields_terms_from_the_files() -> None:
    attack = fields.FIELD_BY_NAME["power"]
    assert (attack.name, attack.export, attack.table) == ("attack", "Attack", "Atk/Def")
    assert fields.FIELD_BY_NAME["s"].choices == ("Chaos", "Nature", "Machine", "Order", "none")


def test_no_game_alias_can_take_a_common_term() -> None:
    """COMMON_TERMS is the registry's terms other than the game fields' (and `not`)."""
    common = {
        term
        for field in fields.FIELDS
        if field.kind and field.name not in GAME_FIELDS
        for term in (field.name, *field.aliases)
    }
    assert common | set(fields.NEGATED_ALIASES) == COMMON_TERMS


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GameFileError) as raised:
        read_game_file(path)
    return [str(problem).replace(str(path), "game.toml") for problem in raised.value.problems]


def edited(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


BAD = [
    ("syntax", edited('title = "Wildhearts TCG"', 'title = "Wildhearts'),
     "game.toml:7: not valid TOML: Illegal character '\\n'"),
    ("unknown kind", edited('kind = "number"\nheader = "Cost"', 'kind = "numeric"'),
     "game.toml:45: fields.cost.kind: unknown field kind 'numeric'; did you mean 'number'? "
     "kinds: number, word, colours, flag"),
    ("a new field's name taken", edited("[fields.cost]", '[fields.limit]\nkind = "number"\n\n'
                                        "[fields.cost]"),
     "game.toml:44: fields.limit: 'limit' is already a query term, option or card key; name "
     "the field otherwise"),
    ("a new field's name not a word", edited("[fields.cost]", '[fields.Power]\nkind = "flag"\n\n'
                                             "[fields.cost]"),
     "game.toml:44: fields.Power: a field's name is a lower-case word (letters, digits, _): "
     "dust"),
    ("a new field's header taken", edited("[fields.cost]", '[fields.dust]\nkind = "number"\n'
                                          'header = "Name"\n\n[fields.cost]'),
     "game.toml:46: fields.dust.header: 'Name' is already a card column's header in "
     "catalogues and exports; choose another"),
    ("an alias that is a field", edited('[fields.cost]\nkind = "number"', '[fields.power]\n'
                                        'kind = "number"\naliases = ["cost"]\n\n[fields.cost]\n'
                                        'kind = "number"'),
     "game.toml:46: fields.power.aliases[0]: 'cost' is already a query term (cost); choose "
     "another"),
    ("wrong kind", edited('kind = "number"\nheader = "Cost"', 'kind = "flag"'),
     'game.toml:45: fields.cost.kind: cost is a number field; kind = "number"'),
    ("code parts", edited('parts = ["series", "rarity", "number"]', 'parts = ["number"]'),
     "game.toml:20: code.parts: cardbase reads codes of series, rarity letter and number in "
     'that order: parts = ["series", "rarity", "number"]'),
    ("canonical unclosed", edited('canonical = "{series} {rarity} {number}"',
                                  'canonical = "{series} {rarity {number}"'),
     "game.toml:22: code.canonical: a '{' or '}' is not closed; write parts as {series}"),
    ("canonical separator", edited('canonical = "{series} {rarity} {number}"',
                                   'canonical = "{series}:{rarity}:{number}"'),
     "game.toml:22: code.canonical: between the parts only the code's separators, nothing "
     "before or after"),
    ("missing section", edited("[formats.variants.3]\nfields", "[formats.variants.3]\nfield"),
     "game.toml:81: formats[0].variants.3.field: the format has no section 'field'; its "
     "sections: main, familiars, fields, side, judge"),
    ("unknown type", edited('types = ["Judge"]', 'types = ["Judges"]'),
     "game.toml:77: formats[0].sections[4].types[0]: 'Judges' is not one of the game's types "
     "(Ally, Tamer, Action, Familiar, Field, Judge); did you mean 'Judge'?"),
    ("copy section", edited('copy_sections = ["main", "side"]', 'copy_sections = ["sides"]'),
     "game.toml:69: formats[0].copy_sections[0]: 'sides' is not one of the game's sections "
     "(main, familiars, fields, side, judge); did you mean 'side'?"),
    ("type carries", edited('[types.Tamer]\ncarries = ["cost", "gems"]',
                            '[types.Tamer]\ncarries = ["cost", "sphere"]'),
     "game.toml:30: types.Tamer.carries[1]: 'sphere' is not one of the game's fields "
     "(cost, attack, defense, gems)"),
    ("unknown setting", "draws_per_turm = 2\n" + GOOD,
     "game.toml:1: draws_per_turm: unknown setting; did you mean 'draws_per_turn'? settings "
     "here: key, prefix, title, catalogue, opening_hand, draws_per_turn, rarities, rarity_order, code, "
     "sets, types, fields, formats"),
    ("rarity order", edited('ranked = "CUR"', 'ranked = "CUX"'),
     "game.toml:17: rarity_order.ranked: must be the game's rarity letters (CUR), lowest "
     "first, each once"),
    ("default players", edited("default_players = 4", "default_players = 5"),
     "game.toml:71: formats[0].default_players: 5 is not among players [3, 4]"),
    ("alias taken", edited('[fields.cost]\nkind = "number"', '[fields.cost]\nkind = "number"\n'
                           'aliases = ["t"]'),
     "game.toml:46: fields.cost.aliases[0]: 't' is already a query term (a common field); "
     "choose another"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "text", "expected"), BAD, ids=[case[0] for case in BAD])
def test_a_bad_game_file_is_told_by_line_and_setting(
    tmp_path: Path, case: str, text: str, expected: str
) -> None:
    assert problems(tmp_path, text) == [expected]


def test_every_problem_is_told_at_once(tmp_path: Path) -> None:
    text = edited('key = "wildhearts"', 'key = "Wild Hearts"').replace("copy_limit = 2", "")
    text = text.replace("title = ", "name = ")
    told = problems(tmp_path, text)
    assert told[0].startswith("game.toml:7: name: unknown setting")
    assert "game.toml:4: key: 'Wild Hearts' must be lower-case letters, digits and '-'" in told
    assert 'game.toml: title: missing; add title = "..."' in told


@pytest.fixture
def games_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user games folder (beside a config file) and a cache folder of the test's own."""
    monkeypatch.setenv("CARDBASE_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(gamesources.GAMES_ENV, raising=False)
    (tmp_path / "games").mkdir()
    return tmp_path / "games"


def third_game(key: str = "pixie-duel") -> str:
    return (
        edited('key = "wildhearts"', f'key = "{key}"')
        .replace('title = "Wildhearts TCG"', 'title = "Pixie Duel"')
        .replace('key = "wildhearts-ffa"', f'key = "{key}-duel"')
        .replace('prefix = "wh"', 'prefix = "px"')
    )


def test_a_users_game_is_read_cached_and_read_again_when_it_changes(games_env: Path) -> None:
    (games_env / "pixie.toml").write_text(third_game())
    games, skipped = gamesources.load_games()
    assert [game["key"] for game in games] == ["free-realms", "wildhearts", "pixie-duel"]
    assert skipped == []
    cache = games_env.parent / "cache" / "cardbase" / "games.marshal"
    assert cache.is_file()
    cached = cache.read_bytes()
    assert gamesources.load_games() == (games, skipped)
    assert cache.read_bytes() == cached  # read back, not written again
    (games_env / "pixie.toml").write_text(third_game().replace("Pixie Duel", "Pixie Duel II!"))
    games, _ = gamesources.load_games()
    assert games[2]["title"] == "Pixie Duel II!"


def test_a_bad_or_clashing_users_game_is_left_out_and_said(
    games_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (games_env / "a.toml").write_text(third_game().replace('kind = "number"', 'kind = "nmber"', 1))
    (games_env / "b.toml").write_text(third_game("wildhearts"))
    elsewhere = games_env.parent / "elsewhere.toml"
    elsewhere.write_text(third_game("pixie-duel"))
    monkeypatch.setenv(gamesources.GAMES_ENV, str(elsewhere))
    games, skipped = gamesources.load_games()
    assert [game["key"] for game in games] == ["free-realms", "wildhearts", "pixie-duel"]
    assert skipped == [
        f"{games_env / 'a.toml'}:45: fields.cost.kind: unknown field kind 'nmber'; did you mean "
        f"'number'? kinds: number, word, colours, flag; the game is left out (cardbase games "
        f"check {games_env / 'a.toml'} lists every problem)",
        f"{games_env / 'b.toml'}:4: key: 'wildhearts' is already the game of "
        f"{SHIPPED / 'wildhearts.toml'}; rename one; the game is left out",
    ]


def test_every_game_is_in_the_registry() -> None:
    assert list(GAMES)[:3] == ["free-realms", "wildhearts", "cardbase-sample"]
    assert fields.FIELD_BY_NAME["game"].choices == tuple(GAMES)


def test_games_lists_each_game_with_its_cards_and_formats(run: Run) -> None:
    listed = json.loads(ok(run, "games", "-o", "json"))
    assert [(g["key"], g["cards"], [f["key"] for f in g["formats"]]) for g in listed] == [
        ("free-realms", 22, ["free-realms"]),
        ("wildhearts", 0, ["wildhearts-ffa"]),
    ]
    assert listed[0]["file"] == str(SHIPPED / "free-realms.toml")
    table = ok(run, "games")
    assert table.splitlines()[0].split() == ["Game", "Key", "Cards", "Formats", "File"]


def test_games_check_passes_a_good_file_and_tells_each_problem_of_a_bad_one(
    run: Run, tmp_path: Path
) -> None:
    good = tmp_path / "pixie.toml"
    good.write_text(third_game())
    assert ok(run, "games", "check", str(good)) == f"\u2714 valid: {good}\n"
    bad = tmp_path / "bad.toml"
    bad.write_text(third_game().replace('kind = "number"', 'kind = "nmbr"'))
    result = run("games", "check", str(bad))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "fields.cost.kind",
        "fields.attack.kind",
        "fields.defense.kind",
    ]
    assert lines[0].startswith(f"{bad}:45: fields.cost.kind: unknown field kind 'nmbr'")
    clash = tmp_path / "clash.toml"
    clash.write_text(third_game("wildhearts"))
    told = json.loads(run("games", "check", str(clash), "-o", "json").stdout)
    assert told["valid"] is False
    assert told["problems"] == [{
        "file": str(clash), "line": 4, "setting": "key",
        "message": f"'wildhearts' is already the game of {SHIPPED / 'wildhearts.toml'}; "
        "rename one",
    }]  # fmt: skip
    missing = run("games", "check", str(tmp_path / "none.toml"))
    assert (missing.exit_code, missing.stderr) == (
        2, f"{tmp_path / 'none.toml'}: cannot read it (No such file or directory)\n"
    )  # fmt: skip


def test_a_users_game_cannot_go_beyond_the_card_tables_checks(run: Run, tmp_path: Path) -> None:
    mythic = tmp_path / "mythic.toml"
    mythic.write_text(third_game().replace('R = "Rare"', 'M = "Mythic"').replace("CUR", "CUM"))
    told = json.loads(run("games", "check", str(mythic), "-o", "json").stdout)["problems"]
    assert told == [{
        "file": str(mythic), "line": 14, "setting": "rarities.M",
        "message": "the card table takes the rarity letters CUREPS; a letter of a game's own "
        "is not possible yet: use one of those, with this game's name for it",
    }]  # fmt: skip


def with_field(text: str, field: str) -> str:
    """A game file's text with one more field before its cost."""
    return text.replace("[fields.cost]", f"{field}\n\n[fields.cost]", 1)


def test_a_users_field_of_a_new_name_may_not_clash_with_another_games(games_env: Path) -> None:
    """A field of a new name is one term for every game: another game's field of that name
    is of its kind, and no game's alias for another field takes it; the game that would
    clash is left out, told at the field's line."""
    dust = '[fields.dust]\nkind = "number"\naliases = ["pd"]'
    (games_env / "a.toml").write_text(with_field(third_game("moth-duel"), dust))
    word = '[fields.dust]\nkind = "word"\nwords = ["Gold"]'
    bee = third_game("bee-duel").replace('prefix = "px"', 'prefix = "bd"')
    (games_env / "b.toml").write_text(with_field(bee, word))
    power = third_game("owl-duel").replace('prefix = "px"', 'prefix = "od"')
    (games_env / "c.toml").write_text(with_field(power, '[fields.power]\nkind = "number"'))
    same = third_game("elf-duel").replace('prefix = "px"', 'prefix = "ed"')
    (games_env / "d.toml").write_text(with_field(same, dust))
    games, skipped = gamesources.load_games()
    assert [game["key"] for game in games] == ["free-realms", "wildhearts", "moth-duel",
                                               "elf-duel"]  # fmt: skip
    assert games[2]["fields"]["dust"]["in_card_value"] is True
    assert games[0]["fields"]["cost"]["in_card_value"] is False
    assert skipped == [
        f"{games_env / 'b.toml'}:45: fields.dust.kind: dust is a number field of "
        f'{games_env / "a.toml"}; kind = "number", or name the field otherwise; the game is '
        "left out",
        f"{games_env / 'c.toml'}:44: fields.power: 'power' is already "
        f"{SHIPPED / 'free-realms.toml'}'s term for attack; name it otherwise; the game is "
        "left out",
    ]


def test_a_new_fields_name_takes_no_option_of_the_commands_that_search() -> None:
    """A field of a new name is a plain option and a parameter of every command that
    filters: no such command's own option, nor its parameter, may be one."""
    import typer.main

    from cardbase.cli import app
    from cardbase.gamefile import RESERVED_NAMES

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    filters = {field.name for field in fields.OPTION_FIELDS} | set(fields.FLAGS)
    for name in ("search", "collection", "missing"):
        for param in commands[name].params:
            if param.name in filters:
                continue
            words = {param.name, *(o.lstrip("-") for o in (*param.opts, *param.secondary_opts))}
            assert words <= COMMON_TERMS | RESERVED_NAMES | {"no-headers"}, (name, words)
