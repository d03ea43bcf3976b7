"""Workbooks checked the way a person checks them: printed. LibreOffice turns each into a PDF
(tools/print_preview.py) and the pages' sizes and text are asserted: how many pages, which
way round, the header row on every page, labels whole, a registration line that reads as
quantity, code, name, and the cost chart's legend and axis.

Slow (LibreOffice takes seconds to start), and they need soffice and poppler-utils, which
.ci/run installs: CI runs them; a machine without the tools skips them, saying why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import pytest

from cardbase.catalog.update import import_catalogue
from cardbase.library import Library
from tests.helpers import DATA, MINI_CATALOGUE, ROOT, Run, new_database
from tests.test_decks import BASE

_spec = importlib.util.spec_from_file_location("print_preview", ROOT / "tools/print_preview.py")
assert _spec and _spec.loader
preview_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(preview_tool)

_missing = preview_tool.missing_tools()
if _missing and os.environ.get("CI"):
    raise RuntimeError(f"CI must have {', '.join(_missing)}: .ci/run installs them")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        bool(_missing),
        reason=f"needs {', '.join(_missing)} (apt-get install libreoffice-calc-nogui "
        "poppler-utils); CI installs them",
    ),
]


def printed(path: Path, tmp_path: Path) -> list:
    return preview_tool.preview(path, tmp_path)


@pytest.fixture
def owner(tmp_path: Path) -> Run:
    """The bundled catalogue (254 cards), every card owned: an export of many pages."""
    path = tmp_path / "all.db"
    new_database(path)
    run = Run(path)
    cards = json.loads(run("search", "", "--limit", "1000", "-o", "json").stdout)
    items = "\n".join(f"1x{card['code']}" for card in cards)
    assert run("add", "-", input=items).exit_code == 0
    return run


def test_collection_export_prints_landscape_fitted_with_headers(owner: Run, tmp_path: Path) -> None:
    path = tmp_path / "collection.xlsx"
    assert owner("export", str(path)).exit_code == 0
    pages = printed(path, tmp_path)
    cards, totals = pages[:-1], pages[-1]
    # 254 rows on landscape pages the width of the table: no bands of columns (it was 7
    # portrait pages, the columns in three bands, the header on the first only).
    assert 2 <= len(cards) <= 6
    for page in cards:
        assert page.landscape
        header = next(line for line in page.text.splitlines() if line.strip())
        assert re.match(r"\s*Code\s+Series\s+Rarity\s+Number\s+Name\b", header), header
        assert "Note" in header  # the last column, on the same page as the first
    assert "Copies owned" in totals.text and "Distinct cards owned" in totals.text


@pytest.fixture
def decks(tmp_path: Path) -> Run:
    path = tmp_path / "decks.db"
    new_database(path, MINI_CATALOGUE)
    import_catalogue(Library(path), DATA / "wildhearts_cards.csv")
    run = Run(path)
    deck = tmp_path / "bog.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    assert run("deck", "save", str(deck), "--name", "Bog").exit_code == 0
    deck.write_text(BASE)
    assert run("deck", "save", str(deck), "--name", "Short").exit_code == 0
    return run


def test_registration_sheet_reads_quantity_code_name(decks: Run, tmp_path: Path) -> None:
    path = tmp_path / "reg.xlsx"
    assert decks("deck", "sheet", "Bog", str(path), "--player", "Ada").exit_code == 0
    [page] = printed(path, tmp_path)
    assert not page.landscape
    lines = page.text.splitlines()
    # (pdftotext lays "1 C 1" out as "1C1" in a narrow run of text)
    assert any(re.fullmatch(r"\s*3\s{2,}1 ?C ?1\s{2,}Pixie Dewdancer\s*", line) for line in lines)
    assert any(re.fullmatch(r"\s*40\s{2,}Total cards\s*", line) for line in lines)
    assert not any(re.search(r"\d1 [CURSEP] \d", line) for line in lines)  # "31 C 17"


def test_an_illegal_decks_sheet_is_marked_when_forced(decks: Run, tmp_path: Path) -> None:
    path = tmp_path / "short.xlsx"
    refused = decks("deck", "sheet", "Short", str(path))
    assert refused.exit_code == 1
    assert "too-few-cards" in refused.stderr and not path.exists()
    assert decks("deck", "sheet", "Short", str(path), "--force").exit_code == 0
    [page] = printed(path, tmp_path)
    assert "NOT VALID" in page.text
    assert "too-few-cards: 39 cards in the deck" in page.text


def test_deck_workbook_chart_legend_and_axis(decks: Run, tmp_path: Path) -> None:
    path = tmp_path / "bog.xlsx"
    assert decks("deck", "export", "Bog", str(path)).exit_code == 0
    deck, stats = printed(path, tmp_path)
    assert re.search(r"Section\s+Qty\s+Code\s+Name", deck.text)
    assert "Creatures by cost" in stats.text
    assert "Column B" not in stats.text  # the legend names the series by its header
    assert stats.text.count("Creatures") >= 3  # title, legend, axis (and the table's header)
    # The categories are the costs, nothing before them (no empty "Cost" bar).
    assert any(
        re.search(r"Creatures\s+1\s+2\s+3\s+4\s+5$", line) for line in stats.text.splitlines()
    )


def test_desk_report_repeats_its_header(decks: Run, tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    for n in range(80):  # more decks than one page holds
        text = f"Player: Player {n:02}\n" + BASE + ("\n1 Ninja Blade Adept\n" if n % 2 else "")
        (folder / f"{n:02}.txt").write_text(text)
    report = tmp_path / "desk.xlsx"
    assert decks("deck", "check", str(folder), "--report", str(report)).exit_code == 1
    pages = printed(report, tmp_path)
    summary = [page for page in pages if "Verdict" in page.text]
    assert len(summary) >= 2
    for page in summary:
        first = next(line for line in page.text.splitlines() if line.strip())
        assert re.match(r"\s*Player\s+File\s+Format\s+Cards\s+Verdict\s+Problems", first)
    assert sum("39 cards in the deck" in page.text for page in pages) == 40  # a sheet each
