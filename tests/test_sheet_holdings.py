"""Sheets with copies' attributes: condition, language, location, tags and note columns in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.helpers import Run

# (code, finish, condition, language, location, tags) -> (copies, note)
Held = dict[tuple[str, str, str, str, str, str], tuple[int, str]]


def holdings(db_path: Path, collector: str = "me") -> Held:
    """Every holding of one collector, straight from the table."""
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "SELECT c.series || ' ' || c.rarity || ' ' || c.number, h.finish, h.condition, "
            "h.language, h.location, h.tags, h.copies, h.note FROM holding AS h "
            "JOIN card AS c ON c.id = h.card_id "
            "JOIN collector AS k ON k.id = h.collector_id WHERE k.name = ?",
            (collector,),
        ).fetchall()
    return {tuple(row[:6]): (row[6], row[7]) for row in rows}  # type: ignore[misc]


def add_collector(db_path: Path, name: str) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO collector (name, name_key, is_default, created_at) "
            "VALUES (?, ?, 0, 'now')",
            (name, name.lower()),
        )


def sheet(tmp_path: Path, text: str, name: str = "cards.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_attribute_columns_are_read(run: Run, tmp_path: Path) -> None:
    path = sheet(
        tmp_path,
        "Name,Qty,Foil,Cond,Lang,Binder,Tags,Notes\n"
        'Chugawug Elder,2,1,Near Mint,French,binder  1,"trade, Signed",from Bob\n'
        "Chugawug Elder,1,,lp,fr,,,\n"
        "Old Mossbeard,1,,,,,,\n",
    )
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert holdings(run.db_path) == {
        ("1 U 15", "nonfoil", "NM", "fr", "binder 1", "Signed,trade"): (2, "from Bob"),
        ("1 U 15", "foil", "NM", "fr", "binder 1", "Signed,trade"): (1, "from Bob"),
        ("1 U 15", "nonfoil", "LP", "fr", "", ""): (1, ""),
        ("1 E 162", "nonfoil", "NM", "en", "", ""): (1, ""),
    }
    assert run("undo").exit_code == 0
    assert holdings(run.db_path) == {}


@pytest.mark.parametrize("header", ["Location", "Folder", "Binder", "Storage"])
def test_location_synonyms(run: Run, tmp_path: Path, header: str) -> None:
    path = sheet(tmp_path, f"Code,Qty,{header}\n1 C 1,2,Deck box\n")
    assert run("import", str(path)).exit_code == 0
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "Deck box", ""): (2, "")}


def test_a_sheet_without_attributes_gets_the_configured_defaults(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('condition = "LP"\nlanguage = "de"\n')
    monkeypatch.setenv("CARDBASE_CONFIG", str(config))
    path = sheet(tmp_path, "Name,Qty,Condition\nPixie Dewdancer,2,\nOld Mossbeard,1,MP\n")
    assert run("import", str(path)).exit_code == 0
    assert holdings(run.db_path) == {
        ("1 C 1", "nonfoil", "LP", "de", "", ""): (2, ""),
        ("1 E 162", "nonfoil", "MP", "de", "", ""): (1, ""),
    }


def test_bad_values_are_row_problems_naming_the_column(run: Run, tmp_path: Path, checksum) -> None:
    path = sheet(
        tmp_path,
        "Name,Qty,Condition,Language,Location\n"
        "Pixie Dewdancer,1,Near Mint,en,\n"
        "Chugawug Elder,1,Mint-ish,en,\n"
        "Old Mossbeard,1,NM,Klingon,\n"
        f"Undead Drummer,1,NM,en,{'x' * 101}\n",
    )
    before = checksum(run.db_path)
    result = run("import", str(path))
    assert result.exit_code == 2
    err = result.stderr
    assert "3 rows could not be imported, so nothing was" in err
    assert (
        "cards.csv, row 3: Condition column: unknown condition 'Mint-ish': use one of M, NM" in err
    )
    assert "cards.csv, row 4: Language column: unknown language 'Klingon'" in err
    assert "cards.csv, row 5: Location column: location 'xxx" in err
    assert "Traceback" not in result.output
    assert checksum(run.db_path) == before
    skipped = run("import", str(path), "--skip-bad")
    assert skipped.exit_code == 0
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "", ""): (1, "")}


@pytest.mark.parametrize(
    ("word", "tag"),
    [("Etched", "etched"), ("foil etched", "etched"), ("Rainbow Foil", "rainbow foil")],
)
def test_special_foils_are_foil_with_the_word_as_a_tag(
    run: Run, tmp_path: Path, word: str, tag: str
) -> None:
    path = sheet(tmp_path, f"Count,Name,Printing,Tags\n2,Chugawug Elder,{word},trade\n")
    assert run("import", str(path)).exit_code == 0
    tags = ",".join(sorted(["trade", tag]))
    assert holdings(run.db_path) == {("1 U 15", "foil", "NM", "en", "", tags): (2, "")}


def test_special_foils_count_as_foil_in_a_deck_sheet(run: Run, tmp_path: Path) -> None:
    """Readers that want only cards and counts (decks, trade lists) take the foil too."""
    from cardbase.sheets.rows import read_collection

    path = sheet(tmp_path, "Count,Name,Finish\n2,Chugawug Elder,etched\n1,Old Mossbeard,\n")
    rows = read_collection(path).rows
    assert [(row.name, row.nonfoil, row.foil, row.selector) for row in rows] == [
        ("Chugawug Elder", 0, 2, None),
        ("Old Mossbeard", 1, 0, None),
    ]


def test_set_mode_sets_exactly_the_listed_copies(run: Run, tmp_path: Path) -> None:
    run("add", "1 U 15 x3", "--condition", "lp")
    run("add", "1 U 15 x2")
    path = sheet(tmp_path, "Code,Qty,Condition\n1 U 15,5,LP\n")
    result = run("import", str(path), "--mode", "set")
    assert result.exit_code == 0, result.output
    assert holdings(run.db_path) == {
        ("1 U 15", "nonfoil", "LP", "en", "", ""): (5, ""),
        ("1 U 15", "nonfoil", "NM", "en", "", ""): (2, ""),
    }


def test_notes_blank_adds_keep_and_replace_clears(run: Run, tmp_path: Path) -> None:
    run("add", "1 C 1 x1", "--note", "first copy")
    add = sheet(tmp_path, "Code,Qty,Note\n1 C 1,1,\n")
    assert run("import", str(add)).exit_code == 0
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "", ""): (2, "first copy")}
    assert run("import", str(add), "--mode", "replace").exit_code == 0
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "", ""): (1, "")}
    assert run("undo").exit_code == 0
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "", ""): (2, "first copy")}


def test_import_into_another_collector(run: Run, tmp_path: Path) -> None:
    add_collector(run.db_path, "Bob")
    run("add", "1 C 1")
    path = sheet(tmp_path, "Code,Qty,Condition,Location\n1 U 15,2,HP,Box\n")
    result = run("import", str(path), "--collector", "bob", "--mode", "replace", "-o", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] == 1
    assert holdings(run.db_path, "Bob") == {("1 U 15", "nonfoil", "HP", "en", "Box", ""): (2, "")}
    assert holdings(run.db_path) == {("1 C 1", "nonfoil", "NM", "en", "", ""): (1, "")}
    unknown = run("import", str(path), "--collector", "Bobb")
    assert unknown.exit_code == 2
    assert "no collector named 'Bobb'" in unknown.stderr


def test_two_condition_columns_are_refused(run: Run, tmp_path: Path) -> None:
    path = sheet(tmp_path, "Name,Qty,Condition,Cond\nPixie Dewdancer,1,NM,LP\n")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "columns 'Condition' and 'Cond' both look like the condition column" in result.stderr


@pytest.mark.parametrize("mode", ["set", "replace"])
def test_rows_for_the_same_copies_count_together_whatever_their_spelling(
    run: Run, tmp_path: Path, mode: str
) -> None:
    path = sheet(
        tmp_path,
        "Code,Qty,Location,Tags,Note\n"
        '1 C 1,2,binder 1,"trade, signed",from Bo\n'
        '1 C 1,1,Binder 1,"Signed,TRADE",from Al\n'
        "1 U 15,2,,,first\n"
        "1 U 15,1,,,second\n",
    )
    expected = {
        ("1 C 1", "nonfoil", "NM", "en", "binder 1", "signed,trade"): (3, "from Al"),
        ("1 U 15", "nonfoil", "NM", "en", "", ""): (3, "second"),
    }
    for _ in range(2):  # and importing it again changes nothing
        result = run("import", str(path), "--mode", mode, "--yes")
        assert result.exit_code == 0, result.output
        assert holdings(run.db_path) == expected
