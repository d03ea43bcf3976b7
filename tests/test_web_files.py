"""Uploads on the import page and the Trade Lobby: the same importer and trade-list reader
as the command line, with the same messages, and undo afterwards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.web_helpers import Pages, error_of, flash_of, text_of, upload

SHEET = "Card Name,Qty\nChugawug Elder,2\nChugawug Cok,1\nUndead Drummer,3\n"


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


def test_the_plan_lists_each_problem_with_its_suggestion(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    planned = upload(pages, "/import/plan", "My Collection.csv", SHEET)
    assert planned.status_code == 200
    text = text_of(planned.text)
    (tmp_path / "My Collection.csv").write_text(SHEET)
    cli = run("import", str(tmp_path / "My Collection.csv"), "--dry-run").stderr
    row = next(line for line in cli.splitlines() if "row 3" in line)
    assert row in text  # "My Collection.csv, row 3: no card named 'Chugawug Cok'. Did you mean ..."
    assert "Did you mean Chugawug Cook" in text
    assert "3 rows; 2 cards would be added, 0 changed, 0 removed; 1 row with problems" in text
    assert run("collection", "-o", "csv").stdout.count("\n") == 1  # a plan writes nothing


def test_apply_is_all_or_nothing_unless_told_and_undo_reverts(pages: Pages, run: Run) -> None:
    planned = upload(pages, "/import/plan", "c.csv", SHEET).text
    token = re.search(r'name="token" value="([^"]+)"', planned).group(1)
    refused = pages.post("/import/apply", {"token": token, "mode": "add"})
    assert refused.status_code == 400
    assert "1 row could not be imported, so nothing was" in error_of(refused.text)
    applied = pages.post("/import/apply", {"token": token, "mode": "add", "skip_bad": "1"})
    assert "Imported" in text_of(applied.text) and "2 cards were added" in text_of(applied.text)
    assert "Undead Drummer" in run("collection").stdout
    undone = pages.post("/undo", {"back": "/import"})
    assert flash_of(undone.text).startswith("Undid batch") and "import c.csv" in flash_of(
        undone.text
    )
    assert "Undead Drummer" not in run("collection").stdout


def test_a_refused_apply_shows_the_plan_again_with_the_way_forward(pages: Pages) -> None:
    """Not a page of its own: the plan, the problem rows, the box to tick, in page words."""
    planned = upload(pages, "/import/plan", "c.csv", SHEET).text
    token = re.search(r'name="token" value="([^"]+)"', planned).group(1)
    refused = pages.post("/import/apply", {"token": token, "mode": "add"})
    assert refused.status_code == 400
    said = error_of(refused.text)
    assert "tick 'skip the rows with problems'" in said and "--" not in said
    assert "row 3" in text_of(refused.text) and 'name="skip_bad"' in refused.text
    assert "/tmp" not in refused.text and "--skip-bad" not in refused.text


def test_the_plan_lists_the_columns_read_and_ignored_and_the_sheets_skipped(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    from openpyxl import Workbook

    book = Workbook()
    cards = book.active
    cards.title = "Cards"
    for row in (["Card Name", "Qty", "Price Paid"], ["Chugawug Elder", 2, 3]):
        cards.append(row)
    book.create_sheet("Notes").append(["bought at the league"])
    path = tmp_path / "mine.xlsx"
    book.save(path)
    planned = upload(pages, "/import/plan", "mine.xlsx", path.read_bytes())
    assert planned.status_code == 200
    text = text_of(planned.text)
    cli = run("import", str(path), "--dry-run").stdout.splitlines()
    assert "mine.xlsx, sheet 'Cards': read Card Name (card name), Qty (copies)" in cli
    assert "read <q>Card Name</q> as card name, <q>Qty</q> as copies" in planned.text
    assert "mine.xlsx, sheet 'Cards': ignored Price Paid" in cli
    assert "ignored <q>Price Paid</q>" in planned.text
    assert "skipped mine.xlsx: sheet 'Notes': no header row with a card name or code" in cli
    assert "skipped mine.xlsx: sheet 'Notes': no header row with a card name or code" in text


def test_replace_mode_is_confirmed_before_a_collection_is_replaced(pages: Pages, run: Run) -> None:
    run("add", "1 C 14 x2")
    planned = upload(pages, "/import/plan", "c.csv", SHEET, mode="replace").text
    assert "your collection of 2 cards becomes this sheet" in text_of(planned)
    assert 'name="replace" value="1" required' in planned
    token = re.search(r'name="token" value="([^"]+)"', planned).group(1)
    form = {"token": token, "mode": "replace", "skip_bad": "1"}
    unconfirmed = pages.post("/import/apply", form)
    assert unconfirmed.status_code == 400
    assert "not replaced" in error_of(unconfirmed.text) and "--yes" not in unconfirmed.text
    assert "Chugawug Cook" in run("collection").stdout
    confirmed = pages.post("/import/apply", {**form, "replace": "1"})
    assert confirmed.status_code == 200
    owned = run("collection").stdout
    assert "Chugawug Cook" not in owned and "Undead Drummer" in owned


def test_the_plans_json_twin_is_the_command_lines(pages: Pages, run: Run, tmp_path: Path) -> None:
    import json

    (tmp_path / "c.csv").write_text(SHEET)
    cli = json.loads(
        run("import", str(tmp_path / "c.csv"), "--dry-run", "--skip-bad", "-o", "json").stdout
    )
    twin = pages.post(
        "/import/plan", {}, files={"file": ("c.csv", SHEET.encode(), "text/csv")},
        headers={"Accept": "application/json"},
    ).json()  # fmt: skip
    assert twin == cli


def test_the_plan_and_the_command_line_say_the_same_sentence(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    (tmp_path / "c.csv").write_text(SHEET)
    cli = run("import", str(tmp_path / "c.csv"), "--dry-run", "--skip-bad").stdout.splitlines()[-1]
    said = cli.split(": ", 1)[1]  # after the sheet's name
    assert said in text_of(upload(pages, "/import/plan", "c.csv", SHEET).text)


def test_an_import_that_changes_nothing_offers_no_undo(pages: Pages, run: Run) -> None:
    """Undo there would revert the change before it, which the page never showed."""
    run("add", "1 C 14")
    planned = upload(pages, "/import/plan", "none.csv", "Card Name,Qty\nChugawug Cok,1\n").text
    token = re.search(r'name="token" value="([^"]+)"', planned).group(1)
    applied = pages.post("/import/apply", {"token": token, "mode": "add", "skip_bad": "1"})
    assert "0 cards were added, 0 changed, 0 removed; 1 row skipped" in text_of(applied.text)
    assert "Undo this import" not in applied.text
    assert "Chugawug Cook" in run("collection").stdout


def test_uploads_are_named_by_the_server_and_checked(pages: Pages) -> None:
    wrong = upload(pages, "/import/plan", "run.sh", "echo hi")
    assert wrong.status_code == 400 and "is not a spreadsheet cardbase reads" in error_of(
        wrong.text
    )
    sneaky = upload(pages, "/import/plan", "../../outside.csv", SHEET)
    assert sneaky.status_code == 200 and "outside.csv, row 3" in text_of(sneaky.text)
    assert not any(pages.site.uploads.parent.glob("outside.csv"))
    unknown = pages.post("/import/apply", {"token": "../../etc/passwd", "mode": "add"})
    assert unknown.status_code == 400 and "not known here" in error_of(unknown.text)
    empty = upload(pages, "/import/plan", "e.csv", "")
    assert "the file is empty" in error_of(empty.text)
    broken = upload(pages, "/import/plan", "bad.xlsx", b"not a zip file")
    assert broken.status_code == 400 and error_of(broken.text).count("\n") == 0


def test_uploads_past_the_limit_are_refused(pages: Pages, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.web import guard, uploads

    monkeypatch.setattr(uploads, "MAX_UPLOAD", 10)
    over = upload(pages, "/import/plan", "c.csv", SHEET)
    assert over.status_code == 400 and "over 0 MB" in error_of(over.text)
    monkeypatch.setattr(guard, "MAX_BODY", 10)
    huge = upload(pages, "/import/plan", "c.csv", SHEET)
    assert huge.status_code == 413


def test_the_trade_lobby_lists_haves_wants_and_other_collectors(pages: Pages, run: Run) -> None:
    alone = text_of(pages.get("/trades").text)
    assert "me is the only collector in this database" in alone
    run("add", "1 U 42 x5")
    run("collectors", "add", "Bo")
    run("add", "1 C 14 x5", "--collector", "Bo")
    page = text_of(pages.get("/trades", params={"complete_series": "1"}).text)
    assert "Offered: 2 cards" in page  # five Undead Drummers, a playset kept
    assert "Trades I can do with Bo" in page
    with_bo = text_of(pages.get("/trades", params={"with": "bo", "complete_series": "1"}).text)
    cli = run("trade", "match", "--with", "Bo", "--complete-series", "1").stdout
    assert "Bo offers, you want: 1 card" in cli and "They offer, you want: 1 card" in with_bo
    assert (
        "Bo wants, you can spare: 1 card" in cli and "They want, you can spare: 1 card" in with_bo
    )


def test_another_players_list_is_matched_from_an_upload(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    run("add", "1 U 42 x5")
    theirs = "List,Code,Name,Finish,Qty\nOffered,1 C 14,Chugawug Cook,nonfoil,2\nWanted,1 U 42,Undead Drummer,nonfoil,1\n"
    (tmp_path / "theirs.csv").write_text(theirs)
    cli = run("trade", "match", str(tmp_path / "theirs.csv"), "--complete-series", "1")
    page = upload(pages, "/trades/match", "theirs.csv", theirs, complete_series="1")
    text = text_of(page.text)
    assert page.status_code == 200, error_of(page.text)
    assert "Trades I can do with theirs.csv" in text
    for line in ("They offer, you want: 1 card", "They want, you can spare: 1 card"):
        assert line in cli.stdout and line in text


@pytest.mark.parametrize(
    ("field", "option", "value", "said"),
    [
        ("playset", "--playset", "-1", "keep of each name '-1': choose 0 to 9,999"),
        ("playset", "--playset", "99999", "keep of each name '99999': choose 0 to 9,999"),
        ("complete_series", "--complete-series", "0", "the series to complete '0': choose 1 to"),
        ("complete_series", "--complete-series", "5000", "the series to complete '5000'"),
    ],
)
def test_trade_rules_are_read_alike_by_the_page_and_the_command_line(
    pages: Pages, run: Run, field: str, option: str, value: str, said: str
) -> None:
    """Where the page once made a bad number the default without a word."""
    page = pages.get("/trades", params={field: value})
    assert page.status_code == 400 and said in error_of(page.text)
    cli = run("trade", "list", option, value)
    assert cli.exit_code == 2 and said in cli.stderr and cli.stderr.count("\n") == 1
