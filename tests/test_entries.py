"""Card list lines: counts, names or codes, finishes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.catalog.entries import format_entry, parse_entry
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL


@pytest.mark.parametrize(
    ("line", "copies", "card", "finish"),
    [
        ("Chugawug Cook", 1, "Chugawug Cook", None),
        ("3 Chugawug Cook", 3, "Chugawug Cook", None),
        ("3x Chugawug Cook", 3, "Chugawug Cook", None),
        ("3X Chugawug Cook", 3, "Chugawug Cook", None),
        ("Chugawug Cook x3", 3, "Chugawug Cook", None),
        ("Chugawug Cook x 3", 3, "Chugawug Cook", None),
        ('3x"1 C 14"', 3, "1 C 14", None),
        ("3x1 C 14", 3, "1 C 14", None),
        ("1 U 132", 1, "1 U 132", None),
        ("1 X 132", 1, "1 X 132", None),  # a code with a bad letter, not "1x card 132"
        ("2 1 U 132 foil", 2, "1 U 132", FOIL),
        ("2 1U132", 2, "1U132", None),
        ("Chugawug Cook x3 foil", 3, "Chugawug Cook", FOIL),
        ("foil Chugawug Cook", 1, "Chugawug Cook", FOIL),
        ("2 Chugawug Cook non-foil", 2, "Chugawug Cook", NONFOIL),
        ("  2   Chugawug   Cook  ", 2, "Chugawug Cook", None),
        ("Swarm!", 1, "Swarm!", None),
        ("1 Xylophone Yeti", 1, "Xylophone Yeti", None),
        ("Box3", 1, "Box3", None),
    ],
)
def test_parse_entry(line: str, copies: int, card: str, finish: str | None) -> None:
    entry = parse_entry(line)
    assert (entry.copies, entry.card, entry.finish) == (copies, card, finish)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("   ", "names no card"),
        ("", "names no card"),
        ("0 Chugawug Cook", "count must be 1"),
        ("10000 Chugawug Cook", "count must be 1 to 9999, not 10000"),
        ("99999999999999999999999 Chugawug Cook", "count must be 1 to 9999, not 9999"),
        ("9" * 5_000 + " Chugawug Cook", r"not 99999999999999999999\.\.\. \(5,000 characters\)"),
        ("Chugawug Cook x" + "9" * 5_000, "count must be 1 to 9999"),
        ("9" * 5_000 + 'x"1 C 14"', "count must be 1 to 9999"),
    ],
    ids=["spaces", "empty", "zero", "10000", "2**76", "5000 digits", "x5000 digits", "5000x code"],
)
def test_bad_entries(line: str, message: str) -> None:
    with pytest.raises(CardbaseError, match=message) as caught:
        parse_entry(line)
    assert len(str(caught.value)) < 250  # the line is quoted, shortened if long


def test_zero_allowed_where_asked() -> None:
    assert parse_entry("Chugawug Cook x0", minimum=0).copies == 0


names = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll"), max_codepoint=0x24F),
    min_size=1,
    max_size=12,
).filter(lambda s: s.lower() not in ("x", "foil", "foils", "holo", "normal", "regular", "nonfoil"))


@given(
    st.integers(1, 9999),
    st.lists(names, min_size=1, max_size=3),
    st.sampled_from([None, FOIL, NONFOIL]),
)
def test_format_then_parse_gives_the_same_entry(
    copies: int, words: list[str], finish: str | None
) -> None:
    card = " ".join(words)
    entry = parse_entry(format_entry(copies, card, finish))
    assert (entry.copies, entry.card, entry.finish) == (copies, card, finish)
