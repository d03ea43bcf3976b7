"""Copies with attributes, several collectors in one database, move/tag/untag, the config
file: through the CLI as a user types it, and the library where the CLI is only a wrapper."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.collection import attributes as attrs
from cardbase.errors import CardbaseError
from tests.helpers import Run


def holdings(db_path: Path, collector: str = "me") -> list[tuple]:
    """Every holding of a collector, as plain rows sorted: what the tests compare."""
    with sqlite3.connect(db_path) as conn:
        return sorted(
            conn.execute(
                "SELECT c.series || ' ' || c.rarity || ' ' || c.number, h.finish, h.condition, "
                "h.language, h.location, h.tags, h.copies, h.note FROM holding AS h "
                "JOIN card AS c ON c.id = h.card_id JOIN collector AS p ON p.id = h.collector_id "
                "WHERE p.name = ?",
                (collector,),
            )
        )


def totals(db_path: Path) -> list[tuple]:
    """The per-card totals, and the same recounted from the holdings: always equal."""
    with sqlite3.connect(db_path) as conn:
        kept = conn.execute(
            "SELECT collector_id, card_id, nonfoil, foil FROM ownership ORDER BY 1, 2"
        ).fetchall()
        recounted = conn.execute(
            "SELECT collector_id, card_id, sum(copies * (finish = 'nonfoil')), "
            "sum(copies * (finish = 'foil')) FROM holding GROUP BY 1, 2 ORDER BY 1, 2"
        ).fetchall()
    assert kept == recounted
    return kept


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("nm", "NM"), ("Near Mint", "NM"), ("NearMint", "NM"), ("NM/M", "NM"), ("Mint", "M"),
     ("Excellent", "LP"), ("EX", "LP"), ("Lightly Played", "LP"), ("Light Played", "LP"),
     ("GD", "MP"), ("Good", "MP"), ("Moderately Played", "MP"), ("PL", "HP"),
     ("Played", "HP"), ("Heavily Played", "HP"), ("Poor", "DMG"), ("damaged", "DMG")],
)  # fmt: skip
def test_condition_words_of_the_apps(typed: str, stored: str) -> None:
    assert attrs.parse_condition(typed) == stored


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("fr", "fr"), ("FR", "fr"), ("French", "fr"), ("german", "de"), ("Japanese", "ja"),
     ("Chinese Simplified", "zh-Hans"), ("zh-hant", "zh-Hant"), ("pt_br", "pt-BR"),
     ("Español", "es")],
)  # fmt: skip
def test_language_codes_and_names(typed: str, stored: str) -> None:
    assert attrs.parse_language(typed) == stored


@pytest.mark.parametrize(
    ("parse", "typed", "hint"),
    [(attrs.parse_condition, "Near Mnt", "did you mean NM"),
     (attrs.parse_language, "Frnch", r"did you mean French \(fr\)"),
     (attrs.parse_language, "xx", "ISO 639-1")],
)  # fmt: skip
def test_unknown_attribute_values_name_what_is_accepted(parse, typed: str, hint: str) -> None:
    with pytest.raises(CardbaseError, match=hint):
        parse(typed)


@given(st.lists(st.text(alphabet="abcXYZ :-", max_size=8), max_size=6))
def test_tags_have_one_spelling_whatever_the_order(values: list[str]) -> None:
    stored = attrs.parse_tags(values)
    assert attrs.parse_tags(reversed(values)).casefold() == stored.casefold()
    assert attrs.parse_tags([stored]) == stored
    for tag in attrs.tag_list(stored):
        assert attrs.has_tags(stored, tag.upper())


def test_add_with_attributes_by_option_and_in_the_item(run: Run, db_path: Path) -> None:
    result = run("add", "1 C 14 x2 foil lp fr", "--location", "Binder 1", "--tag", "trade")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Chugawug Cook (1 C 14) foil LP fr in Binder 1 #trade: 0 -> 2\n"
    run("add", "1 C 14", "--condition", "Heavily Played", "--language", "German", "--note", "x")
    run("add", "1 C 14", "--location", "binder 1")  # the location's first spelling is kept
    assert holdings(db_path) == [
        ("1 C 14", "foil", "LP", "fr", "Binder 1", "trade", 2, ""),
        ("1 C 14", "nonfoil", "HP", "de", "", "", 1, "x"),
        ("1 C 14", "nonfoil", "NM", "en", "Binder 1", "", 1, ""),
    ]
    assert totals(db_path) == [(1, 2, 2, 2)]


def test_remove_says_exactly_what_is_there(run: Run, db_path: Path, checksum) -> None:
    run("add", "1 C 14 x2 foil", "1 C 14 foil lp")
    before = checksum(db_path)
    short = run("remove", "1 C 14 x2 foil", "--condition", "lp")
    assert short.exit_code == 2
    assert "you own 2 foil, 1 foil LP" in short.stderr
    unsure = run("remove", "1 C 14 foil")
    assert unsure.exit_code == 2
    assert "your copies are 2 foil, 1 foil LP. Say which" in unsure.stderr
    other = run("remove", "1 C 14")
    assert "you own 0 non-foil (2 foil, 1 foil LP)" in other.stderr
    assert checksum(db_path) == before
    assert run("remove", "1 C 14 x3 foil").exit_code == 0  # every copy: nothing to choose
    assert holdings(db_path) == []


def test_undo_restores_holdings_and_notes_exactly(run: Run, db_path: Path) -> None:
    run("add", "1 C 14 x3 mp", "--location", "Box", "--tag", "signed", "--note", "first")
    before = holdings(db_path)
    run("add", "1 C 14", "--condition", "mp", "--location", "box", "--tag", "signed",
        "--note", "second")  # fmt: skip
    assert holdings(db_path)[0][-2:] == (4, "second")
    run("remove", "1 C 14 x4")
    assert holdings(db_path) == []
    run("undo")
    assert holdings(db_path)[0][-2:] == (4, "second")
    run("undo")
    assert holdings(db_path) == before
    totals(db_path)


def test_move_tag_and_untag_and_undo_them(run: Run, db_path: Path) -> None:
    run("add", "1 C 14 x3", "1 C 14 foil", "1 U 15 x2")
    moved = run("move", "1 C 14", "--to", "Deck box")
    assert moved.exit_code == 0, moved.output
    assert {row[4] for row in holdings(db_path) if row[0] == "1 C 14"} == {"Deck box"}
    run("tag", "trade", "1 U 15 x1")
    run("tag", "deck: Bog Stew", "1 U 15")  # every copy, both holdings
    assert [(r[5], r[6]) for r in holdings(db_path) if r[0] == "1 U 15"] == [
        ("deck: Bog Stew", 1),
        ("deck: Bog Stew,trade", 1),
    ]
    run("untag", "trade", "1 U 15")
    assert [(r[5], r[6]) for r in holdings(db_path) if r[0] == "1 U 15"] == [("deck: Bog Stew", 2)]
    for _ in range(4):
        assert run("undo").exit_code == 0
    assert holdings(db_path) == [
        ("1 C 14", "foil", "NM", "en", "", "", 1, ""),
        ("1 C 14", "nonfoil", "NM", "en", "", "", 3, ""),
        ("1 U 15", "nonfoil", "NM", "en", "", "", 2, ""),
    ]
    totals(db_path)


def test_move_refuses_what_it_cannot_do(run: Run, db_path: Path, checksum) -> None:
    run("add", "1 C 14 x2", "1 C 14 lp")
    before = checksum(db_path)
    assert "Say which" in run("move", "1 C 14 x1", "--to", "Box").stderr
    assert "cannot move 5 non-foil" in run("move", "1 C 14 x5", "--to", "Box").stderr
    assert "no card named" in run("move", "Nothing Here", "--to", "Box").stderr
    assert checksum(db_path) == before


def test_two_collectors_never_see_each_other(run: Run, db_path: Path) -> None:
    assert run("collectors", "add", "Alice").exit_code == 0
    run("add", "1 C 14 x2")
    run("add", "1 U 15 foil", "--collector", "alice")
    mine = json.loads(run("collection", "-o", "json").stdout)
    hers = json.loads(run("collection", "-o", "json", "--collector", "Alice").stdout)
    assert [(c["code"], c["nonfoil"], c["foil"]) for c in mine] == [("1 C 14", 2, 0)]
    assert [(c["code"], c["nonfoil"], c["foil"]) for c in hers] == [("1 U 15", 0, 1)]
    assert "Chugawug Elder" not in run("search", "is:owned").stdout
    run("undo")  # mine, not hers
    assert holdings(db_path, "Alice") == [("1 U 15", "foil", "NM", "en", "", "", 1, "")]
    assert holdings(db_path) == []
    assert run("undo", "--collector", "Alice").exit_code == 0
    assert holdings(db_path, "Alice") == []


def test_collector_from_the_environment_and_the_config(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("collectors", "add", "Bob")
    monkeypatch.setenv("CARDBASE_COLLECTOR", "bob")
    run("add", "1 C 14")
    monkeypatch.delenv("CARDBASE_COLLECTOR")
    config = tmp_path / "config.toml"
    monkeypatch.setenv("CARDBASE_CONFIG", str(config))
    assert run("config", "set", "collector", "Bob").exit_code == 0
    assert run("config", "set", "condition", "excellent").exit_code == 0
    run("add", "1 U 15")
    assert holdings(run.db_path, "Bob") == [
        ("1 C 14", "nonfoil", "NM", "en", "", "", 1, ""),
        ("1 U 15", "nonfoil", "LP", "en", "", "", 1, ""),
    ]
    shown = run("config")
    assert str(config) in shown.stdout and "LP" in shown.stdout
    bad = run("config", "set", "colour", "red")
    assert bad.exit_code == 2 and "did you mean 'collector'" in bad.stderr
    config.write_text('condition = "nearly new"\n')
    broken = run("add", "1 C 14")
    assert broken.exit_code == 2 and "condition: unknown condition" in broken.stderr


def test_unknown_collector_is_one_line_with_a_suggestion(run: Run, db_path: Path, checksum) -> None:
    run("collectors", "add", "Alice")
    before = checksum(db_path)
    result = run("add", "1 C 14", "--collector", "Alise")
    assert result.exit_code == 2
    assert "no collector named 'Alise'" in result.stderr
    assert "did you mean 'Alice'" in result.stderr
    assert checksum(db_path) == before


def test_collectors_add_rename_default_remove(run: Run, db_path: Path) -> None:
    assert run("collectors", "add", "Alice").exit_code == 0
    assert run("collectors", "add", "alice").exit_code == 2  # names are unique, ignoring case
    assert run("collectors", "rename", "me", "Carol").exit_code == 0
    run("add", "1 C 14", "--collector", "Alice")
    listed = json.loads(run("collectors", "-o", "json").stdout)
    assert [(c["name"], c["is_default"], c["copies"]) for c in listed] == [
        ("Carol", True, 0),
        ("Alice", False, 1),
    ]
    assert run("collectors", "remove", "Carol").exit_code == 2  # the default
    refused = run("collectors", "remove", "Alice")
    assert refused.exit_code == 2 and "--force" in refused.stderr
    removed = run("collectors", "remove", "Alice", "--force")
    assert removed.exit_code == 0, removed.output
    backup = Path(removed.stdout.split("kept as ")[1].split(";")[0])
    with sqlite3.connect(backup) as conn:  # everything of hers is in the backup
        assert conn.execute("SELECT count(*) FROM holding").fetchone() == (1,)
    assert holdings(db_path, "Alice") == []
    assert run("collectors", "default", "Carol").exit_code == 0


def test_saved_decks_belong_to_their_collector(run: Run, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n")
    run("collectors", "add", "Alice")
    assert run("deck", "save", str(deck), "--name", "Stew").exit_code == 0
    assert run("deck", "save", str(deck), "--name", "Stew", "--collector", "Alice").exit_code == 0
    assert "Stew" in run("deck", "list", "--collector", "Alice").stdout
    run("deck", "delete", "Stew", "--collector", "Alice")
    assert "Stew" in run("deck", "list").stdout
    assert "No saved decks" in run("deck", "list", "--collector", "Alice").stdout


def test_a_location_or_tag_the_query_language_could_not_name_is_refused(
    run: Run, db_path: Path, checksum
) -> None:
    before = checksum(db_path)
    for option in ("--location", "--tag"):
        result = run("add", "1 C 14", option, 'Box "A"')
        assert result.exit_code == 2
        assert "double quote" in result.stderr
    assert checksum(db_path) == before


def test_move_to_a_location_keeps_its_first_spelling(run: Run, db_path: Path) -> None:
    run("add", "1 C 14 x2", "1 U 15", "--location", "Deck box")
    run("add", "1 C 14")
    moved = run("move", "1 C 14", "--from", "", "--to", "DECK BOX")
    assert moved.exit_code == 0, moved.output
    assert holdings(db_path) == [
        ("1 C 14", "nonfoil", "NM", "en", "Deck box", "", 3, ""),
        ("1 U 15", "nonfoil", "NM", "en", "Deck box", "", 1, ""),
    ]
    assert totals(db_path)


def test_a_tag_keeps_its_first_spelling(run: Run, db_path: Path) -> None:
    run("add", "1 C 14", "--tag", "trade", "--tag", "Signed")
    again = run("add", "1 C 14", "--tag", "TRADE,signed")
    assert again.exit_code == 0, again.output
    assert holdings(db_path) == [("1 C 14", "nonfoil", "NM", "en", "", "Signed,trade", 2, "")]
    assert run("remove", "1 C 14 x2", "--tag", "trade").exit_code == 0
    assert holdings(db_path) == []


def test_tag_takes_a_tags_first_spelling(run: Run, db_path: Path) -> None:
    run("add", "1 C 14", "--tag", "trade")
    run("add", "1 U 15")
    tagged = run("tag", "TRADE", "1 U 15")
    assert tagged.exit_code == 0, tagged.output
    assert [row[5] for row in holdings(db_path)] == ["trade", "trade"]


def test_two_removals_in_one_second_keep_two_backups(run: Run, db_path: Path) -> None:
    for name in ("Alice", "Alice"):
        run("collectors", "add", name)
        run("add", "1 C 14", "--collector", name)
        removed = run("collectors", "remove", name, "--force", "--yes")
        assert removed.exit_code == 0, removed.output
    backups = sorted(db_path.parent.glob("*.before-removing-Alice-*"))
    assert len(backups) == 2


def test_an_unknown_collector_says_where_its_name_came_from(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDBASE_COLLECTOR", "bob")
    from_env = run("search", "chug")
    assert from_env.exit_code == 2
    assert from_env.stderr.startswith("cardbase: $CARDBASE_COLLECTOR: no collector named 'bob'")
    monkeypatch.delenv("CARDBASE_COLLECTOR")
    config = tmp_path / "config.toml"
    config.write_text('collector = "zed"\n')
    monkeypatch.setenv("CARDBASE_CONFIG", str(config))
    from_config = run("search", "chug")
    assert from_config.stderr.startswith(f"cardbase: {config}: collector: no collector named")
    typed = run("search", "chug", "--collector", "al")
    assert typed.stderr.startswith("cardbase: no collector named 'al'")


def test_a_rename_says_the_name_as_it_was_stored(run: Run) -> None:
    assert run("collectors", "add", "alice").exit_code == 0
    assert run("collectors", "rename", "ALICE", "Bob").stdout == "Renamed 'alice' to 'Bob'\n"


def test_the_config_file_names_the_database_after_db_and_the_environment(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    config = tmp_path / "config.toml"
    monkeypatch.setenv("CARDBASE_CONFIG", str(config))
    config.write_text(f'db = "{db_path}"\n')
    monkeypatch.delenv("CARDBASE_DB")
    runner = CliRunner()
    assert runner.invoke(app, ["add", "1 C 14"]).exit_code == 0
    assert holdings(db_path) == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]
    other = tmp_path / "other.db"
    monkeypatch.setenv("CARDBASE_DB", str(other))  # the environment wins over the file
    added = runner.invoke(app, ["add", "1 C 14 x2"])  # a new database, the bundled cards
    assert added.exit_code == 0, added.output
    assert holdings(other) == [("1 C 14", "nonfoil", "NM", "en", "", "", 2, "")]
    assert holdings(db_path) == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]


def test_the_config_never_shows_a_database_password(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDBASE_CONFIG", str(tmp_path / "config.toml"))
    url = "postgresql://ann:s3cret@league-host/cards"
    said = run("config", "set", "db", url)
    assert said.exit_code == 0 and "s3cret" not in said.stdout
    for shown in (run("config").stdout, run("config", "-o", "json").stdout):
        assert "postgresql://ann:***@league-host/cards" in shown and "s3cret" not in shown
