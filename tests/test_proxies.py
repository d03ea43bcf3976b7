"""Proxy sheets (`deck proxies`) checked as a printer sees them: pages counted and measured,
fonts embedded, the text on the page, and the pages rendered to pixels to find the cut marks
and card edges where 63 x 88 mm puts them.

The PDF is read back with poppler (pdfinfo, pdffonts, pdftotext, pdftoppm), which .ci/run
installs; a machine without it skips those tests, saying so, unless CARDBASE_REQUIRE_POPPLER
is set (CI sets it), which makes it a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.db.tables import CARD_TABLE
from cardbase.decks.proxylayout import CARD_MM, CUT_GAP_MM, CUT_MARK_MM, GRID, PAPERS
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, Run, assert_one_line, new_database
from tests.test_decks import BASE

POPPLER = ("pdfinfo", "pdffonts", "pdftotext", "pdftoppm")
DPI = 150
PX_PER_MM = DPI / 25.4
TOLERANCE_PX = 1.5
DECK_40 = BASE + "\n1 Ninja Blade Adept\n"  # 40 cards, 14 names


@pytest.fixture
def poppler() -> None:
    missing = [tool for tool in POPPLER if shutil.which(tool) is None]
    if not missing:
        return
    why = f"needs {', '.join(missing)} (apt-get install poppler-utils); CI installs it"
    if os.environ.get("CARDBASE_REQUIRE_POPPLER"):
        pytest.fail(f"CARDBASE_REQUIRE_POPPLER is set but this machine {why}")
    pytest.skip(why)


@pytest.fixture
def saved(run: Run, tmp_path: Path) -> Run:
    deck = tmp_path / "bog.txt"
    deck.write_text(DECK_40)
    assert run("deck", "save", str(deck), "--name", "Bog").exit_code == 0
    return run


def tool(*args: str | Path) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


def info(path: Path) -> dict[str, str]:
    lines = (line.split(":", 1) for line in tool("pdfinfo", path).splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, value in lines}


def page_text(path: Path, page: int) -> str:
    return tool("pdftotext", "-layout", "-f", page, "-l", page, path, "-")


def proxies(run: Run, *args: str) -> dict:
    result = run("deck", "proxies", *args, "-o", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("paper", "points"), [("a4", "595.276 x 841.89 pts (A4)"), ("letter", "612 x 792 pts (letter)")]
)
def test_a_40_card_deck_is_five_pages_of_the_paper_asked(
    saved: Run, tmp_path: Path, poppler: None, paper: str, points: str
) -> None:
    out = tmp_path / "bog.pdf"
    sheet = proxies(saved, "Bog", str(out), "--paper", paper)
    assert (sheet["copies"], sheet["pages"], sheet["owned_left_out"]) == (40, 5, 0)
    found = info(out)
    assert found["Pages"] == "5"
    assert found["Page size"] == points
    assert out.stat().st_size < 2_000_000


def test_fonts_are_embedded(saved: Run, tmp_path: Path, poppler: None) -> None:
    out = tmp_path / "bog.pdf"
    proxies(saved, "Bog", str(out))
    rows = tool("pdffonts", out).splitlines()[2:]  # under the header and its rule
    assert rows, "no fonts at all"
    for row in rows:
        columns = row.split()
        assert columns[-5] == "yes", row  # emb


def test_page_one_names_its_cards_and_says_proxy(saved: Run, tmp_path: Path, poppler: None) -> None:
    out = tmp_path / "bog.pdf"
    proxies(saved, "Bog", str(out))
    first = page_text(out, 1)
    assert first.count("PROXY") == 9
    for name in ("Pixie Dewdancer", "Chugawug Elder", "Mistfen Bog"):  # 3 copies each
        assert first.count(name) == 3, name
    assert "Robgoblin Scrapper" not in first  # the fifth name: page 2
    assert "[Y]: Stun my foe." in first  # game text, as the catalogue has it
    assert "ATK 2" in first and "DEF 2" in first
    assert re.search(r"1 ?C ?1\b", first)  # the collector code
    last = page_text(out, 5)
    assert last.count("PROXY") == 4  # 40 = 4 x 9 + 4
    assert "Ninja Blade Adept" in last


def gray_page(path: Path, tmp_path: Path) -> tuple[int, int, bytes]:
    """Page 1 rendered in shades of grey: width, height and one byte a pixel."""
    tool("pdftoppm", "-gray", "-r", DPI, "-f", 1, "-l", 1, "-singlefile", path, tmp_path / "page")
    data = (tmp_path / "page.pgm").read_bytes()
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert header, data[:20]
    width, height = int(header.group(1)), int(header.group(2))
    return width, height, data[header.end() :]


def dark_runs(values: list[int], threshold: int = 160) -> list[float]:
    """The middle of each run of dark pixels along a line, in pixels."""
    runs, start = [], None
    for index, value in enumerate([*values, 255]):
        if value < threshold and start is None:
            start = index
        elif value >= threshold and start is not None:
            runs.append((start + index - 1) / 2)
            start = None
    return runs


@pytest.mark.parametrize("paper", list(PAPERS))
def test_cut_marks_and_card_edges_land_at_true_size(
    saved: Run, tmp_path: Path, poppler: None, paper: str
) -> None:
    out = tmp_path / "bog.pdf"
    proxies(saved, "Bog", str(out), "--paper", paper)
    width, height, pixels = gray_page(out, tmp_path)
    paper_w, paper_h = PAPERS[paper]
    assert abs(width - paper_w * PX_PER_MM) <= 1 and abs(height - paper_h * PX_PER_MM) <= 1
    # Worked out here from the sizes alone: the grid of 3 x 3 cards centred on the page.
    left_mm = (paper_w - 3 * 63) / 2
    top_mm = (paper_h - 3 * 88) / 2  # from the page's top edge
    assert (GRID, CARD_MM) == ((3, 3), (63.0, 88.0))

    def row(y_mm: float) -> list[int]:
        y = round(y_mm * PX_PER_MM)
        return list(pixels[y * width : (y + 1) * width])

    def column(x_mm: float) -> list[int]:
        x = round(x_mm * PX_PER_MM)
        return [pixels[y * width + x] for y in range(height)]

    # Vertical cut marks in the top margin, one on each card edge and nothing else.
    margin_row = row(top_mm - CUT_GAP_MM - CUT_MARK_MM / 2)
    expected = [(left_mm + k * 63) * PX_PER_MM for k in range(4)]
    found = dark_runs(margin_row)
    assert len(found) == 4, found
    for got, want in zip(found, expected, strict=True):
        assert abs(got - want) <= TOLERANCE_PX, (got, want)
    # Horizontal cut marks in the left margin.
    margin_column = column(left_mm - CUT_GAP_MM - CUT_MARK_MM / 2)
    expected = [(top_mm + k * 88) * PX_PER_MM for k in range(4)]
    found = dark_runs(margin_column)
    assert len(found) == 4, found
    for got, want in zip(found, expected, strict=True):
        assert abs(got - want) <= TOLERANCE_PX, (got, want)
    # The cards' edges: across the middle of the top row, the first thing drawn from the left
    # is the first card's edge, and the edges between cards are 63 mm apart.
    across = row(top_mm + 44)
    edges = [x for x in dark_runs(across, 200) if x < (left_mm + 189) * PX_PER_MM + 3]
    for k in range(4):
        want = (left_mm + k * 63) * PX_PER_MM
        assert any(abs(x - want) <= TOLERANCE_PX for x in edges), (k, want, edges[:8])
    assert abs(edges[0] - left_mm * PX_PER_MM) <= TOLERANCE_PX
    down = column(left_mm + 31.5 - 20)  # a column inside the first card, clear of its text
    edges = dark_runs(down, 200)
    assert abs(edges[0] - top_mm * PX_PER_MM) <= TOLERANCE_PX, edges[:3]


def test_missing_leaves_owned_copies_out(saved: Run, tmp_path: Path, poppler: None) -> None:
    assert saved("add", "1 R 20 x3", "1 C 1").exit_code == 0  # Mistfen Bog x3, a Pixie
    out = tmp_path / "missing.pdf"
    result = saved("deck", "proxies", "Bog", str(out), "--missing")
    assert result.exit_code == 0, result.output
    assert "36 proxies of 'Bog' on 4 pages (a4); 4 copies left out, owned" in result.stdout
    text = "".join(page_text(out, page) for page in range(1, 5))
    assert "Mistfen Bog" not in text
    assert text.count("Pixie Dewdancer") == 2
    assert info(out)["Pages"] == "4"


def test_missing_counts_by_name_across_printings(db_path: Path, tmp_path: Path) -> None:
    deck = tmp_path / "cook.txt"
    deck.write_text("3 1 C 14\n")  # Chugawug Cook, printed again as 2 C 101
    library = Library(db_path)
    library.add(["2 C 101 x2"])
    sheet = library.proxy_sheet(deck, tmp_path / "cook.pdf", missing=True)
    assert (sheet.copies, sheet.owned_left_out, sheet.pages) == (1, 2, 1)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return new_database(tmp_path_factory.mktemp("proxies") / "mini.db", MINI_CATALOGUE)


# Printings of two names (Chugawug Cook twice), and a third name.
PRINTINGS = ["1 C 14", "2 C 101", "1 C 1"]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    owned=st.lists(st.integers(0, 4), min_size=3, max_size=3),
    lines=st.lists(
        st.tuples(st.sampled_from(PRINTINGS), st.integers(1, 3)), min_size=1, max_size=4
    ),
)
def test_missing_is_what_each_name_lacks(
    shared: Path, owned: list[int], lines: list[tuple[str, int]]
) -> None:
    from cardbase.decks.check import place
    from cardbase.decks.lists import parse_deck_text
    from cardbase.decks.proxies import missing_copies

    library = Library(shared)
    library.set_counts([f"{code} x{n}" for code, n in zip(PRINTINGS, owned, strict=True)])
    text = "".join(f"{n} {code}\n" for code, n in lines)
    with library.reading() as conn:
        placed, problems = place(conn, parse_deck_text(text, "deck.txt"))
        assert not problems
        cards, left_out = missing_copies(conn, placed)
    have = {"cook": owned[0] + owned[1], "pixie": owned[2]}
    need = {"cook": 0, "pixie": 0}
    for code, n in lines:
        need["pixie" if code == "1 C 1" else "cook"] += n
    printed = {"cook": 0, "pixie": 0}
    for card in cards:
        printed["pixie" if card.name == "Pixie Dewdancer" else "cook"] += 1
    assert printed == {key: max(0, need[key] - have[key]) for key in need}
    assert left_out == sum(min(need[key], have[key]) for key in need)


def test_missing_respects_the_collector(saved: Run, tmp_path: Path) -> None:
    assert saved("add", "1 R 20 x3").exit_code == 0
    assert saved("collectors", "add", "Alice").exit_code == 0
    deck = tmp_path / "bog.txt"  # Alice has no saved deck Bog: a file, then
    mine = proxies(saved, str(deck), str(tmp_path / "me.pdf"), "--missing")
    hers = proxies(
        saved, str(deck), str(tmp_path / "alice.pdf"), "--missing", "--collector", "Alice"
    )
    assert (mine["copies"], mine["owned_left_out"]) == (37, 3)
    assert (hers["copies"], hers["owned_left_out"]) == (40, 0)


def test_cards_without_game_text_are_named(saved: Run, tmp_path: Path) -> None:
    deck = tmp_path / "plain.txt"
    deck.write_text("2 Pixie Dewdancer\n")
    with Library(saved.db_path).writing() as conn:
        conn.execute(f"UPDATE {CARD_TABLE} SET text = '' WHERE name = 'Pixie Dewdancer'")
    result = saved("deck", "proxies", str(deck), str(tmp_path / "plain.pdf"))
    assert result.exit_code == 0, result.output
    assert "1 card printed without game text (Pixie Dewdancer (1 C 1))" in result.stderr
    assert "cardbase catalog import-client DIR" in result.stderr


def test_text_too_long_for_a_card_is_said(saved: Run, tmp_path: Path) -> None:
    deck = tmp_path / "long.txt"
    deck.write_text("1 Pixie Dewdancer\n1 Mistfen Bog\n")
    with Library(saved.db_path).writing() as conn:
        long = "Stun my foe. " * 200
        conn.execute(f"UPDATE {CARD_TABLE} SET text = ? WHERE name = 'Pixie Dewdancer'", (long,))
    result = saved("deck", "proxies", str(deck), str(tmp_path / "long.pdf"))
    assert result.exit_code == 0, result.output
    assert "game text too long for the card, cut short on 1 card (Pixie Dewdancer (1 C 1))" in (
        result.stderr
    )
    sheet = proxies(saved, str(deck), str(tmp_path / "again.pdf"))
    assert sheet["text_cut"] == ["Pixie Dewdancer (1 C 1)"] and sheet["without_text"] == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["Nope", "{out}"], "Nope"),
        (["Bog", "{out}", "--paper", "a5"], "unknown paper 'a5'"),
        (["Bog", "{tmp}/deck.xlsx"], "can write .pdf"),
        (["Bog", "{tmp}/no/such/folder/p.pdf"], "does not exist"),
        (["Bog", "/sys/cardbase-proxies.pdf"], "permission denied"),
        (["Bog", "{tmp}/folder.pdf"], "is a folder"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    saved: Run, tmp_path: Path, args: list[str], said: str
) -> None:
    out = tmp_path / "p.pdf"
    (tmp_path / "folder.pdf").mkdir()
    given = [a.format(out=out, tmp=tmp_path) for a in args]
    message = assert_one_line(saved("deck", "proxies", *given))
    assert said in message
    assert not out.exists() and not (tmp_path / "deck.xlsx").exists()
    assert not list(tmp_path.glob(".*partial"))


def test_an_existing_file_is_kept_without_force(saved: Run, tmp_path: Path) -> None:
    out = tmp_path / "p.pdf"
    out.write_bytes(b"mine")
    message = assert_one_line(saved("deck", "proxies", "Bog", str(out)))
    assert "the file exists; add --force" in message
    assert out.read_bytes() == b"mine"
    assert saved("deck", "proxies", "Bog", str(out), "--force").exit_code == 0
    assert out.read_bytes().startswith(b"%PDF-")


def test_nothing_missing_is_said_and_nothing_written(saved: Run, tmp_path: Path) -> None:
    deck = tmp_path / "two.txt"
    deck.write_text("2 Mistfen Bog\n")
    assert saved("add", "1 R 20 x2").exit_code == 0
    out = tmp_path / "p.pdf"
    message = assert_one_line(saved("deck", "proxies", str(deck), str(out), "--missing"))
    assert "you own every card of" in message and "nothing to print" in message
    assert not out.exists()


def test_without_reportlab_it_says_how_to_install(
    saved: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "reportlab" else real(name, *a),
    )
    message = assert_one_line(saved("deck", "proxies", "Bog", str(tmp_path / "p.pdf")))
    assert "pip install 'cardbase[pdf]'" in message
    assert not (tmp_path / "p.pdf").exists()
