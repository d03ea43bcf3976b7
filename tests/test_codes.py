"""Collector codes: what people type, what we reject, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.codes import CollectorCode, looks_like_code, parse_code
from cardbase.errors import CodeError
from cardbase.fields import RARITY_NAMES as RARITIES
from cardbase.limits import MAX_NUMBER, MAX_SERIES


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 U 132", CollectorCode(1, "U", 132)),
        ("1U132", CollectorCode(1, "U", 132)),
        ("1-U-132", CollectorCode(1, "U", 132)),
        ("1/u/132", CollectorCode(1, "U", 132)),
        ("  1   u   132  ", CollectorCode(1, "U", 132)),
        ("01 r 007", CollectorCode(1, "R", 7)),
        ("2 s 1", CollectorCode(2, "S", 1)),
        ("12-P-4", CollectorCode(12, "P", 4)),
        ("1 e 99", CollectorCode(1, "E", 99)),
        ("3c5", CollectorCode(3, "C", 5)),
    ],
)
def test_parse_accepts_what_people_type(text: str, expected: CollectorCode) -> None:
    assert parse_code(text) == expected


def test_canonical_form() -> None:
    assert str(parse_code("01 r 007")) == "1 R 7"
    assert parse_code("1u132").rarity_name == "Uncommon"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 X 132", "1 X 132: rarity 'X' is not one of C U R E P S"),
        ("1 UU 132", "rarity 'UU' is not one of"),
        ("0 U 5", "0 U 5: series 0 must be 1 or more"),
        ("1 U 0", "1 U 0: card number 0 must be 1 or more"),
        ("1 U", "the card number is missing"),
        ("", "empty collector code"),
        ("   ", "empty collector code"),
        ("chugawug", "not a collector code"),
        ("U 132", "not a collector code"),
        ("1 U 13a", "unexpected 'a' after the card number"),
        ("1000 U 1", "series 1000 is too large"),
        (f"1 U {MAX_NUMBER + 1}", "card number 100000 is too large"),
        ("1 U 1 2", "unexpected '2'"),
        ("1 ü 3", "rarity 'ü' is not one of"),
        ("1 U -3", "1 U -3: card number -3 must be 1 or more"),  # a minus, not a separator
        ("1/U/-3", "card number -3 must be 1 or more"),
        ("-1 U 3", "series -1 must be 1 or more"),
        ("1 U " + "9" * 5_000, "card number 99999999999999999999... (5,000 characters) is too"),
        ("1 U -" + "9" * 5_000, "card number -9999999999999999999... (5,001 characters) must be"),
        ("9" * 5_000 + " U 1", "series 99999999999999999999... (5,000 characters) is too large"),
        ("1 U 3 " + "x" * 5_000, "unexpected 'xxxxxxxxxxxxxxxxxxxx... (5,000 characters)'"),
        ("1 U 3\n4", "1 U 3\\n4: unexpected '4'"),  # the newline shown, the message one line
    ],
)
def test_parse_rejects_naming_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(CodeError) as caught:
        parse_code(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 250  # the input is quoted, shortened if long


@pytest.mark.parametrize(
    ("text", "code"), [("1-U-3", "1 U 3"), ("1U-3", "1 U 3"), ("1 -U- 3", "1 U 3")]
)
def test_a_dash_between_parts_is_a_separator(text: str, code: str) -> None:
    assert str(parse_code(text)) == code


@given(
    st.sampled_from(["", "-", "0"]),
    st.text(st.sampled_from("0123456789"), min_size=1, max_size=6_000),
)
def test_any_number_is_a_code_or_a_code_error(sign: str, digits: str) -> None:
    for text in (f"1 U {sign}{digits}", f"{sign}{digits} U 1"):
        try:
            parse_code(text)
        except CodeError as exc:
            assert len(str(exc)) < 250


codes = st.builds(
    CollectorCode,
    st.integers(1, MAX_SERIES),
    st.sampled_from(sorted(RARITIES)),
    st.integers(1, MAX_NUMBER),
)


@given(codes)
def test_format_then_parse_is_identity(code: CollectorCode) -> None:
    assert parse_code(str(code)) == code


@given(codes, st.sampled_from(["", " ", "-", "/", "  ", " - "]), st.booleans(), st.integers(0, 2))
def test_any_accepted_spelling_parses_to_the_same_code(
    code: CollectorCode, separator: str, lower: bool, zeros: int
) -> None:
    rarity = code.rarity.lower() if lower else code.rarity
    text = f"{'0' * zeros}{code.series}{separator}{rarity}{separator}{'0' * zeros}{code.number}"
    assert parse_code(text) == code


@given(st.text(max_size=30))
def test_parser_raises_only_its_own_error(text: str) -> None:
    try:
        code = parse_code(text)
    except CodeError:
        return
    assert parse_code(str(code)) == code


def test_looks_like_code() -> None:
    assert looks_like_code("1U132")
    assert looks_like_code("1 X 132")
    assert not looks_like_code("Chugawug Cook")
    assert not looks_like_code("Swarm!")
